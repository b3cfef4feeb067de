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

/** What reporting needs at least: the log; with the engines, an unreachable engine's failure also offers Retry. */
export type FailureDeps = LogDeps & Partial<Pick<SessionsDeps, 'engines'>>;

export function isCancellation(error: unknown): boolean {
  return isEngineError(error, 'cancelled') || (error instanceof Error && error.name === 'AbortError');
}

/** A button on a failure's message besides Show Log (and Retry and Open Settings for an unreachable engine). */
export interface FailureAction {
  readonly title: string;
  readonly run: () => unknown;
}

/** Logs the detail and shows `<what> failed: <message>` with actions. Never waits for the user. */
export function reportError(deps: FailureDeps, what: string, error: unknown, actions: readonly FailureAction[] = []): void {
  if (isCancellation(error)) {
    deps.log.info(`${what}: cancelled`);
    return;
  }
  const message = errorMessage(error);
  deps.log.error(`${what} failed: ${error instanceof Error && error.stack ? error.stack : message}`);
  void showFailure(deps, vscode.l10n.t('{0} failed: {1}', what, message), error, actions);
}

/**
 * The one way a failure reaches the user: the detail (with its stack) in the log, then `headline` with the given
 * actions, Show Log, and for an unreachable engine Retry and Open Settings. Resolves with the action chosen, after
 * it ran, for a caller that goes on from the answer (Try Again); a cancellation shows nothing.
 */
export async function reportFailure(deps: FailureDeps, headline: string, error: unknown, actions: readonly FailureAction[] = []): Promise<FailureAction | undefined> {
  if (isCancellation(error)) {
    deps.log.info(`${headline}: cancelled`);
    return undefined;
  }
  deps.log.error(error instanceof Error && error.stack ? `${headline}\n${error.stack}` : headline);
  return showFailure(deps, headline, error, actions);
}

async function showFailure(deps: FailureDeps, headline: string, error: unknown, actions: readonly FailureAction[]): Promise<FailureAction | undefined> {
  const showLog = { title: vscode.l10n.t('Show Log'), run: () => deps.log.show(true) };
  const engines = deps.engines;
  const unreachable = engines !== undefined && isEngineError(error, 'unreachable');
  const reachActions: FailureAction[] = unreachable
    ? [
        { title: vscode.l10n.t('Retry'), run: () => engines.all.forEach((session) => session.model.retry()) },
        { title: vscode.l10n.t('Open Settings'), run: () => vscode.commands.executeCommand('berth.openSettings') },
      ]
    : [];
  const all = [...reachActions, ...actions, showLog];
  const choice = await vscode.window.showErrorMessage(headline, ...all.map((action) => action.title));
  const chosen = all.find((action) => action.title === choice);
  await chosen?.run();
  return chosen;
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
