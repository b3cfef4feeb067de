/**
 * Every command, registered in one place. Each feature file exports a map of factories; a failing
 * command is reported here once (short message with actions, detail in the log) and resolves to undefined.
 */
import * as vscode from 'vscode';
import type { Ctx } from '../ctx';
import type { CommandFactories } from './types';
import { reportError } from './feedback';
import { containerCommands } from './containers';
import { generalCommands } from './general';
import { imageCommands } from './images';
import { commitCommands } from './commit';
import { inspectCommands } from './inspect';
import { runCommands } from './run';
import { logCommands } from './logs';
import { shellCommands } from './shell';
import { engineCommands } from './engines';

export const commandFactories: CommandFactories = {
  ...generalCommands,
  ...containerCommands,
  ...imageCommands,
  ...commitCommands,
  ...inspectCommands,
  ...runCommands,
  ...logCommands,
  ...shellCommands,
  ...engineCommands,
};

const TITLES: Record<string, string> = {
  'berth.start': 'Starting',
  'berth.stop': 'Stopping',
  'berth.restart': 'Restarting',
  'berth.remove': 'Removing',
  'berth.stopAll': 'Stopping all containers',
  'berth.waitForExit': 'Waiting for exit',
  'berth.pullImage': 'Pulling',
  'berth.commitContainer': 'Committing',
  'berth.attachShell': 'Attaching a shell',
  'berth.inspect': 'Inspecting',
  'berth.showLogs': 'Showing logs',
  'berth.openLogsInEditor': 'Opening logs',
  'berth.runInBackground': 'Running in background',
  'berth.switchContext': 'Switching the engine',
  'berth.useEngine': 'Switching the engine',
  'berth.addEngine': 'Adding an engine',
  'berth.removeEngine': 'Removing an engine',
};

export function registerCommands(ctx: Ctx): void {
  for (const [id, factory] of Object.entries(commandFactories)) {
    const handler = factory(ctx);
    const what = TITLES[id] ?? id;
    ctx.registerDisposable(
      vscode.commands.registerCommand(id, async (...args: unknown[]) => {
        try {
          return await handler(...args);
        } catch (error) {
          reportError(ctx, what, error);
          return undefined;
        }
      }),
    );
  }
}
