/**
 * What a command acts on. Commands are called from tree rows (a node, plus the multi-selection), from
 * the palette (nothing: ask with a QuickPick), and from automation (an id or name string, `{ id }`).
 */
import * as vscode from 'vscode';
import type { ContainerTreeNode } from '../model/containerTree';
import type { ImageNode } from '../model/imageTree';
import type { ContainerRecord, ImageRecord } from '../model/records';
import { shortId } from '../common/format';
import type { Ctx } from '../ctx';

export interface ContainerRef {
  readonly id: string;
  readonly name: string;
  readonly record: ContainerRecord | undefined;
}

export interface ImageRef {
  /** What to pass to the engine: the tag of a tagged row, else the id. */
  readonly reference: string;
  readonly id: string;
  readonly record: ImageRecord | undefined;
}

/** Options bag accepted by item commands from automation. */
export interface ItemOptions {
  readonly confirmed?: boolean;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function isContainerNode(value: unknown): value is ContainerTreeNode {
  return isObject(value) && (value['kind'] === 'container' || value['kind'] === 'group');
}

function isImageNode(value: unknown): value is ImageNode {
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

export function containerRefOf(ctx: Ctx, value: unknown): ContainerRef[] {
  if (isContainerNode(value)) {
    if (value.kind === 'container') return [refOfRecord(value.record)];
    return value.members.view.map((member) => refOfRecord(member.record));
  }
  const key = typeof value === 'string' ? value : isObject(value) && typeof value['id'] === 'string' ? value['id'] : undefined;
  if (key === undefined) return [];
  const record = ctx.model.container(key);
  return [record ? refOfRecord(record) : { id: key, name: key, record: undefined }];
}

function refOfRecord(record: ContainerRecord): ContainerRef {
  return { id: record.id, name: record.name, record };
}

/**
 * The containers a command acts on: the multi-selection when the clicked row is part of it, else the
 * clicked row or the given id; with nothing given, a QuickPick over the model filtered by `eligible`.
 */
export async function resolveContainers(
  ctx: Ctx,
  args: unknown[],
  pick: { placeHolder: string; eligible: (record: ContainerRecord) => boolean; many: boolean },
): Promise<{ refs: ContainerRef[]; options: ItemOptions } | undefined> {
  const { target, selection, options } = splitArgs(args);
  const fromSelection = selection.length > 1 ? selection.flatMap((item) => containerRefOf(ctx, item)) : [];
  if (fromSelection.length > 0) return { refs: dedupe(fromSelection), options };
  const direct = containerRefOf(ctx, target);
  if (direct.length > 0) return { refs: direct, options };
  const refs = await pickContainers(ctx, pick);
  return refs && refs.length > 0 ? { refs, options } : undefined;
}

async function pickContainers(
  ctx: Ctx,
  pick: { placeHolder: string; eligible: (record: ContainerRecord) => boolean; many: boolean },
): Promise<ContainerRef[] | undefined> {
  const items = [...ctx.model.containers()]
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
    return chosen?.map((item) => refOfRecord(item.record));
  }
  const chosen = await vscode.window.showQuickPick(items, { placeHolder: pick.placeHolder });
  return chosen ? [refOfRecord(chosen.record)] : undefined;
}

export function imageRefOf(ctx: Ctx, value: unknown): ImageRef | undefined {
  if (isImageNode(value)) {
    return { reference: value.tag ?? value.record.id, id: value.record.id, record: value.record };
  }
  const key = typeof value === 'string' ? value : isObject(value) && typeof value['id'] === 'string' ? value['id'] : undefined;
  if (key === undefined) return undefined;
  const record = ctx.model.image(key);
  return { reference: key, id: record?.id ?? key, record };
}

export async function resolveImages(
  ctx: Ctx,
  args: unknown[],
  placeHolder: string,
): Promise<{ refs: ImageRef[]; options: ItemOptions } | undefined> {
  const { target, selection, options } = splitArgs(args);
  const fromSelection = selection.length > 1 ? selection.flatMap((item) => imageRefOf(ctx, item) ?? []) : [];
  if (fromSelection.length > 0) return { refs: fromSelection, options };
  const direct = imageRefOf(ctx, target);
  if (direct) return { refs: [direct], options };
  const items = [...ctx.model.images()].flatMap((record) =>
    (record.tags.length > 0 ? record.tags : [undefined]).map((tag) => ({
      label: tag ?? `<untagged> ${shortId(record.id)}`,
      description: shortId(record.id),
      ref: { reference: tag ?? record.id, id: record.id, record } satisfies ImageRef,
    })),
  );
  items.sort((a, b) => a.label.localeCompare(b.label));
  const chosen = await vscode.window.showQuickPick(items, { placeHolder, canPickMany: true });
  return chosen && chosen.length > 0 ? { refs: chosen.map((item) => item.ref), options } : undefined;
}

function dedupe(refs: ContainerRef[]): ContainerRef[] {
  const seen = new Set<string>();
  return refs.filter((ref) => (seen.has(ref.id) ? false : (seen.add(ref.id), true)));
}
