/** Commands about the extension itself: refresh, retry, settings, the log, the show-all toggle, the test snapshot. */
import * as vscode from 'vscode';
import { setShowAll } from '../config';
import { isEngineRoot } from '../model/engineForest';
import type { CommandFactories } from './types';

/** `{ engine: 'id or name' }` or an engine row. */
function engineOption(options: unknown): string | undefined {
  const engine = typeof options === 'object' && options !== null ? (options as { engine?: unknown }).engine : undefined;
  return typeof engine === 'string' ? engine : undefined;
}

export const generalCommands: CommandFactories = {
  // Refresh re-reads the engine sources (new contexts, Podman sockets), then lists every engine (or the row's) again.
  'berth.refresh': (ctx) => (target?: unknown) => {
    if (isEngineRoot(target)) {
      ctx.sessionFor(target.engine).model.refresh();
      return;
    }
    const existing = [...ctx.engines.all];
    ctx.rediscoverEngines();
    // Engines that just appeared are listing for the first time already.
    for (const session of existing) if (ctx.engines.all.includes(session)) session.model.refresh();
  },
  'berth.retry': (ctx) => (target?: unknown) => {
    const sessions = isEngineRoot(target) ? [ctx.sessionFor(target.engine)] : ctx.engines.all;
    for (const session of sessions) session.model.retry();
  },
  'berth.openSettings': () => async () => {
    await vscode.commands.executeCommand('workbench.action.openSettings', 'berth.');
  },
  'berth.showLog': (ctx) => () => {
    ctx.log.show(true);
  },
  'berth.containers.showAll': () => async () => {
    await setShowAll(true);
  },
  'berth.containers.showRunning': () => async () => {
    await setShowAll(false);
  },
  'berth.internal.modelSnapshot': (ctx) => (options?: unknown) => ctx.snapshot(engineOption(options)),
  'berth.internal.engines': (ctx) => () => ctx.engineSummaries(),
  'berth.internal.viewChildren': (ctx) => (view?: unknown, path?: unknown) => {
    const labels = Array.isArray(path) ? path.map(String) : [];
    return view === 'images' ? ctx.imagesView.rowsAt(labels) : ctx.containersView.rowsAt(labels);
  },
};
