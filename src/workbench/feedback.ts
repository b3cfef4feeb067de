/**
 * How commands talk back: a short error message with the engine's own words and an action, the
 * detail in the log; progress notifications whose Cancel aborts the engine call.
 */
import { errorMessage } from '../common/errors';
import * as vscode from 'vscode';
import { isEngineError } from '../engine';
import { askModal } from './automation';
import type { LogDeps, SessionsDeps } from './deps';

/** What reporting needs: the log, and the engines to retry. */
export type ReportDeps = LogDeps & Pick<SessionsDeps, 'engines'>;

export function isCancellation(error: unknown): boolean {
  return isEngineError(error, 'cancelled') || (error instanceof Error && error.name === 'AbortError');
}

/** Logs the detail and shows `<what> failed: <message>` with actions. Never waits for the user. */
export function reportError(deps: ReportDeps, what: string, error: unknown): void {
  if (isCancellation(error)) {
    deps.log.info(`${what}: cancelled`);
    return;
  }
  const message = errorMessage(error);
  deps.log.error(`${what} failed: ${error instanceof Error && error.stack ? error.stack : message}`);
  const showLog = vscode.l10n.t('Show Log');
  const retry = vscode.l10n.t('Retry');
  const openSettings = vscode.l10n.t('Open Settings');
  const actions = [showLog];
  if (isEngineError(error, 'unreachable')) actions.unshift(retry, openSettings);
  void vscode.window.showErrorMessage(vscode.l10n.t('{0} failed: {1}', what, message), ...actions).then((choice) => {
    if (choice === showLog) deps.log.show(true);
    else if (choice === retry) for (const session of deps.engines.all) session.model.retry();
    else if (choice === openSettings) void vscode.commands.executeCommand('berth.openSettings');
  });
}

/** Runs `task` under a cancellable notification; Cancel aborts the signal the task passes to the engine. */
export async function withCancellableProgress<T>(
  title: string,
  task: (signal: AbortSignal, progress: vscode.Progress<{ message?: string; increment?: number }>) => Promise<T>,
): Promise<T> {
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title, cancellable: true },
    async (progress, token) => {
      const controller = new AbortController();
      const subscription = token.onCancellationRequested(() => controller.abort());
      try {
        return await task(controller.signal, progress);
      } finally {
        subscription.dispose();
      }
    },
  );
}

/**
 * A modal yes/no; `confirmed` answers it for automation. The command table has already removed `confirmed: true`
 * from a call whose arguments come from outside Berth's UI, so such a call is asked (workbench/callOrigin.ts).
 */
export async function confirm(message: string, action: string, confirmed: boolean | undefined, detail?: string): Promise<boolean> {
  if (confirmed !== undefined) return confirmed;
  return askModal(message, action, detail);
}
