/** Typed access to the `berth.*` settings. Read on demand, so changes apply without a reload. */
import * as vscode from 'vscode';
import type { GroupBy } from './model/containerTree';

export const CONFIG_SECTION = 'berth';

export interface BerthSettings {
  readonly engineHost: string;
  readonly showAll: boolean;
  readonly groupBy: GroupBy;
  readonly logsTail: number;
  readonly logsMaxLines: number;
  readonly stopTimeoutSeconds: number;
  readonly runNetwork: string;
}

export function readSettings(): BerthSettings {
  const config = vscode.workspace.getConfiguration(CONFIG_SECTION);
  const groupBy = config.get<string>('containers.groupBy', 'none');
  return {
    engineHost: config.get<string>('engine.host', '').trim(),
    showAll: config.get<boolean>('containers.showAll', true),
    groupBy: groupBy === 'composeProject' ? 'composeProject' : 'none',
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

function nonNegativeInteger(value: number | undefined, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.floor(value) : fallback;
}
