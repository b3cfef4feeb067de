/** Show Logs (a following terminal that survives restarts) and Open Logs in Editor. */
import * as vscode from 'vscode';
import { followContainerLogs } from '../logs/logFollower';
import { logsUri } from '../logs/logsDocumentProvider';
import { BufferedPseudoterminal } from '../terminals/bufferedPseudoterminal';
import { ANSI, toTerminalText } from '../terminals/terminalText';
import type { CommandFactories } from './types';
import { isCancellation } from './feedback';
import { resolveContainers } from './targets';

export const logCommands: CommandFactories = {
  'berth.showLogs': (ctx) => async (...args: unknown[]) => {
    const target = await resolveContainers(ctx, args, { placeHolder: 'Container whose logs to follow', eligible: () => true, many: false });
    const ref = target?.refs[0];
    if (!ref) return undefined;
    const terminal = new BufferedPseudoterminal();
    const terminalName = `Logs: ${ref.name}`;
    vscode.window.createTerminal({ name: terminalName, pty: terminal, iconPath: new vscode.ThemeIcon('output') }).show();
    const sink = {
      output: (stream: 'stdout' | 'stderr', text: string) => {
        const shown = toTerminalText(text);
        terminal.write(stream === 'stderr' ? ANSI.red(shown) : shown);
      },
      notice: (text: string) => terminal.writeLine(ANSI.dim(`[Berth] ${text}`)),
    };
    followContainerLogs(ref.session.client, ref.id, sink, {
      tail: ctx.settings.logsTail === 0 ? 'all' : ctx.settings.logsTail,
      signal: terminal.signal,
      followRestarts: true,
    }).then(
      () => terminal.writeLine(ANSI.dim('[Berth] end of logs')),
      (error: unknown) => {
        if (isCancellation(error) || terminal.signal.aborted) return;
        const message = error instanceof Error ? error.message : String(error);
        ctx.log.error(`Following logs of ${ref.name}: ${message}`);
        terminal.writeLine(ANSI.red(`[Berth] ${message}`));
      },
    );
    return { terminalName };
  },

  'berth.openLogsInEditor': (ctx) => async (...args: unknown[]) => {
    const target = await resolveContainers(ctx, args, { placeHolder: 'Container whose logs to open', eligible: () => true, many: false });
    const ref = target?.refs[0];
    if (!ref) return undefined;
    // The URI names the engine only when there are several, so it stays as documented with one.
    const uri = logsUri(ref.name, ref.id, ctx.engines.isMulti ? ref.session.id : undefined);
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document, { preview: false });
    return { uri: uri.toString() };
  },
};
