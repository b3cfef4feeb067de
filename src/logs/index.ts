/**
 * The Logs feature: Show Logs (a following terminal) and Open Logs in Editor (a read-only document that keeps
 * appending). extension.ts calls `registerLogs` once.
 */
import type { DisposableStore } from '../common/lifecycle';
import { registerCommandTable } from '../workbench/commandTable';
import { OpenTerminals } from '../terminals/openTerminals';
import { extendDeps, type CoreDeps } from '../workbench/deps';
import { logCommands } from './commands';
import { LogsDocumentProvider } from './logsDocumentProvider';

export type LogsDeps = CoreDeps;

export function registerLogs(deps: LogsDeps, owner: DisposableStore): void {
  owner.add(new LogsDocumentProvider(deps));
  registerCommandTable(logCommands, extendDeps(deps, { logTerminals: owner.add(new OpenTerminals()) }), owner);
}
