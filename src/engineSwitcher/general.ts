/** Commands about the engines and the extension itself: refresh, retry, settings, the log, the test snapshots. */
import * as vscode from 'vscode';
import { isEngineRoot } from '../views/engineForest';
import { command, type CommandEntry } from '../workbench/commandTable';
import type { EnginesDeps } from './deps';

/** `{ engine: 'id or name' }` or an engine row. */
function engineOption(options: unknown): string | undefined {
  const engine = typeof options === 'object' && options !== null ? (options as { engine?: unknown }).engine : undefined;
  return typeof engine === 'string' ? engine : undefined;
}

export const generalCommands: ReadonlyArray<CommandEntry<EnginesDeps>> = [
  // Refresh re-reads the engine sources (new contexts, Podman sockets), then lists every engine (or the row's) again.
  command('berth.refresh', 'Refreshing', (deps) => (target?: unknown) => {
    if (isEngineRoot(target)) {
      deps.sessionFor(target.engine).model.refresh();
      return;
    }
    const existing = [...deps.engines.all];
    deps.rediscoverEngines();
    // Engines that just appeared are listing for the first time already.
    for (const session of existing) if (deps.engines.all.includes(session)) session.model.refresh();
  }),
  command('berth.retry', 'Retrying the connection', (deps) => (target?: unknown) => {
    const sessions = isEngineRoot(target) ? [deps.sessionFor(target.engine)] : deps.engines.all;
    for (const session of sessions) session.model.retry();
  }),
  command('berth.openSettings', 'Opening the settings', () => async () => {
    await vscode.commands.executeCommand('workbench.action.openSettings', 'berth.');
  }),
  command('berth.showLog', 'Showing the log', (deps) => () => {
    deps.log.show(true);
  }),
  command('berth.internal.modelSnapshot', 'Reading the model', (deps) => (options?: unknown) => deps.snapshot(engineOption(options))),
  command('berth.internal.engines', 'Listing the engines', (deps) => () => deps.engineSummaries()),
  // `{ initialMs, maxMs }` for every engine's reconnect backoff, or nothing for the default (the Retry test).
  command('berth.internal.reconnectBackoff', 'Setting the reconnect backoff', (deps) => (policy?: { initialMs: number; maxMs: number }) => {
    for (const session of deps.engines.all) session.model.setBackoff(policy);
  }),
];
