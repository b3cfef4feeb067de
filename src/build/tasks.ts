/**
 * Task types `berth-build` (dockerfile, context, tag, args, target, noCache) and `berth-run` (image, command and the
 * run options), with a TaskProvider that offers one build task per Dockerfile of the workspace. Both run in a
 * Pseudoterminal through the engine API (no docker CLI, no shell). A build failure is printed as
 * `FILE:LINE: error: MESSAGE`, which the `$berth-build` problem matcher turns into a diagnostic on the Dockerfile.
 * A `berth-run` task starts the container in the background by default, so a launch.json `preLaunchTask` goes on
 * once it runs; `"detach": false` streams its output and ends with its exit status.
 */
import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, resolve } from 'node:path';
import * as vscode from 'vscode';
import { errorMessage } from '../common/errors';
import { shortId } from '../common/format';
import { Disposable } from '../common/lifecycle';
import { BuildError, buildImage, failureLine, isLocalEngine, resolveRunOptions, runContainer, runInBackground, type RunOptionsInput } from '../engine';
import { BufferedPseudoterminal } from '../terminals/bufferedPseudoterminal';
import { toTerminalText } from '../terminals/terminalText';
import { workspaceBuildLabels } from './buildImage';
import { BuildTranscript, DOCKERFILE_GLOB, suggestedTag } from './buildInput';
import type { BuildDeps } from './deps';

export interface BuildTaskDefinition extends vscode.TaskDefinition {
  readonly type: 'berth-build';
  readonly dockerfile: string;
  readonly context?: string;
  readonly tag?: string;
  readonly args?: Record<string, string>;
  readonly target?: string;
  readonly noCache?: boolean;
}

export interface RunTaskDefinition extends vscode.TaskDefinition, RunOptionsInput {
  readonly type: 'berth-run';
  readonly image: string;
  readonly command?: string[];
  readonly name?: string;
  /** Start it and end the task (default), or stream its output until it exits. */
  readonly detach?: boolean;
}

export class BerthTaskProvider extends Disposable implements vscode.TaskProvider {
  constructor(private readonly deps: BuildDeps) {
    super();
    this._register(vscode.tasks.registerTaskProvider('berth-build', this));
    // A provider may offer only tasks of the type it is registered for: VS Code reports any other as a task error.
    // Run tasks are written in tasks.json, so this one only resolves them.
    this._register(vscode.tasks.registerTaskProvider('berth-run', { provideTasks: () => [], resolveTask: (task) => this.resolveTask(task) }));
  }

  /** One build task per Dockerfile; run tasks are written in tasks.json (they need an image and options). */
  async provideTasks(): Promise<vscode.Task[]> {
    const found = await vscode.workspace.findFiles(DOCKERFILE_GLOB, '**/node_modules/**', 200);
    return found.map((uri) => {
      const folder = vscode.workspace.getWorkspaceFolder(uri);
      const dockerfile = folder ? vscode.workspace.asRelativePath(uri, false) : uri.fsPath;
      return this.buildTask({ type: 'berth-build', dockerfile, tag: suggestedTag(uri.fsPath) }, folder ?? vscode.TaskScope.Workspace);
    });
  }

  resolveTask(task: vscode.Task): vscode.Task | undefined {
    const scope = task.scope ?? vscode.TaskScope.Workspace;
    const definition = task.definition;
    if (definition.type === 'berth-build' && typeof definition['dockerfile'] === 'string') return this.buildTask(definition as BuildTaskDefinition, scope, task.name);
    if (definition.type === 'berth-run' && typeof definition['image'] === 'string') return this.runTask(definition as RunTaskDefinition, scope, task.name);
    return undefined;
  }

  private buildTask(definition: BuildTaskDefinition, scope: vscode.WorkspaceFolder | vscode.TaskScope, name?: string): vscode.Task {
    const execution = new vscode.CustomExecution(() => Promise.resolve(this.terminal((terminal) => this.build(definition, folderOf(scope), terminal))));
    return new vscode.Task(definition, scope, name ?? `build ${definition.dockerfile}`, 'berth', execution, ['$berth-build']);
  }

