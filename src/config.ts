/** Typed access to the `berth.*` settings. Read on demand, so changes apply without a reload. */
import * as vscode from 'vscode';
import { parseConfiguredEngines, type ConfiguredEngine } from './model/engineList';

export const CONFIG_SECTION = 'berth';

/** `berth.containers.groupBy`: a flat list, or one group per Compose project. */
export type GroupBy = 'none' | 'composeProject';

export interface BerthSettings {
  readonly engineHost: string;
  /** `berth.engines`: extra engines by name and host. */
  readonly engines: readonly ConfiguredEngine[];
  /** Entries of `berth.engines` that were ignored, and why. */
  readonly engineProblems: readonly string[];
  readonly showAll: boolean;
  readonly groupBy: GroupBy;
  /** `berth.containers.showStats`: CPU and memory on running rows while the view shows them. */
  readonly showStats: boolean;
  /** `berth.containers.onlyUnhealthy`: the view lists only containers whose healthcheck fails. */
  readonly onlyUnhealthy: boolean;
  readonly logsTail: number;
  readonly logsMaxLines: number;
  /** Most events the Events view keeps per engine (the oldest go first). */
  readonly eventsMaxEntries: number;
  readonly stopTimeoutSeconds: number;
  readonly runNetwork: string;
  /** `berth.run.network` when the workspace sets it (and grants more than `none`): a run asks before it applies it. */
  readonly runNetworkFromWorkspace: WorkspaceValue | undefined;
  /** Engines the workspace's settings name that are not used until the user agrees (workspaceConsent.ts). */
  readonly withheld: readonly WithheldEngine[];
}

/** An engine host from workspace settings that is held back: no request reaches it, it is never made current. */
export interface WithheldEngine {
  readonly setting: 'berth.engine.host' | 'berth.engines';
  readonly host: string;
  /** The settings file that names it, as shown to the user. */
  readonly file: string;
}

/** A setting's value that comes from the workspace's settings, and the file that holds it. */
export interface WorkspaceValue {
  readonly setting: string;
  readonly value: string;
  readonly file: string;
  /** What the user's own settings say ('' when they leave it at the default). */
  readonly userValue: string;
}

/** `berth.run.network` as the workspace sets it, unless the user's own value is the same or it only takes network away. */
function workspaceRunNetwork(config: vscode.WorkspaceConfiguration, file: string): WorkspaceValue | undefined {
  const inspected = config.inspect<string>('run.network');
  const value = (inspected?.workspaceFolderValue ?? inspected?.workspaceValue)?.trim();
  const userValue = (inspected?.globalValue ?? '').trim();
  if (!value || value === 'none' || value === userValue) return undefined;
  return { setting: 'berth.run.network', value, file, userValue };
}

/**
 * Reads the settings. Engine hosts set by the workspace (`.vscode/settings.json`, a `.code-workspace`) are used only
 * when `allowWorkspaceHost` says the user agreed to that host in this workspace; the others are left out (the user's
 * own value applies) and listed in `withheld`. A cloned repository must not choose the engine that gets credentials.
 */
export function readSettings(allowWorkspaceHost: (host: string) => boolean = () => true): BerthSettings {
  const config = vscode.workspace.getConfiguration(CONFIG_SECTION);
  const groupBy = config.get<string>('containers.groupBy', 'composeProject');
  const withheld: WithheldEngine[] = [];
  const file = workspaceSettingsFile();
  let engineHost = config.get<string>('engine.host', '').trim();
  const hostInspected = config.inspect<string>('engine.host');
  const workspaceHost = (hostInspected?.workspaceFolderValue ?? hostInspected?.workspaceValue)?.trim();
  const userHost = (hostInspected?.globalValue ?? '').trim();
  // A workspace that names the engine the user's own settings name chooses nothing: no prompt for it.
  if (workspaceHost && workspaceHost === engineHost && workspaceHost !== userHost && !allowWorkspaceHost(workspaceHost)) {
    withheld.push({ setting: 'berth.engine.host', host: workspaceHost, file });
    engineHost = userHost;
  }
  const enginesInspected = config.inspect<unknown>('engines');
  const workspaceEngines = parseConfiguredEngines(enginesInspected?.workspaceFolderValue ?? enginesInspected?.workspaceValue).engines;
  const userHosts = new Set(parseConfiguredEngines(enginesInspected?.globalValue).engines.map((engine) => engine.host));
  const engines = parseConfiguredEngines(config.get<unknown>('engines', []));
  const fromWorkspace = new Set(
    workspaceEngines.filter((engine) => !userHosts.has(engine.host) && !allowWorkspaceHost(engine.host)).map((engine) => engine.host),
  );
  for (const host of fromWorkspace) withheld.push({ setting: 'berth.engines', host, file });
  return {
    engineHost,
    engines: engines.engines.filter((engine) => !fromWorkspace.has(engine.host)),
    engineProblems: engines.problems,
    showAll: config.get<boolean>('containers.showAll', true),
    groupBy: groupBy === 'none' ? 'none' : 'composeProject',
    showStats: config.get<boolean>('containers.showStats', true),
    onlyUnhealthy: config.get<boolean>('containers.onlyUnhealthy', false),
    logsTail: nonNegativeInteger(config.get<number>('logs.tail', 1000), 1000),
    logsMaxLines: Math.max(100, nonNegativeInteger(config.get<number>('logs.maxLines', 100_000), 100_000)),
    eventsMaxEntries: Math.max(10, nonNegativeInteger(config.get<number>('events.maxEntries', 1000), 1000)),
    stopTimeoutSeconds: nonNegativeInteger(config.get<number>('stop.timeoutSeconds', 10), 10),
    runNetwork: config.get<string>('run.network', '').trim(),
    runNetworkFromWorkspace: workspaceRunNetwork(config, file),
    withheld,
  };
}

