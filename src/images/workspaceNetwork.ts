/**
 * `berth.run.network` from the workspace's settings (`host`, `container:…`, a named network) gives a container
 * more reach than the engine's default, so a run never applies it silently: the run's confirmation names the value
 * and the settings file, and the user picks it or the engine's default. Options given to the run itself (the
 * options step, a profile, `options.network`) win, and nothing is asked.
 */
import * as vscode from 'vscode';
import type { WorkspaceValue } from '../config';
import { isBerthTestMode } from '../workbench/automation';

/** Automation's answer to the question (honoured in Berth's test mode only): use the workspace's network, or not. */
export type WorkspaceNetworkAnswer = 'use' | 'ignore';

/** The network to run with: the value, undefined for the engine's default, or null when the user cancelled the run. */
export async function runNetworkFor(
  image: string,
  given: string | undefined,
  settingsNetwork: string,
  fromWorkspace: WorkspaceValue | undefined,
  log: vscode.LogOutputChannel,
  answer?: WorkspaceNetworkAnswer,
): Promise<string | undefined | null> {
  if (given !== undefined) return given;
  if (!fromWorkspace) return settingsNetwork || undefined;
  const use = `Run with "${fromWorkspace.value}"`;
  const ignore = fromWorkspace.userValue ? `Run with "${fromWorkspace.userValue}" (Your Setting)` : "Run with the Engine's Default";
  const chosen =
    answer !== undefined && isBerthTestMode()
      ? answer === 'use'
        ? use
        : ignore
      : await vscode.window.showWarningMessage(
          vscode.l10n.t('This workspace\'s settings run {0} with the network "{1}".', image, fromWorkspace.value),
          {
            modal: true,
            detail:
              `${fromWorkspace.setting} is set to "${fromWorkspace.value}" in ${fromWorkspace.file}. ` +
              'A network such as host or container:<name> gives the container the network of the engine host or of another container. ' +
              'Run with it only if you trust this workspace.',
          },
          use,
          ignore,
        );
  if (chosen === undefined) {
    log.info(`Run of ${image} cancelled at the question about ${fromWorkspace.setting} = "${fromWorkspace.value}" from ${fromWorkspace.file}`);
    return null;
  }
  const network = chosen === use ? fromWorkspace.value : fromWorkspace.userValue || undefined;
  log.info(`Run of ${image}: ${chosen === use ? 'using' : 'not using'} ${fromWorkspace.setting} = "${fromWorkspace.value}" from ${fromWorkspace.file}`);
  return network;
}
