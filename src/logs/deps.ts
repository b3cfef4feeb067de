/** What the Logs feature needs of the core. */
import type { OpenTerminals } from '../terminals/openTerminals';
import type { CoreDeps } from '../workbench/deps';
import type { LogsDocumentProvider } from './logsDocumentProvider';
import type { LogTerminalViews } from './logTerminal';

export type LogsDeps = CoreDeps;

/** What the commands get: the core, plus the open logs terminals and documents. */
export interface LogCommandDeps extends LogsDeps {
  /** The Logs terminals still open, by engine and container: Show Logs reveals one instead of opening another. */
  readonly logTerminals: OpenTerminals;
  /** What each open logs terminal shows (its filter): Filter… and Save Logs… act on the active one. */
  readonly logTerminalViews: LogTerminalViews;
  readonly logDocuments: LogsDocumentProvider;
}
