/** Show Logs (a following terminal that survives restarts) and Open Logs in Editor. */
import * as vscode from 'vscode';
import { errorMessage } from '../common/errors';
import { BufferedPseudoterminal } from '../terminals/bufferedPseudoterminal';
import { StreamOutputFilters } from '../terminals/outputFilter';
import { ANSI, toTerminalText } from '../terminals/terminalText';
import { command, type CommandEntry } from '../workbench/commandTable';
import type { CoreDeps } from '../workbench/deps';
import { isCancellation } from '../workbench/feedback';
import { resolveContainers } from '../workbench/targets';
import { followContainerLogs } from './logFollower';
import { logsUri } from './logsDocumentProvider';

export const logCommands: ReadonlyArray<CommandEntry<CoreDeps>> = [
  command('berth.showLogs', 'Showing logs', (deps) => async (...args: unknown[]) => {
    const target = await resolveContainers(deps, args, { placeHolder: 'Container whose logs to follow', eligible: () => true, many: false });
    const ref = target?.refs[0];
    if (!ref) return undefined;
    const terminal = new BufferedPseudoterminal();
    const terminalName = `Logs: ${ref.name}`;
    vscode.window.createTerminal({ name: terminalName, pty: terminal, iconPath: new vscode.ThemeIcon('output') }).show();
    // Container output is untrusted: colours pass, terminal control does not (terminals/outputFilter.ts).
    const filters = new StreamOutputFilters();
    const sink = {
      output: (stream: 'stdout' | 'stderr', text: string) => {
        const shown = toTerminalText(filters.filter(stream, text));
        terminal.write(stream === 'stderr' ? ANSI.red(shown) : shown);
      },
      notice: (text: string) => terminal.writeLine(ANSI.dim(`[Berth] ${text}`)),
    };
    const engine = ref.session.id;
    followContainerLogs(() => deps.sessionFor(engine).client, ref.id, sink, {
      tail: deps.settings.logsTail === 0 ? 'all' : deps.settings.logsTail,
      signal: terminal.signal,
      followRestarts: true,
    }).then(
      () => terminal.writeLine(ANSI.dim('[Berth] end of logs')),
      (error: unknown) => {
        if (isCancellation(error) || terminal.signal.aborted) return;
        const message = errorMessage(error);
        deps.log.error(`Following logs of ${ref.name}: ${message}`);
        terminal.writeLine(ANSI.red(`[Berth] ${message}`));
      },
    );
    return { terminalName };
  }),

  command('berth.openLogsInEditor', 'Opening logs', (deps) => async (...args: unknown[]) => {
    const target = await resolveContainers(deps, args, { placeHolder: 'Container whose logs to open', eligible: () => true, many: false });
    const ref = target?.refs[0];
    if (!ref) return undefined;
    // The URI names the engine only when there are several, so it stays as documented with one.
    const uri = logsUri(ref.name, ref.id, deps.engines.isMulti ? ref.session.id : undefined);
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document, { preview: false });
    return { uri: uri.toString() };
  }),
];