/** The file workspace-level settings live in: the .code-workspace file, or the first folder's .vscode/settings.json. */
function workspaceSettingsFile(): string {
  const workspaceFile = vscode.workspace.workspaceFile;
  if (workspaceFile?.scheme === 'file') return workspaceFile.fsPath;
  const folder = vscode.workspace.workspaceFolders?.[0];
  return folder ? vscode.Uri.joinPath(folder.uri, '.vscode', 'settings.json').fsPath : '.vscode/settings.json';
}

/** Writes the show-all toggle where the user has it (workspace if set there, else user settings). */
export async function setShowAll(showAll: boolean): Promise<void> {
  const config = vscode.workspace.getConfiguration(CONFIG_SECTION);
  const inspected = config.inspect<boolean>('containers.showAll');
  const target =
    inspected?.workspaceFolderValue !== undefined
      ? vscode.ConfigurationTarget.WorkspaceFolder
      : inspected?.workspaceValue !== undefined
        ? vscode.ConfigurationTarget.Workspace
        : vscode.ConfigurationTarget.Global;
  await config.update('containers.showAll', showAll, target);
}

/**
 * Appends an engine to `berth.engines` in the user settings. When this workspace sets the list itself, that list
 * hides the user's, so the engine is appended there instead (else it would not show). The caller has validated it.
 */
export async function addConfiguredEngine(engine: ConfiguredEngine): Promise<vscode.ConfigurationTarget> {
  const config = vscode.workspace.getConfiguration(CONFIG_SECTION);
  const inspected = config.inspect<unknown>('engines');
  const [current, target] =
    inspected?.workspaceValue !== undefined
      ? [inspected.workspaceValue, vscode.ConfigurationTarget.Workspace]
      : [inspected?.globalValue, vscode.ConfigurationTarget.Global];
  const list: unknown[] = Array.isArray(current) ? (current as unknown[]) : [];
  await config.update('engines', [...list, { name: engine.name, host: engine.host }], target);
  return target;
}

/** Removes the entries named `name` from `berth.engines` wherever they are set; returns whether one was found. */
export async function removeConfiguredEngine(name: string): Promise<boolean> {
  const config = vscode.workspace.getConfiguration(CONFIG_SECTION);
  const inspected = config.inspect<unknown>('engines');
  const targets: Array<[unknown, vscode.ConfigurationTarget]> = [
    [inspected?.globalValue, vscode.ConfigurationTarget.Global],
    [inspected?.workspaceValue, vscode.ConfigurationTarget.Workspace],
    [inspected?.workspaceFolderValue, vscode.ConfigurationTarget.WorkspaceFolder],
  ];
  let found = false;
  for (const [value, target] of targets) {
    if (!Array.isArray(value)) continue;
    const kept = value.filter((entry: unknown) => !isEngineNamed(entry, name));
    if (kept.length === value.length) continue;
    found = true;
    await config.update('engines', kept, target);
  }
  return found;
}

function isEngineNamed(entry: unknown, name: string): boolean {
  const value = typeof entry === 'object' && entry !== null ? (entry as { name?: unknown }).name : undefined;
  return typeof value === 'string' && value.trim().toLowerCase() === name.toLowerCase();
}

function nonNegativeInteger(value: number | undefined, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.floor(value) : fallback;
}
