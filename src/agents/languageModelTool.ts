/** One of Berth's engine tools as a VS Code language-model tool, acting on the current engine. */
import * as vscode from 'vscode';
import { isLocalEngine } from '../engine';
import { invokeAgentTool, type AgentTool, type KnownEngine, type ToolContext } from '../tools';
import type { AgentsDeps } from './deps';

/** VS Code's name of a tool: unique across extensions. */
export function vscodeToolName(tool: AgentTool): string {
  return `berth_${tool.name}`;
}

export const AGENT_TOOLS_SETTING = 'agentTools.enabled';

function enabled(): boolean {
  return vscode.workspace.getConfiguration('berth').get<boolean>(AGENT_TOOLS_SETTING, true);
}

function workspaceFolder(): string {
  return vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? process.env.HOME ?? '/';
}

function knownEngines(deps: AgentsDeps): KnownEngine[] {
  return deps.engines.all.map((session) => ({
    name: session.name,
    endpoint: session.endpointDisplay,
    current: session === deps.session,
    state: session.statusText(),
  }));
}

export class BerthLanguageModelTool implements vscode.LanguageModelTool<Record<string, unknown>> {
  constructor(
    private readonly tool: AgentTool,
    private readonly deps: AgentsDeps,
  ) {}

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<Record<string, unknown>>): vscode.PreparedToolInvocation {
    const engine = this.deps.session.name;
    if (this.tool.kind === 'read') return { invocationMessage: vscode.l10n.t('{0} on {1}', this.tool.title, engine) };
    const act = this.tool.describeAct?.(options.input ?? {}) ?? this.tool.title;
    return {
      invocationMessage: vscode.l10n.t('{0} on {1}', this.tool.title, engine),
      confirmationMessages: { title: this.tool.title, message: new vscode.MarkdownString(vscode.l10n.t('{0} On the engine {1}.', act, engine)) },
    };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<Record<string, unknown>>, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
    if (!enabled()) throw new Error(vscode.l10n.t("Berth's agent tools are turned off (setting berth.agentTools.enabled)."));
    const session = this.deps.session;
    const controller = new AbortController();
    const cancelled = token.onCancellationRequested(() => controller.abort());
    try {
      const client = session.client;
      const context: ToolContext = {
        client,
        credentials: this.tool.kind === 'act' ? this.deps.credentials() : undefined,
        signal: controller.signal,
        cwd: workspaceFolder(),
        environment: {},
        engineIsLocal: isLocalEngine(client.endpoint),
        engines: () => knownEngines(this.deps),
        now: Date.now,
      };
      if (this.tool.kind === 'act') this.deps.log.info(`Agent tool ${vscodeToolName(this.tool)} on ${session.name}: ${this.tool.describeAct?.(options.input) ?? ''}`);
      const result = await invokeAgentTool(this.tool, options.input, context);
      // A failure goes to the model as the tool's error, in the engine's own words.
      if (result.isError) throw new Error(result.text);
      return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(result.text)]);
    } finally {
      cancelled.dispose();
    }
  }
}
