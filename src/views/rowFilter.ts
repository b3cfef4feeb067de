/**
 * What a view's filter matches: the text a user sees on a row (name, image, id prefix, status, Compose project and
 * service, ports, labels), case-insensitive, as a substring; and which containers belong to the workspace (Compose
 * projects whose files sit in a workspace folder, containers of images Berth built from one). Each row's text is
 * made once per record object and kept, so a keystroke costs one substring search per row. No `vscode` here.
 */
import * as l10n from '@vscode/l10n';
import type { ContainerRecord, ImageRecord } from '../model/records';

/** The label Berth's builds put on an image: the workspace folder it was built from. Containers inherit it. */
export const WORKSPACE_FOLDER_LABEL = 'berth.workspace-folder';
const COMPOSE_SERVICE_LABEL = 'com.docker.compose.service';
const COMPOSE_WORKING_DIR_LABEL = 'com.docker.compose.project.working_dir';
const COMPOSE_CONFIG_FILES_LABEL = 'com.docker.compose.project.config_files';

/** What a view shows: rows matching TEXT (empty: every row) and, on the Containers view, the workspace's only. */
export interface RowFilter {
  /** Lower-cased and trimmed; empty when no text filter applies. */
  readonly needle: string;
  /** Containers of the workspace only (the Containers view's toggle). */
  readonly workspaceFolders?: readonly string[] | undefined;
}

/** The row a view shows instead of its rows when its filter matches none of them. */
export interface FilterNoticeRow {
  readonly kind: 'filterNotice';
  readonly engine: string;
}

export const NO_FILTER: RowFilter = { needle: '' };

/** The filter for what the user typed. */
export function textFilter(text: string, workspaceFolders?: readonly string[]): RowFilter {
  return { needle: text.trim().toLowerCase(), workspaceFolders };
}

export function filterApplies(filter: RowFilter | undefined): boolean {
  return filter !== undefined && (filter.needle.length > 0 || filter.workspaceFolders !== undefined);
}

type Labels = Readonly<Record<string, string>> | null | undefined;

function labelLines(labels: Labels): string {
  if (!labels) return '';
  let text = '';
  for (const key in labels) text += `\n${key}=${labels[key] ?? ''}`;
  return text;
}

/** Row texts, one per record or summary object (records are replaced, never changed, when their container changes). */
const texts = new WeakMap<object, string>();

function textOf(key: object, make: () => string): string {
  let text = texts.get(key);
  if (text === undefined) {
    text = make().toLowerCase();
    texts.set(key, text);
  }
  return text;
}

/**
 * What a row shows that its state does not change, in lines so that a needle never spans two fields; ports as the
 * row's tooltip words them (`127.0.0.1:8080 → 80/tcp`). State and status are matched on their own: most events change
 * only them, and the record they bring then takes its previous record's text (carryContainerText).
 */
function containerText(record: ContainerRecord): string {
  return textOf(record, () => {
    const summary = record.summary;
    let text = `${record.name}\n${summary.Image ?? ''}\n${record.composeProject ?? ''}\n${summary.Labels?.[COMPOSE_SERVICE_LABEL] ?? ''}`;
    for (const port of summary.Ports ?? []) text += `\n${port.IP ?? ''}:${port.PublicPort ?? ''} → ${port.PrivatePort}/${port.Type}`;
    return text + labelLines(summary.Labels);
  });
}

/** State and status: what changes on most events, so kept apart from the rest. */
const stateTexts = new WeakMap<ContainerRecord, string>();

function stateText(record: ContainerRecord): string {
  let text = stateTexts.get(record);
  if (text === undefined) {
    text = `${record.state}\n${record.summary.Status ?? ''}`.toLowerCase();
    stateTexts.set(record, text);
  }
  return text;
}

function sameLabels(a: Labels, b: Labels): boolean {
  if (a === b) return true;
  if (!a || !b) return false;
  let count = 0;
  for (const key in a) {
    if (a[key] !== b[key]) return false;
    count++;
  }
  for (const _ in b) count--;
  return count === 0;
}

function samePorts(a: ContainerRecord['summary']['Ports'] | null | undefined, b: ContainerRecord['summary']['Ports'] | null | undefined): boolean {
  if (a === b) return true;
  if (!a || !b || a.length !== b.length) return false;
  return a.every((port, index) => {
    const other = b[index];
    return other !== undefined && port.IP === other.IP && port.PublicPort === other.PublicPort && port.PrivatePort === other.PrivatePort && port.Type === other.Type;
  });
}

