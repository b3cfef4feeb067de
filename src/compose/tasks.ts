/**
 * Compose runs as VS Code tasks: a `ProcessExecution` of the user's implementation with an argument array (never a
 * shell line), its environment pointing at the engine the explorer shows. The `berth-compose` task type lets
 * tasks.json and preLaunchTask use the same runs; its schema is in package.json (taskDefinitions).
 */
import { dirname, isAbsolute, resolve } from 'node:path';
import * as vscode from 'vscode';
import { Disposable } from '../common/lifecycle';
import {
  COMPOSE_COMMANDS,
  applyEnvironment,
  checkSelection,
  composeArguments,
  composeEnvironment,
  describeRun,
  detectComposeImplementation,
  readComposeModel,
  type ComposeCommand,
  type ComposeImplementation,
  type ComposeModel,
  type ComposeRun,
} from '../engine';
import type { EngineSession } from '../model/session';
import type { CoreDeps } from '../workbench/deps';
import { reportError } from '../workbench/feedback';

export const COMPOSE_TASK_TYPE = 'berth-compose';
const IMPLEMENTATION_SETTING = 'berth.compose.implementation';

export interface ComposeTaskDefinition extends vscode.TaskDefinition {
  readonly type: typeof COMPOSE_TASK_TYPE;
  readonly command: ComposeCommand;
  readonly files?: string[];
  readonly services?: string[];
  readonly profiles?: string[];
  readonly volumes?: boolean;
  readonly projectName?: string;
}

/** The implementation, detected once and again only when the setting changes. */
export class ComposeImplementations extends Disposable {
  private detected: Promise<ComposeImplementation> | undefined;

  constructor() {
    super();
    this._register(
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration(IMPLEMENTATION_SETTING)) this.detected = undefined;
      }),
    );
  }

  get(): Promise<ComposeImplementation> {
    const setting = vscode.workspace.getConfiguration().get<string>(IMPLEMENTATION_SETTING, 'auto');
    const detected = (this.detected ??= detectComposeImplementation(setting));
    // A failed detection is not kept: the user may install one and try again.
    detected.catch(() => {
      if (this.detected === detected) this.detected = undefined;
    });
    return detected;
  }
}

/** Services the chosen profiles enable, with those that have none (for implementations without `--profile`). */
function servicesOfProfiles(model: ComposeModel, profiles: readonly string[]): string[] {
  return model.services.filter((service) => service.profiles.length === 0 || service.profiles.some((profile) => profiles.includes(profile))).map((service) => service.name);
}

export interface PreparedRun {
  readonly task: vscode.Task;
  readonly implementation: ComposeImplementation;
  readonly args: readonly string[];
}

/**
 * Everything a run needs checked before a process starts: the files read (a YAML error with its line and column),
 * the services and profiles known, the engine reachable, an implementation found.
 */
export async function prepareRun(
  implementations: ComposeImplementations,
  session: EngineSession,
  run: ComposeRun,
  where: { cwd?: string | undefined; scope?: vscode.TaskScope | vscode.WorkspaceFolder | undefined },
): Promise<PreparedRun> {
  const model = await readComposeModel(run.files);
  checkSelection(model, run);
  const endpoint = session.descriptor.endpoint;
  if (!endpoint) throw session.configError instanceof Error ? session.configError : new Error(`${session.name} has no usable endpoint`);
  await session.client.system.ping();
  const implementation = await implementations.get();
  const complete: ComposeRun = { ...run, servicesOfProfiles: servicesOfProfiles(model, run.profiles ?? []) };
  const args = composeArguments(implementation, complete);
  const change = composeEnvironment(implementation, endpoint);
  // A task's env is merged into the inherited one: a variable is cleared by giving it an empty value.
  const env = applyEnvironment({}, { set: { ...Object.fromEntries(change.unset.map((name) => [name, ''])), ...change.set }, unset: [] });
  const cwd = where.cwd ?? dirname(run.files[0] ?? '.');
  const definition: ComposeTaskDefinition = {
    type: COMPOSE_TASK_TYPE,
    command: run.command,
    files: [...run.files],
    ...(run.services?.length ? { services: [...run.services] } : {}),
    ...(run.profiles?.length ? { profiles: [...run.profiles] } : {}),
    ...(run.volumes ? { volumes: true } : {}),
    ...(run.projectName ? { projectName: run.projectName } : {}),
  };
  const task = new vscode.Task(
    definition,
    where.scope ?? vscode.TaskScope.Workspace,
    describeRun(implementation, run),
    'Berth',
    new vscode.ProcessExecution(implementation.command, args, { cwd, env }),
    [],
  );
  task.presentationOptions = { reveal: vscode.TaskRevealKind.Always, panel: vscode.TaskPanelKind.Dedicated, clear: true };
  return { task, implementation, args };
}