  private runTask(definition: RunTaskDefinition, scope: vscode.WorkspaceFolder | vscode.TaskScope, name?: string): vscode.Task {
    const execution = new vscode.CustomExecution(() => Promise.resolve(this.terminal((terminal) => this.run(definition, folderOf(scope), terminal))));
    return new vscode.Task(definition, scope, name ?? `run ${definition.image}`, 'berth', execution, []);
  }

  /** A terminal that runs `work` once opened and closes with its exit status. */
  private terminal(work: (terminal: BufferedPseudoterminal) => Promise<number>): vscode.Pseudoterminal {
    const terminal = new BufferedPseudoterminal();
    void terminal.opened.then(async () => {
      let code: number;
      try {
        code = await work(terminal);
      } catch (error) {
        terminal.writeLine(`\x1b[31m${errorMessage(error)}\x1b[0m`);
        code = 1;
      }
      terminal.exit(code);
    });
    return terminal;
  }

  private async build(definition: BuildTaskDefinition, folder: string, terminal: BufferedPseudoterminal): Promise<number> {
    const dockerfile = absolute(folder, definition.dockerfile);
    const contextDir = definition.context !== undefined ? absolute(folder, definition.context) : dirname(dockerfile);
    const tag = definition.tag ?? suggestedTag(dockerfile);
    const transcript = new BuildTranscript();
    const session = this.deps.session;
    try {
      const result = await buildImage(session.client, {
        contextDir,
        dockerfile,
        tags: [tag],
        buildArgs: definition.args,
        target: definition.target,
        noCache: definition.noCache,
        labels: workspaceBuildLabels(contextDir),
        networkMode: vscode.workspace.getConfiguration('berth.build').get<string>('network', '').trim() || undefined,
        credentials: this.deps.registries.chain.asLookup(),
        signal: terminal.signal,
        onMessage: (message) => terminal.write(transcript.render(message)),
      });
      terminal.writeLine(`Built ${tag}${result.imageId ? ` (${shortId(result.imageId)})` : ''}`);
      await session.model.refetchImage(result.imageId ?? tag);
      return 0;
    } catch (error) {
      const message = errorMessage(error).replace(/\s*[\r\n]+\s*/g, ' ');
      const line = failureLine(await readFile(dockerfile, 'utf8').catch(() => ''), message, error instanceof BuildError ? error.step : undefined);
      // The problem matcher's format: the Dockerfile, the line of the failing step, the engine's words.
      terminal.write(transcript.failure(`${dockerfile}:${line ?? 1}: error: ${message}`));
      return error instanceof BuildError ? error.exitCode : 1;
    }
  }

  private async run(definition: RunTaskDefinition, folder: string, terminal: BufferedPseudoterminal): Promise<number> {
    const session = this.deps.session;
    const extra = await resolveRunOptions(definition, { cwd: folder, environment: process.env, engineIsLocal: isLocalEngine(session.client.endpoint) });
    const spec = {
      image: definition.image,
      cmd: definition.command,
      name: definition.name,
      networkMode: extra.networkMode ?? (this.deps.settings.runNetwork || undefined),
      env: extra.env,
      labels: { ...extra.labels, 'berth.created-by': 'vscode-task' },
      config: extra.config,
      hostConfig: extra.hostConfig,
      credentials: this.deps.registries.chain.asLookup(),
      onStatus: (text: string) => terminal.writeLine(text),
    };
    if (definition.detach !== false) {
      const { id } = await runInBackground(session.client, { ...spec, signal: terminal.signal });
      terminal.writeLine(`Started ${definition.image} as ${shortId(id)}`);
      await session.model.refetchContainers([id]);
      return 0;
    }
    const result = await runContainer(session.client, {
      ...spec,
      signal: terminal.signal,
      onOutput: (chunk) => terminal.write(toTerminalText(chunk.data.toString('utf8'))),
    });
    terminal.writeLine(`${definition.image} exited with status ${result.exitCode}`);
    return result.exitCode;
  }
}

function folderOf(scope: vscode.WorkspaceFolder | vscode.TaskScope): string {
  if (typeof scope === 'object') return scope.uri.fsPath;
  return vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? process.cwd();
}

function absolute(folder: string, path: string): string {
  return isAbsolute(path) ? path : resolve(folder, path);
}
