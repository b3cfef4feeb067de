/** Attach Shell: an interactive shell in a running container, in a VS Code terminal. */
import * as vscode from 'vscode';
import { errorMessage } from '../common/errors';
import { isRunningState } from '../model/records';
import { BufferedPseudoterminal } from '../terminals/bufferedPseudoterminal';
import { runShell, type ContainerChange } from '../terminals/shellSession';
import { ANSI } from '../terminals/terminalText';
import { command, type CommandEntry } from '../workbench/commandTable';
import type { CoreDeps } from '../workbench/deps';
import { isCancellation } from '../workbench/feedback';
import { resolveContainers } from '../workbench/targets';

const CONTAINER_CHANGES: Record<ContainerChange, string> = {
  stopped: 'stopped',
  restarted: 'restarted',
  removed: 'was removed',
};

export const shellCommands: ReadonlyArray<CommandEntry<CoreDeps>> = [
  command('berth.attachShell', 'Attaching a shell', (deps) => async (...args: unknown[]) => {
    const target = await resolveContainers(deps, args, {
      placeHolder: vscode.l10n.t('Running container to open a shell in'),
      eligible: (record) => isRunningState(record.state),
      many: false,
    });
    const ref = target?.refs[0];
    if (!ref) return undefined;
    const terminal = new BufferedPseudoterminal();
    const terminalName = `Shell: ${ref.name}`;
    vscode.window.createTerminal({ name: terminalName, pty: terminal, iconPath: new vscode.ThemeIcon('terminal') }).show();
    runShell(ref.session.client, ref.id, terminal, (message) => deps.log.info(message)).then(
      (outcome) => {
        deps.log.info(`Shell ${outcome.shell} in ${ref.name} ended (exit ${outcome.exitCode ?? 'unknown'})`);
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
        deps.log.error(`Shell in ${ref.name}: ${message}`);
        terminal.writeLine(ANSI.red(`[Berth] ${message}`));
        terminal.closeOnAnyKey();
      },
    );
    return { terminalName };
  }),
];
