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
  readonly stopTimeoutSeconds: number;
  readonly runNetwork: string;
}

export function readSettings(): BerthSettings {
  const config = vscode.workspace.getConfiguration(CONFIG_SECTION);
  const groupBy = config.get<string>('containers.groupBy', 'none');
  const engines = parseConfiguredEngines(config.get<unknown>('engines', []));
  return {
    engineHost: config.get<string>('engine.host', '').trim(),
    engines: engines.engines,
    engineProblems: engines.problems,
    showAll: config.get<boolean>('containers.showAll', true),
    groupBy: groupBy === 'composeProject' ? 'composeProject' : 'none',
    showStats: config.get<boolean>('containers.showStats', true),
    onlyUnhealthy: config.get<boolean>('containers.onlyUnhealthy', false),
    logsTail: nonNegativeInteger(config.get<number>('logs.tail', 1000), 1000),
    logsMaxLines: Math.max(100, nonNegativeInteger(config.get<number>('logs.maxLines', 100_000), 100_000)),
    stopTimeoutSeconds: nonNegativeInteger(config.get<number>('stop.timeoutSeconds', 10), 10),
    runNetwork: config.get<string>('run.network', '').trim(),
  };
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
