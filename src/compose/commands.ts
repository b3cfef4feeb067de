import type { CommandEntry } from '../workbench/commandTable';
import type { ComposeDeps } from './deps';
import { groupCommands } from './groupCommands';
import { logsCommands, type ProjectLogsDocuments } from './logs';

export { runCommands } from './runCommands';

/** The commands on Compose projects through the Engine API: group actions and merged logs. */
export function composeCommands(documents: ProjectLogsDocuments): ReadonlyArray<CommandEntry<ComposeDeps>> {
  return [...groupCommands, ...logsCommands(documents)];
}
