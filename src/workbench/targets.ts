/**
 * What a command acts on. Commands are called from tree rows (a node, plus the multi-selection), from
 * the palette (nothing: ask with a QuickPick), and from automation (an id or name string, `{ id }`).
 */
import * as vscode from 'vscode';
import { shortId } from '../common/format';
import type { ContainerRecord, ImageRecord } from '../model/records';
import type { EngineSession } from '../model/session';
import type { SessionsDeps } from './deps';

export interface ContainerRef {
  readonly id: string;
  readonly name: string;
  readonly record: ContainerRecord | undefined;
  /** The engine the container is on: a row's own engine, else the one named in `{ engine }`, else the current one. */
  readonly session: EngineSession;
}

export interface ImageRef {
  /** What to pass to the engine: the tag of a tagged row, else the id. */
  readonly reference: string;
  readonly id: string;
  readonly record: ImageRecord | undefined;
  readonly session: EngineSession;
}

/** Options bag accepted by item commands from automation. */
export interface ItemOptions {
  readonly confirmed?: boolean;
  /** The engine (id or name) a string or `{ id }` target is on; default the current engine. */
  readonly engine?: string;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** The rows of the Containers view, as far as commands read them (a container, or a Compose group of them). */
type ContainerRow =
  | { readonly kind: 'container'; readonly engine: string; readonly record: ContainerRecord }
  | { readonly kind: 'group'; readonly engine: string; readonly members: { readonly view: ReadonlyArray<{ readonly record: ContainerRecord }> } };

/** A row of the Images view: one tag of an image, or an untagged image. */
interface ImageRow {
  readonly kind: 'image';
  readonly engine: string;
  readonly tag: string | undefined;
  readonly record: ImageRecord;
}

function isContainerNode(value: unknown): value is ContainerRow {
  return isObject(value) && (value['kind'] === 'container' || value['kind'] === 'group');
}

function isImageNode(value: unknown): value is ImageRow {
  return isObject(value) && value['kind'] === 'image';
}

/** Splits VS Code's `(clicked, selection)` or automation's `(target, options)`. */
export function splitArgs(args: unknown[]): { target: unknown; selection: unknown[]; options: ItemOptions } {
  const [target, second, third] = args;
  const selection = Array.isArray(second) ? (second as unknown[]) : Array.isArray(target) ? (target as unknown[]) : [];
  const optionsArg = Array.isArray(second) ? third : second;
  const options = isObject(optionsArg) && !('kind' in optionsArg) ? (optionsArg as ItemOptions) : {};
  return { target: Array.isArray(target) ? undefined : target, selection, options };
}

/** The engine of a target: a row's, `{ id, engine }`'s, the options' `engine`, else the current one. */
function sessionOf(deps: SessionsDeps, value: unknown, engine?: string): EngineSession {
  const own = isObject(value) && typeof value['engine'] === 'string' ? value['engine'] : undefined;
  return deps.sessionFor(own ?? engine);
}

export function containerRefOf(deps: SessionsDeps, value: unknown, engine?: string): ContainerRef[] {
  if (isContainerNode(value)) {
    const session = sessionOf(deps, value);
    if (value.kind === 'container') return [refOfRecord(value.record, session)];
    return value.members.view.map((member) => refOfRecord(member.record, session));
  }
  const key = typeof value === 'string' ? value : isObject(value) && typeof value['id'] === 'string' ? value['id'] : undefined;
  if (key === undefined) return [];
  const session = sessionOf(deps, value, engine);
  const record = session.model.container(key);
  return [record ? refOfRecord(record, session) : { id: key, name: key, record: undefined, session }];
}

function refOfRecord(record: ContainerRecord, session: EngineSession): ContainerRef {
  return { id: record.id, name: record.name, record, session };
}

/**
 * The containers a command acts on: the multi-selection when the clicked row is part of it, else the
 * clicked row or the given id; with nothing given, a QuickPick over the model filtered by `eligible`.
 */
export async function resolveContainers(
  deps: SessionsDeps,
  args: unknown[],
  pick: { placeHolder: string; eligible: (record: ContainerRecord) => boolean; many: boolean },
): Promise<{ refs: ContainerRef[]; options: ItemOptions } | undefined> {
  const { target, selection, options } = splitArgs(args);
  const fromSelection = selection.length > 1 ? selection.flatMap((item) => containerRefOf(deps, item)) : [];
  if (fromSelection.length > 0) return { refs: dedupe(fromSelection), options };
  const direct = containerRefOf(deps, target, options.engine);
  if (direct.length > 0) return { refs: direct, options };
  const refs = await pickContainers(deps, pick, deps.sessionFor(options.engine));
  return refs && refs.length > 0 ? { refs, options } : undefined;
}

async function pickContainers(
  deps: SessionsDeps,
  pick: { placeHolder: string; eligible: (record: ContainerRecord) => boolean; many: boolean },
  session: EngineSession,
): Promise<ContainerRef[] | undefined> {
  const items = [...session.model.containers()]
    .filter(pick.eligible)
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((record) => ({
      label: record.name,
      description: `${record.summary.Image} · ${record.summary.Status}`,
      detail: shortId(record.id),
      record,
    }));
  if (items.length === 0) {
    void vscode.window.showInformationMessage('No container fits this command.');
    return undefined;
  }
  if (pick.many) {
    const chosen = await vscode.window.showQuickPick(items, { placeHolder: pick.placeHolder, canPickMany: true });
    return chosen?.map((item) => refOfRecord(item.record, session));
  }
  const chosen = await vscode.window.showQuickPick(items, { placeHolder: pick.placeHolder });
  return chosen ? [refOfRecord(chosen.record, session)] : undefined;
}

export function imageRefOf(deps: SessionsDeps, value: unknown, engine?: string): ImageRef | undefined {
  if (isImageNode(value)) {
    return { reference: value.tag ?? value.record.id, id: value.record.id, record: value.record, session: sessionOf(deps, value) };
  }
  const key = typeof value === 'string' ? value : isObject(value) && typeof value['id'] === 'string' ? value['id'] : undefined;
  if (key === undefined) return undefined;
  const session = sessionOf(deps, value, engine);
  const record = session.model.image(key);
  return { reference: key, id: record?.id ?? key, record, session };
}

export async function resolveImages(
  deps: SessionsDeps,
  args: unknown[],
  placeHolder: string,
): Promise<{ refs: ImageRef[]; options: ItemOptions } | undefined> {
  const { target, selection, options } = splitArgs(args);
  const fromSelection = selection.length > 1 ? selection.flatMap((item) => imageRefOf(deps, item) ?? []) : [];
  if (fromSelection.length > 0) return { refs: fromSelection, options };
  const direct = imageRefOf(deps, target, options.engine);
  if (direct) return { refs: [direct], options };
  const session = deps.sessionFor(options.engine);
  const items = [...session.model.images()].flatMap((record) =>
    (record.tags.length > 0 ? record.tags : [undefined]).map((tag) => ({
      label: tag ?? `<untagged> ${shortId(record.id)}`,
      description: shortId(record.id),
      ref: { reference: tag ?? record.id, id: record.id, record, session } satisfies ImageRef,
    })),
  );
  items.sort((a, b) => a.label.localeCompare(b.label));
  const chosen = await vscode.window.showQuickPick(items, { placeHolder, canPickMany: true });
  return chosen && chosen.length > 0 ? { refs: chosen.map((item) => item.ref), options } : undefined;
}

function dedupe(refs: ContainerRef[]): ContainerRef[] {
  const seen = new Set<string>();
  return refs.filter((ref) => {
    const key = `${ref.session.id}\n${ref.id}`;
    return seen.has(key) ? false : (seen.add(key), true);
  });
}

/** Refs grouped by engine, for calls made once per engine (refetching after a command). */
export function byEngine<R extends { readonly session: EngineSession }>(refs: readonly R[]): Map<EngineSession, R[]> {
  const groups = new Map<EngineSession, R[]>();
  for (const ref of refs) {
    const group = groups.get(ref.session);
    if (group) group.push(ref);
    else groups.set(ref.session, [ref]);
  }
  return groups;
}
