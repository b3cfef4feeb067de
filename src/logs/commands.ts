/** Show Logs (a following terminal that survives restarts) and Open Logs in Editor. */
import * as vscode from 'vscode';
import { errorMessage } from '../common/errors';
import { BufferedPseudoterminal } from '../terminals/bufferedPseudoterminal';
import { ANSI } from '../terminals/terminalText';
import { command, type CommandEntry } from '../workbench/commandTable';
import { isCancellation } from '../workbench/feedback';
import { resolveContainers } from '../workbench/targets';
import type { LogCommandDeps } from './deps';
import { followContainerLogs } from './logFollower';
import { showMergedLogs } from './mergedLogsTerminal';
import { logsUri } from './logsDocumentProvider';
import { LogTerminalView } from './logTerminal';

export const logCommands: ReadonlyArray<CommandEntry<LogCommandDeps>> = [
  command('berth.showLogs', 'Showing logs', (deps) => async (...args: unknown[]) => {
    const target = await resolveContainers(deps, args, { placeHolder: vscode.l10n.t('Container whose logs to follow'), eligible: () => true, many: true });
    // Several rows (on one engine or several): one terminal with their lines merged in timestamp order.
    if (target && target.refs.length > 1) return showMergedLogs(deps, target.refs);
    const ref = target?.refs[0];
    if (!ref) return undefined;
    const terminalName = `Logs: ${ref.name}`;
    const key = `${ref.session.id}/${ref.id}`;
    if (deps.logTerminals.reveal(key)) return { terminalName, reused: true };
    const terminal = new BufferedPseudoterminal();
    const shown = vscode.window.createTerminal({ name: terminalName, pty: terminal, iconPath: new vscode.ThemeIcon('output') });
    deps.logTerminals.add(key, shown);
    shown.show();
    const engine = ref.session.id;
    // Container output is untrusted: colours pass, terminal control does not (terminals/outputFilter.ts).
    const sink = new LogTerminalView(terminal, ref.name, { id: ref.id, engine }, false);
    deps.logTerminalViews.add(shown, sink);
    followContainerLogs(() => deps.sessionFor(engine).client, ref.id, sink, {
      tail: deps.settings.logsTail === 0 ? 'all' : deps.settings.logsTail,
      signal: terminal.signal,
      followRestarts: true,
    }).then(
      () => {
        deps.logTerminals.forget(key, shown);
        deps.logTerminalViews.forget(shown);
        terminal.writeLine(ANSI.dim('[Berth] end of logs'));
      },
      (error: unknown) => {
        deps.logTerminals.forget(key, shown);
        deps.logTerminalViews.forget(shown);
        if (isCancellation(error) || terminal.signal.aborted) return;
        const message = errorMessage(error);
        deps.log.error(`Following logs of ${ref.name}: ${message}`);
        terminal.writeLine(ANSI.red(`[Berth] ${message}`));
      },
    );
    return { terminalName, reused: false };
  }),

  command('berth.openLogsInEditor', 'Opening logs', (deps) => async (...args: unknown[]) => {
    const target = await resolveContainers(deps, args, { placeHolder: vscode.l10n.t('Container whose logs to open'), eligible: () => true, many: false });
    const ref = target?.refs[0];
    if (!ref) return undefined;
    // The URI names the engine only when there are several, so it stays as documented with one.
    const uri = logsUri(ref.name, ref.id, deps.engines.isMulti ? ref.session.id : undefined);
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document, { preview: false });
    return { uri: uri.toString() };
  }),
];