/** Runs a task and resolves with its process's exit code (undefined when it could not start). */
export async function runTask(task: vscode.Task): Promise<number | undefined> {
  const ended: Array<{ execution: vscode.TaskExecution; code: number | undefined }> = [];
  let waiting: ((code: number | undefined) => void) | undefined;
  let execution: vscode.TaskExecution | undefined;
  const subscriptions = [
    vscode.tasks.onDidEndTaskProcess((event) => {
      if (execution && event.execution === execution) waiting?.(event.exitCode);
      else ended.push({ execution: event.execution, code: event.exitCode });
    }),
    vscode.tasks.onDidEndTask((event) => {
      if (execution && event.execution === execution) setTimeout(() => waiting?.(undefined), 1000);
    }),
  ];
  try {
    execution = await vscode.tasks.executeTask(task);
    const early = ended.find((entry) => entry.execution === execution);
    if (early) return early.code;
    return await new Promise<number | undefined>((resolveCode) => (waiting = resolveCode));
  } finally {
    for (const subscription of subscriptions) subscription.dispose();
  }
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/** The `berth-compose` task type: tasks.json entries resolved into runs on the current engine. */
export class ComposeTaskProvider extends Disposable implements vscode.TaskProvider {
  constructor(
    private readonly deps: CoreDeps,
    private readonly implementations: ComposeImplementations,
  ) {
    super();
    this._register(vscode.tasks.registerTaskProvider(COMPOSE_TASK_TYPE, this));
  }

  provideTasks(): vscode.Task[] {
    return [];
  }

  async resolveTask(task: vscode.Task): Promise<vscode.Task | undefined> {
    const definition = task.definition as Partial<ComposeTaskDefinition>;
    try {
      const command = definition.command ?? 'up';
      if (!COMPOSE_COMMANDS.includes(command)) throw new Error(`A berth-compose task's "command" is one of ${COMPOSE_COMMANDS.join(', ')}, not "${String(command)}"`);
      const folder = typeof task.scope === 'object' ? task.scope.uri.fsPath : vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
      const named = stringList(definition.files);
      const files = (named.length > 0 ? named : ['compose.yaml']).map((file) => (isAbsolute(file) || !folder ? file : resolve(folder, file)));
      const run: ComposeRun = {
        command,
        files,
        services: stringList(definition.services),
        profiles: stringList(definition.profiles),
        volumes: definition.volumes === true,
        projectName: typeof definition.projectName === 'string' ? definition.projectName : undefined,
      };
      const prepared = await prepareRun(this.implementations, this.deps.session, run, { cwd: folder, scope: task.scope });
      // VS Code matches the resolved task to the configured one by its definition: keep the user's.
      const resolved = new vscode.Task(task.definition, task.scope ?? vscode.TaskScope.Workspace, task.name, 'Berth', prepared.task.execution, []);
      resolved.presentationOptions = prepared.task.presentationOptions;
      return resolved;
    } catch (error) {
      reportError(this.deps, `Resolving the task ${task.name}`, error);
      return undefined;
    }
  }
}
