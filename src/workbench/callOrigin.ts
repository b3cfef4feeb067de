/**
 * Where a command's arguments come from. From Berth's own UI a command gets nothing (the palette, a view's title
 * button: it then asks with its own pickers) or the very objects a Berth tree handed to VS Code (the clicked row, the
 * multi-selection). Anything else is an outside argument: plain data that a command link in a hover or a trusted
 * notebook, another extension, a keybinding or a task can write, a row-shaped object included. Only identity tells a
 * row from a forged one, so every value a Berth tree hands out is remembered here, weakly (docs/commands.md).
 */
import type * as vscode from 'vscode';

const handedOut = new WeakSet<object>();

/** What a command asks before it acts on arguments from outside Berth's UI: the values it would act on. */
export interface OutsideQuestion {
  readonly message: string;
  /** The button that lets it go ahead. */
  readonly action: string;
  /** Every value that decides what happens (an image, its mounts, environment names, ports), one per line. */
  readonly detail: string;
}

function isHandedOut(value: unknown): boolean {
  return typeof value === 'object' && value !== null && handedOut.has(value);
}

/** Marks VALUE as Berth's own: for the few places Berth calls its own commands with arguments it made itself. */
export function asOwnArgument<T extends object>(value: T): T {
  handedOut.add(value);
  return value;
}

function handOutAll<T>(rows: T[] | null | undefined): T[] | null | undefined {
  for (const row of rows ?? []) if (typeof row === 'object' && row !== null) handedOut.add(row);
  return rows;
}

/**
 * The provider VS Code gets for a Berth tree: the same one, except that every row it hands out is remembered as
 * Berth's own, so the row VS Code passes back to a command counts as coming from Berth's UI.
 */
export function ownRows<T>(provider: vscode.TreeDataProvider<T>): vscode.TreeDataProvider<T> {
  const children = (node?: T): vscode.ProviderResult<T[]> => {
    const rows = provider.getChildren(node);
    // Synchronous rows stay synchronous: the Containers view serves thousands of them at once.
    if (rows === undefined || rows === null || Array.isArray(rows)) return handOutAll(rows);
    return Promise.resolve(rows).then(handOutAll);
  };
  const wrapped: vscode.TreeDataProvider<T> = {
    getTreeItem: (node) => provider.getTreeItem(node),
    getChildren: children,
  };
  if (provider.onDidChangeTreeData) wrapped.onDidChangeTreeData = provider.onDidChangeTreeData;
  if (provider.getParent) wrapped.getParent = (node) => provider.getParent?.(node);
  if (provider.resolveTreeItem) wrapped.resolveTreeItem = (item, node, token) => provider.resolveTreeItem?.(item, node, token);
  return wrapped;
}

/**
 * Whether a call's arguments all come from Berth's UI: none at all, rows a Berth tree handed out, or the
 * multi-selection array VS Code builds of them. An options bag, an id string or a plain object is outside.
 */
export function isFromBerthUi(args: readonly unknown[]): boolean {
  return args.every((arg) => arg === undefined || isHandedOut(arg) || (Array.isArray(arg) && arg.every(isHandedOut)));
}

/**
 * Answers that skip a question when true: `confirmed` (a removal, prune or Stop All question), `volumes` (Compose Down's
 * and a project removal's "and the volumes too"), `confirmLargeContext` (Build's large-context question).
 */
const SKIPPING_ANSWERS = ['confirmed', 'volumes', 'confirmLargeContext'];

/**
 * The arguments an outside call is handled with: every answer that skips a question removed from every options bag
 * when it says yes, so the question the palette shows is shown (`false`, a refusal, still stands).
 */
export function withoutOutsideConfirmation(args: readonly unknown[]): unknown[] {
  return args.map((arg) => {
    if (typeof arg !== 'object' || arg === null || Array.isArray(arg) || isHandedOut(arg)) return arg;
    const bag = arg as Record<string, unknown>;
    if (!SKIPPING_ANSWERS.some((key) => bag[key] === true)) return arg;
    return Object.fromEntries(Object.entries(bag).filter(([key, value]) => !(SKIPPING_ANSWERS.includes(key) && value === true)));
  });
}

/** Characters that could forge a line of a question or reorder what it shows: shown escaped instead. */
function isUnshowable(code: number): boolean {
  return code < 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0x2028 || code === 0x2029 || (code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069);
}

/** A value an outside caller gave, as a question shows it: one line, every control character escaped. */
export function shownValue(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value) ?? String(value);
  let shown = '';
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    shown += isUnshowable(code) ? `\\u{${code.toString(16)}}` : char;
  }
  return shown;
}

/** How many values of one list a question shows; it says how many more there are. */
export const SHOWN_PER_LIST = 20;

/** `LABEL: a, b, c` (and how many more), or nothing for an empty list. */
export function listLine(label: string, values: readonly string[]): string[] {
  if (values.length === 0) return [];
  const shown = values.slice(0, SHOWN_PER_LIST).join(', ');
  const more = values.length - SHOWN_PER_LIST;
  return [`${label}: ${shown}${more > 0 ? `, and ${more} more` : ''}`];
}

/** The first line of every question asked of an outside caller. */
export const OUTSIDE_CALLER_LINE = "A command link, another extension, a keybinding or a task asked for this, not Berth's views.";

/** What a target names as an outside caller gave it: a string, `{ id }`, a row-shaped `{ record: { name } }`. */
function targetName(value: unknown): string {
  if (typeof value !== 'object' || value === null) return shownValue(value);
  const shaped = value as { id?: unknown; record?: { name?: unknown; id?: unknown } };
  return shownValue(shaped.record?.name ?? shaped.record?.id ?? shaped.id ?? value);
}

/** The targets of an item command's arguments (`target`, `[targets]`, `target, [selection]`), as given. */
export function givenTargets(args: readonly unknown[]): string[] {
  const [target, second] = args;
  const all = Array.isArray(target) ? target : [target, ...(Array.isArray(second) ? (second as unknown[]) : [])];
  return [...new Set(all.filter((each) => each !== undefined).map(targetName))];
}

/** Every field of an options object an outside caller gave, one line each (`Driver: "local"`), nothing left out. */
export function fieldLines(value: unknown): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [shownValue(value)];
  return Object.entries(value).map(([key, field]) => `${shownValue(key)}: ${shownValue(field)}`);
}

/** A question that shows every field of GIVEN under the outside-caller line. */
export function fieldsQuestion(message: string, action: string, given: unknown): OutsideQuestion {
  return { message, action, detail: [OUTSIDE_CALLER_LINE, ...fieldLines(given)].join('\n') };
}
