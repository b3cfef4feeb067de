/**
 * The one way a command is registered: an entry with its id, the activity its error message names, and its handler,
 * wrapped so every failure is reported alike (`<activity> failed: <engine's words>` with actions, detail in the
 * log; a cancellation only logged) and resolves to undefined. Entries that serve automation may ask for the
 * rejection instead (`rejectsWhen`): it is logged the same way and passed on to the caller.
 */
import * as vscode from 'vscode';
import type { DisposableStore } from '../common/lifecycle';
import { errorMessage } from '../common/errors';
import { isCancellation, reportError, type ReportDeps } from './feedback';

/** VS Code passes whatever the caller gave: each handler narrows its own arguments. */
export type CommandHandler = (...args: never[]) => unknown;

export interface CommandEntry<D> {
  readonly id: string;
  /** What the command does, as its error message says it (`Starting failed: …`). */
  readonly activity: string;
  /** Makes the handler from the feature's deps, once, at registration. */
  readonly handler: (deps: D) => CommandHandler;
  /** For automation: when this says so for a call's arguments, a failure rejects instead of showing a message. */
  readonly rejectsWhen?: (...args: unknown[]) => boolean;
}

export function command<D>(
  id: string,
  activity: string,
  handler: (deps: D) => CommandHandler,
  options: { rejectsWhen?: (...args: unknown[]) => boolean } = {},
): CommandEntry<D> {
  return options.rejectsWhen ? { id, activity, handler, rejectsWhen: options.rejectsWhen } : { id, activity, handler };
}

/** Commands that serve Berth's own tests (reading views, the model, the log file); not in the manifest. */
const INTERNAL_PREFIX = 'berth.internal.';
let internalCommandsRegistered = true;

/**
 * Whether `berth.internal.*` commands are registered: not when the extension runs in Production, so another
 * extension cannot read Berth's model or log through them. extension.ts sets it first thing in activate().
 */
export function registerInternalCommands(enabled: boolean): void {
  internalCommandsRegistered = enabled;
}

export function registerCommandTable<D extends ReportDeps>(table: readonly CommandEntry<D>[], deps: D, owner: DisposableStore): void {
  for (const entry of table) {
    if (!internalCommandsRegistered && entry.id.startsWith(INTERNAL_PREFIX)) continue;
    const handler = entry.handler(deps) as (...args: unknown[]) => unknown;
    owner.add(
      vscode.commands.registerCommand(entry.id, async (...args: unknown[]) => {
        try {
          return await handler(...args);
        } catch (error) {
          if (!isCancellation(error) && entry.rejectsWhen?.(...args)) {
            deps.log.error(`${entry.activity} failed: ${errorMessage(error)}`);
            throw error;
          }
          reportError(deps, entry.activity, error);
          return undefined;
        }
      }),
    );
  }
}
