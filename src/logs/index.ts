/**
 * The Logs feature: Show Logs (a following terminal), Open Logs in Editor (a read-only document that keeps
 * appending), and the logs workbench on both (filter, time range, Go to Time, Save Logs). extension.ts calls
 * `registerLogs` once.
 */
import type { DisposableStore } from '../common/lifecycle';
import { registerCommandTable } from '../workbench/commandTable';
import { OpenTerminals } from '../terminals/openTerminals';
import { extendDeps } from '../workbench/deps';
import { logCommands } from './commands';
import type { LogsDeps } from './deps';
import { LogsDocumentProvider } from './logsDocumentProvider';
import { LogTerminalViews } from './logTerminal';
import { logWorkbenchCommands } from './workbenchCommands';

export type { LogsDeps } from './deps';

export function registerLogs(deps: LogsDeps, owner: DisposableStore): void {
  const logDocuments = owner.add(new LogsDocumentProvider(deps));
  const commandDeps = extendDeps(deps, { logTerminals: owner.add(new OpenTerminals()), logTerminalViews: new LogTerminalViews(), logDocuments });
  registerCommandTable(logCommands, commandDeps, owner);
  registerCommandTable(logWorkbenchCommands, commandDeps, owner);
}