/**
 * A record that replaces PREVIOUS (an event's refetch) takes its text when only its state changed: comparing costs no
 * allocation, where making the text again costs a string per row on every event while a filter applies.
 */
export function carryContainerText(previous: ContainerRecord, current: ContainerRecord): void {
  const text = texts.get(previous);
  if (text === undefined || texts.has(current)) return;
  const [a, b] = [previous.summary, current.summary];
  if (previous.name === current.name && a.Image === b.Image && samePorts(a.Ports, b.Ports) && sameLabels(a.Labels, b.Labels)) texts.set(current, text);
}

/** An id matches from its start, with or without `sha256:` (what docker ps and the tooltips show). */
function idMatches(id: string, needle: string): boolean {
  const bare = id.startsWith('sha256:') ? id.slice('sha256:'.length) : id;
  return bare.startsWith(needle) || id.startsWith(needle);
}

export function containerMatches(record: ContainerRecord, filter: RowFilter): boolean {
  if (filter.workspaceFolders !== undefined && !inWorkspace(record.summary.Labels, filter.workspaceFolders)) return false;
  const needle = filter.needle;
  if (needle.length === 0 || idMatches(record.id, needle) || containerText(record).includes(needle)) return true;
  return stateText(record).includes(needle);
}

export function imageMatches(record: ImageRecord, filter: RowFilter): boolean {
  const needle = filter.needle;
  if (needle.length === 0) return true;
  if (idMatches(record.id, needle)) return true;
  return textOf(record, () => [...record.tags, ...(record.summary.RepoDigests ?? [])].join('\n') + labelLines(record.summary.Labels)).includes(needle);
}

export interface VolumeLike {
  readonly Name: string;
  readonly Driver?: string;
  readonly Labels?: Labels;
}

export function volumeMatches(volume: VolumeLike, filter: RowFilter): boolean {
  const needle = filter.needle;
  if (needle.length === 0) return true;
  return textOf(volume, () => `${volume.Name}\n${volume.Driver ?? ''}${labelLines(volume.Labels)}`).includes(needle);
}

export interface NetworkLike {
  readonly Id: string;
  readonly Name: string;
  readonly Driver?: string;
  readonly Scope?: string;
  readonly Labels?: Labels;
}

export function networkMatches(network: NetworkLike, filter: RowFilter): boolean {
  const needle = filter.needle;
  if (needle.length === 0) return true;
  if (idMatches(network.Id, needle)) return true;
  return textOf(network, () => `${network.Name}\n${network.Driver ?? ''}\n${network.Scope ?? ''}${labelLines(network.Labels)}`).includes(needle);
}

/** Whether PATH is FOLDER or inside it (paths as the engine's host writes them; no `..` is resolved). */
export function isInsideFolder(path: string, folder: string): boolean {
  const base = folder.replace(/[\\/]+$/, '');
  if (base.length === 0) return false;
  return path === base || path.startsWith(`${base}/`) || path.startsWith(`${base}\\`);
}

/**
 * A container belongs to the workspace when Compose made it from files in a workspace folder (its working dir or a
 * config file inside one), or when its image was built by Berth from one (the label the image handed down).
 */
export function inWorkspace(labels: Labels, folders: readonly string[]): boolean {
  if (!labels || folders.length === 0) return false;
  const places: string[] = [];
  const workingDir = labels[COMPOSE_WORKING_DIR_LABEL];
  if (workingDir) places.push(workingDir);
  const configFiles = labels[COMPOSE_CONFIG_FILES_LABEL];
  if (configFiles) {
    for (const file of configFiles.split(',')) {
      const trimmed = file.trim();
      if (trimmed.startsWith('/') || /^[A-Za-z]:[\\/]/.test(trimmed)) places.push(trimmed);
    }
  }
  const built = labels[WORKSPACE_FOLDER_LABEL];
  if (built) places.push(built);
  return places.some((place) => folders.some((folder) => isInsideFolder(place, folder)));
}

/** Rows a view shows, and rows it would show without its filter. */
export interface FilterCounts {
  readonly shown: number;
  readonly total: number;
}

/** `N of M` for a view's description while a filter applies. */
export function filterCountText(shown: number, total: number): string {
  return l10n.t('{0} of {1}', shown, total);
}
