/**
 * The Agents feature: Berth's engine tools (src/tools) as VS Code language-model tools, for agent mode and any
 * extension that calls `vscode.lm.invokeTool`. Read tools run without asking; act tools ask first, with a
 * confirmation that says exactly what will happen. They act on the current engine, which is never one a workspace
 * named without the user's consent (workspaceConsent.ts holds such engines back from the sessions).
 * `berth.agentTools.enabled` turns them off.
 */
import * as vscode from 'vscode';
import type { DisposableStore } from '../common/lifecycle';
import { AGENT_TOOLS } from '../tools';
import type { AgentsDeps } from './deps';
import { BerthLanguageModelTool, vscodeToolName } from './languageModelTool';

export type { AgentsDeps } from './deps';

export function registerAgents(deps: AgentsDeps, owner: DisposableStore): void {
  // Older hosts (and some forks) have no language-model API: Berth works without its tools there.
  if (typeof vscode.lm?.registerTool !== 'function') return;
  for (const tool of AGENT_TOOLS) owner.add(vscode.lm.registerTool(vscodeToolName(tool), new BerthLanguageModelTool(tool, deps)));
}
