/**
 * Create, Remove and Inspect for what the engine makes from one request body and removes by name (volumes, networks).
 * Create: automation passes the body whole, a row or the palette asks for it through prompts; an outside caller's
 * body is shown whole before anything is made, because its fields (driver options, IPAM) can reach the host.
 */
import * as vscode from 'vscode';
import { DEFAULT_CONCURRENCY, forEachBounded } from '../common/concurrency';
import { errorMessage } from '../common/errors';
import { isObject } from '../common/objects';
import { fieldsQuestion } from './callOrigin';
import { command, type CommandEntry } from './commandTable';
import { confirm, withCancellableProgress } from './feedback';

export interface CreateSteps<D, B> {
  /** The prompts; undefined when the user cancels one. */
  readonly ask: () => Promise<B | undefined>;
  /** Makes it; what it returns (the name) goes back to automation. */
  readonly create: (deps: D, body: B) => Promise<string>;
  /** What an outside caller's body is shown under, e.g. "Create the volume data?". */
  readonly question: (body: Record<string, unknown>) => string;
}

/** Automation passes the body (or a string); rows pass nodes (they have a `kind`). Automation's failures reject. */
export const isAutomation = (first?: unknown): boolean => typeof first === 'string' || (isObject(first) && !('kind' in first));

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

export interface RemoveSteps<D> {
  /** The names of the clicked row and the selection, or automation's, and automation's `confirmed`. */
  readonly given: (args: unknown[]) => { readonly names: string[]; readonly confirmed: boolean | undefined };
  /** The palette: the user picks; empty when they cancel. */
  readonly pick: (deps: D) => Promise<string[]>;
  /** What the names are called in the question and the progress, e.g. "network web" or "3 networks". */
  readonly what: (names: readonly string[]) => string;
  /** The question before anything goes, e.g. "Remove network web?". */
  readonly question: (what: string) => string;
  readonly remove: (deps: D, name: string, signal: AbortSignal) => Promise<unknown>;
  /** After the removals, whatever failed: e.g. refresh a view that no event updates. */
  readonly after?: ((deps: D) => Promise<unknown>) | undefined;
}

/**
 * Remove: the given names (or the picked ones), after the user agrees, a few at a time; one that fails does not stop
 * the others, and the failures' words reject the command. Resolves the names, undefined when nothing was removed.
 */
export function removeCommand<D>(id: string, activity: string, steps: RemoveSteps<D>): CommandEntry<D> {
  return command(
    id,
    activity,
    (deps) =>
      async (...args: unknown[]) => {
        const given = steps.given(args);
        const names = given.names.length > 0 ? given.names : await steps.pick(deps);
        if (names.length === 0) return undefined;
        const what = steps.what(names);
        if (!(await confirm(steps.question(what), vscode.l10n.t('Remove'), given.confirmed, names.join('\n')))) return undefined;
        const failures = await removeEach(vscode.l10n.t('Removing {0}', what), names, (name, signal) => steps.remove(deps, name, signal));
        await steps.after?.(deps);
        if (failures.length > 0) throw new Error(failures.join('; '));
        return names;
      },
    { rejectsWhen: isAutomation },
  );
}

/** Inspect: the engine's answer as a JSON document in a preview editor. */
export async function showInspected(inspected: unknown): Promise<void> {
  const document = await vscode.workspace.openTextDocument({ language: 'json', content: JSON.stringify(inspected, null, 2) });
  await vscode.window.showTextDocument(document, { preview: true });
}
