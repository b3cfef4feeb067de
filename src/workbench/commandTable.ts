/**
 * The one way a command is registered: an entry with its id, the activity its error message names, and its handler,
 * wrapped so every failure is reported alike (`<activity> failed: <engine's words>` with actions, detail in the
 * log; a cancellation only logged) and resolves to undefined. Entries that serve automation may ask for the
 * rejection instead (`rejectsWhen`): it is logged the same way and passed on to the caller.
 * The wrapper is also where arguments from outside Berth's UI lose their power to skip a question: `confirmed: true`
 * is dropped, and an entry's `asksOutsideCallers` question is asked first (workbench/callOrigin.ts).
 */
import * as vscode from 'vscode';
import type { DisposableStore } from '../common/lifecycle';
import { errorMessage } from '../common/errors';
import { askModal, outsideArgumentsStand } from './automation';
import { isFromBerthUi, withoutOutsideConfirmation, type OutsideQuestion } from './callOrigin';

export type { OutsideQuestion } from './callOrigin';
import { isCancellation, reportError, type ReportDeps } from './feedback';

/** VS Code passes whatever the caller gave: each handler narrows its own arguments. */
export type CommandHandler = (...args: never[]) => unknown;


/** Given the call's arguments: the question, or undefined when they leave the command to ask as the palette does. */
export type OutsideQuestionOf = (...args: unknown[]) => OutsideQuestion | undefined;

export interface CommandEntry<D> {
  readonly id: string;
  /** What the command does, as its error message says it (`Starting failed: …`). */
  readonly activity: string;
  /** Makes the handler from the feature's deps, once, at registration. */
  readonly handler: (deps: D) => CommandHandler;
  /** For automation: when this says so for a call's arguments, a failure rejects instead of showing a message. */
  readonly rejectsWhen?: (...args: unknown[]) => boolean;
  /** For a command that runs, creates, tags or pushes: what to ask when its arguments come from outside Berth's UI. */
  readonly asksOutsideCallers?: OutsideQuestionOf;
}

export function command<D>(
  id: string,
  activity: string,
  handler: (deps: D) => CommandHandler,
  options: { rejectsWhen?: (...args: unknown[]) => boolean; asksOutsideCallers?: OutsideQuestionOf } = {},
): CommandEntry<D> {
  return { id, activity, handler, ...options };
}

/**
 * The arguments a call is handled with: as given from Berth's UI (and in Berth's test mode by default); from outside,
 * without `confirmed: true`, and only once the user has agreed to the entry's question. Undefined: declined.
 */
async function admittedArguments(entry: { readonly activity: string; readonly asksOutsideCallers?: OutsideQuestionOf }, args: unknown[], log: ReportDeps['log']): Promise<unknown[] | undefined> {
  if (isFromBerthUi(args) || outsideArgumentsStand()) return args;
  const question = entry.asksOutsideCallers?.(...args);
  if (question && !(await askModal(question.message, question.action, question.detail))) {
    log.warn(`${entry.activity} with arguments from outside Berth's views: declined (${question.message})`);
    return undefined;
  }
  return withoutOutsideConfirmation(args);
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
          const admitted = await admittedArguments(entry, args, deps.log);
          return admitted === undefined ? undefined : await handler(...admitted);
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
