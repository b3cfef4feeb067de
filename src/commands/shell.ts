/** Attach Shell: an interactive shell in a running container, in a VS Code terminal. */
import { errorMessage } from '../common/errors';
import * as vscode from 'vscode';
import { isRunningState } from '../model/containerTree';
import { BufferedPseudoterminal } from '../terminals/bufferedPseudoterminal';
import { runShell, type ContainerChange } from '../terminals/shellSession';
import { ANSI } from '../terminals/terminalText';
import type { CommandFactories } from './types';
import { isCancellation } from './feedback';
import { resolveContainers } from './targets';

const CONTAINER_CHANGES: Record<ContainerChange, string> = {
  stopped: 'stopped',
  restarted: 'restarted',
  removed: 'was removed',
};

export const shellCommands: CommandFactories = {
  'berth.attachShell': (ctx) => async (...args: unknown[]) => {
    const target = await resolveContainers(ctx, args, {
      placeHolder: 'Running container to open a shell in',
      eligible: (record) => isRunningState(record.state),
      many: false,
    });
    const ref = target?.refs[0];
    if (!ref) return undefined;
    const terminal = new BufferedPseudoterminal();
    const terminalName = `Shell: ${ref.name}`;
    vscode.window.createTerminal({ name: terminalName, pty: terminal, iconPath: new vscode.ThemeIcon('terminal') }).show();
    runShell(ref.session.client, ref.id, terminal, (message) => ctx.log.info(message)).then(
      (outcome) => {
        ctx.log.info(`Shell ${outcome.shell} in ${ref.name} ended (exit ${outcome.exitCode ?? 'unknown'})`);
        if (!outcome.containerChange) {
          // The user ended the shell: close like any terminal whose shell exits.
          terminal.exit(outcome.exitCode ?? undefined);
          return;
        }
        // The engine killed the shell (status 137): say why instead of letting VS Code report a failed process.
        terminal.writeLine('');
        terminal.writeLine(ANSI.yellow(`[Berth] ${ref.name} ${CONTAINER_CHANGES[outcome.containerChange]}; the shell ended`));
        terminal.closeOnAnyKey();
      },
      (error: unknown) => {
        if (isCancellation(error) || terminal.signal.aborted) return;
        const message = errorMessage(error);
        ctx.log.error(`Shell in ${ref.name}: ${message}`);
        terminal.writeLine(ANSI.red(`[Berth] ${message}`));
        terminal.closeOnAnyKey();
      },
    );
    return { terminalName };
  },
};
