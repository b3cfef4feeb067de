/**
 * Create and Remove for what the engine makes from one request body and removes by name (volumes, networks).
 * Create: automation passes the body whole, a row or the palette asks for it through prompts; an outside caller's
 * body is shown whole before anything is made, because its fields (driver options, IPAM) can reach the host.
 */
import * as vscode from 'vscode';
import { DEFAULT_CONCURRENCY, forEachBounded } from '../common/concurrency';
import { errorMessage } from '../common/errors';
import { isObject } from '../common/objects';
import { fieldsQuestion } from './callOrigin';
import { command, type CommandEntry } from './commandTable';
import { withCancellableProgress } from './feedback';

export interface CreateSteps<D, B> {
  /** The prompts; undefined when the user cancels one. */
  readonly ask: () => Promise<B | undefined>;
  /** Makes it; what it returns (the name) goes back to automation. */
  readonly create: (deps: D, body: B) => Promise<string>;
  /** What an outside caller's body is shown under, e.g. "Create the volume data?". */
  readonly question: (body: Record<string, unknown>) => string;
}

/** Automation passes the body (or a string); rows pass nodes (they have a `kind`). Automation's failures reject. */
const isAutomation = (first?: unknown): boolean => typeof first === 'string' || (isObject(first) && !('kind' in first));

export function createCommand<D, B>(id: string, activity: string, steps: CreateSteps<D, B>): CommandEntry<D> {
  return command(
    id,
    activity,
    (deps) => async (spec?: unknown) => {
      const body = isObject(spec) ? (spec as unknown as B) : await steps.ask();
      return body ? steps.create(deps, body) : undefined;
    },
    {
      rejectsWhen: isAutomation,
      asksOutsideCallers: (spec) => (isObject(spec) ? fieldsQuestion(steps.question(spec), vscode.l10n.t('Create'), spec) : undefined),
    },
  );
}

/**
 * Removes each of NAMES, a few at a time, under a cancellable progress titled TITLE; one that fails does not stop the
 * others. Returns the failures' words, empty when every one went.
 */
export async function removeEach(title: string, names: readonly string[], remove: (name: string, signal: AbortSignal) => Promise<unknown>): Promise<string[]> {
  const failures: string[] = [];
  await withCancellableProgress(title, (signal) =>
    forEachBounded(names, DEFAULT_CONCURRENCY, (name) => remove(name, signal).then(() => undefined, (error: unknown) => void failures.push(errorMessage(error))), signal),
  );
  return failures;
}
