/**
 * What a command acts on. Commands are called from tree rows (a node, plus the multi-selection), from
 * the palette (nothing: ask with a QuickPick), and from automation (an id or name string, `{ id }`).
 */
import * as vscode from 'vscode';
import { shortId } from '../common/format';
import { EngineError } from '../engine';
import { isRunningState, type ContainerRecord, type ImageRecord } from '../model/records';
import type { EngineSession } from '../model/session';
import type { SessionsDeps } from './deps';
import { pickMany } from './multiPick';
import { splitArgs, type ItemOptions } from './rowArgs';

export { clickedWithSelection, isAutomationCall, splitArgs, type ItemOptions } from './rowArgs';
import { isObject } from '../common/objects';

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

/** Whether every container of `clicked` is among `selected`: VS Code's test for "the clicked row is in the selection". */
function within<R extends { readonly id: string; readonly session: EngineSession }>(clicked: readonly R[], selected: readonly R[]): boolean {
  return clicked.every((ref) => selected.some((other) => other.session === ref.session && other.id === ref.id));
}

/**
 * The containers a command acts on, by VS Code's convention: the clicked row plus the rest of the multi-selection
 * when the clicked row is part of it (a single-item command takes the clicked row), the clicked row alone when it is
 * not; a given id or `[ids]` from automation; with nothing given, a QuickPick over the model filtered by `eligible`.
 */
export async function resolveContainers(
  deps: SessionsDeps,
  args: unknown[],
  pick: { placeHolder: string; eligible: (record: ContainerRecord) => boolean; many: boolean },
): Promise<{ refs: ContainerRef[]; options: ItemOptions } | undefined> {
  const { target, selection, options } = splitArgs(args);
  const clicked = containerRefOf(deps, target, options.engine);
  const selected = dedupe(selection.flatMap((item) => containerRefOf(deps, item, options.engine)));
  if (clicked.length > 0) {
    const withSelection = pick.many && selected.length > 1 && within(clicked, selected);
    return { refs: await Promise.all((withSelection ? selected : clicked).map(named)), options };
  }
  if (selected.length > 0) return { refs: await Promise.all((pick.many ? selected : selected.slice(0, 1)).map(named)), options };
  const refs = await pickContainers(deps, pick, deps.sessionFor(options.engine));
  return refs && refs.length > 0 ? { refs, options } : undefined;
}

/**
 * A container given by id or name that the model has not listed yet (automation right after a create; Podman's
 * events can lag) is named by the engine, so messages and summaries say its name, not the key. One that the engine
 * does not know keeps the key: the command then fails with the engine's own words.
 */
async function named(ref: ContainerRef): Promise<ContainerRef> {
  if (ref.record) return ref;
  try {
    const found = await ref.session.client.containers.inspect(ref.id);
    return { ...ref, id: found.Id, name: found.Name.replace(/^\//, '') };
  } catch {
    return ref;
  }
}

/** The one running container a single-container command acts on: the clicked row, the given one, or a pick of those running. */
export async function resolveRunningContainer(deps: SessionsDeps, args: unknown[], placeHolder: string): Promise<ContainerRef | undefined> {
  const resolved = await resolveContainers(deps, args, { placeHolder, eligible: (record) => record.state === 'running', many: false });
  return resolved?.refs[0];
}

/** An engine that is gone has no containers to offer: say so (with Retry, through the command's report) instead. */
function assertReachable(session: EngineSession): void {
  if (session.state !== 'unreachable') return;
  const reason = session.reason ?? 'it does not answer';
  throw new EngineError('unreachable', `The engine ${session.name} (${session.endpointDisplay}) is unreachable: ${reason}`, {
    endpoint: session.endpointDisplay,
  });
}

/** Running containers first (what most commands are about), then the most recently created. */
export function pickerOrder(a: ContainerRecord, b: ContainerRecord): number {
  const running = Number(isRunningState(b.state)) - Number(isRunningState(a.state));
  return running !== 0 ? running : b.summary.Created - a.summary.Created || a.name.localeCompare(b.name);
}

async function pickContainers(
  deps: SessionsDeps,
  pick: { placeHolder: string; eligible: (record: ContainerRecord) => boolean; many: boolean },
  session: EngineSession,
): Promise<ContainerRef[] | undefined> {
  assertReachable(session);
  const items = [...session.model.containers()]
    .filter(pick.eligible)
    .sort(pickerOrder)
    .map((record) => ({
      label: record.name,
      description: `${record.summary.Image} · ${record.summary.Status}`,
      detail: shortId(record.id),
      record,
    }));
  if (items.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('No container fits this command.'));
    return undefined;
  }
  if (pick.many) {
    const chosen = await pickMany(items, { placeHolder: pick.placeHolder });
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
  const clicked = imageRefOf(deps, target, options.engine);
  const selected = selection.flatMap((item) => imageRefOf(deps, item, options.engine) ?? []);
  const sameImage = (a: ImageRef, b: ImageRef): boolean => a.session === b.session && a.reference === b.reference;
  if (clicked) return { refs: selected.length > 1 && selected.some((ref) => sameImage(ref, clicked)) ? selected : [clicked], options };
  if (selected.length > 0) return { refs: selected, options };
  const session = deps.sessionFor(options.engine);
  assertReachable(session);
  const items = [...session.model.images()].flatMap((record) =>
    (record.tags.length > 0 ? record.tags : [undefined]).map((tag) => ({
      label: tag ?? `<untagged> ${shortId(record.id)}`,
      description: shortId(record.id),
      ref: { reference: tag ?? record.id, id: record.id, record, session } satisfies ImageRef,
    })),
  );
  items.sort((a, b) => a.label.localeCompare(b.label));
  const chosen = await pickMany(items, { placeHolder });
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
