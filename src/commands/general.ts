/** Commands about the extension itself: refresh, retry, settings, the log, the show-all toggle, the test snapshot. */
import * as vscode from 'vscode';
import { setShowAll } from '../config';
import type { CommandFactories } from './types';

export const generalCommands: CommandFactories = {
  'berth.refresh': (ctx) => () => {
    ctx.model.refresh();
  },
  'berth.retry': (ctx) => () => {
    ctx.model.retry();
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
  'berth.internal.modelSnapshot': (ctx) => () => ctx.snapshot(),
};
