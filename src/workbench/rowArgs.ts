/**
 * The arguments of commands that act on rows, read without `vscode`: VS Code calls a row command with
 * `(clicked, selection)`, automation with `(target, options)`.
 */
import { isObject } from '../common/objects';

/** Options bag accepted by item commands from automation. */
export interface ItemOptions {
  readonly confirmed?: boolean;
  /** The engine (id or name) a string or `{ id }` target is on; default the current engine. */
  readonly engine?: string;
}

/** Splits VS Code's `(clicked, selection)` or automation's `(target, options)`. */
export function splitArgs(args: unknown[]): { target: unknown; selection: unknown[]; options: ItemOptions } {
  const [target, second, third] = args;
  const selection = Array.isArray(second) ? (second as unknown[]) : Array.isArray(target) ? (target as unknown[]) : [];
  const optionsArg = Array.isArray(second) ? third : second;
  const options = isObject(optionsArg) && !('kind' in optionsArg) ? (optionsArg as ItemOptions) : {};
  return { target: Array.isArray(target) ? undefined : target, selection, options };
}

/**
 * The rows a command acts on, by VS Code's convention, for views whose rows have a key (a volume's or a network's
 * name): the clicked row plus the rest of the multi-selection when the clicked row is part of it, the clicked row
 * alone when it is not, the selection (or `[keys]` from automation) when nothing was clicked.
 */
export function clickedWithSelection<K>(args: unknown[], keyOf: (value: unknown) => K | undefined): { keys: K[]; options: ItemOptions } {
  const { target, selection, options } = splitArgs(args);
  const clicked = keyOf(target);
  const selected = [...new Set(selection.map(keyOf).filter((key): key is K => key !== undefined))];
  if (clicked === undefined) return { keys: selected, options };
  return { keys: selected.length > 1 && selected.includes(clicked) ? selected : [clicked], options };
}

/** Automation passes an id, a name or `{ id }` first; rows pass nodes (they have a `kind`). */
export function isAutomationCall(first?: unknown): boolean {
  return typeof first === 'string' || (typeof first === 'object' && first !== null && !('kind' in first));
}
