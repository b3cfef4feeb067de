/**
 * What each tree row shows (label, description, icon, tooltip markdown, context value), computed
 * without `vscode` so it is unit-testable. Providers turn it into TreeItems.
 */
import * as l10n from '@vscode/l10n';
import { formatBytes, momentWords, shortId } from '../common/format';
import { onNetworkNone, portLabel, portsOfSummary } from '../model/ports';
import { containerHealth, isRunningState, type ContainerHealth, type ContainerRecord, type ImageRecord } from '../model/records';
import { clockChangesAt, createdClock, renderClock, type StatusClock } from '../model/statusClock';

export interface IconSpec {
  /** A codicon id for ThemeIcon. */
  readonly id: string;
  /** A theme color id for ThemeColor. */
  readonly color?: string;
}

export interface ItemPresentation {
  readonly label: string;
  readonly description: string;
  readonly tooltip: string;
  readonly icon: IconSpec;
  readonly contextValue: string;
  /** Unix ms when the label, description or tooltip stops being true (a relative time moves on); undefined: never. */
  readonly changesAt?: number | undefined;
}

const MARKDOWN_SPECIAL = /[\\`*_{}[\]()#+\-.!|<>~]/g;

export function escapeMarkdown(text: string): string {
  return text.replace(MARKDOWN_SPECIAL, (char) => `\\${char}`);
}

export function containerContextValue(state: string): string {
  return `berth:container:${state}`;
}

/** A running container with a healthcheck: its icon says how the last checks went. */
const HEALTH_ICONS: Readonly<Record<ContainerHealth, IconSpec>> = {
  healthy: { id: 'pass', color: 'charts.green' },
  starting: { id: 'watch', color: 'charts.yellow' },
  unhealthy: { id: 'error', color: 'charts.red' },
};

export function containerIcon(record: ContainerRecord): IconSpec {
  const status = record.summary.Status ?? '';
  switch (record.state) {
    case 'running': {
      const health = containerHealth(record);
      return health ? HEALTH_ICONS[health] : { id: 'vm-running', color: 'charts.green' };
    }
    case 'paused':
      return { id: 'debug-pause', color: 'charts.yellow' };
    case 'restarting':
      return { id: 'sync', color: 'charts.orange' };
    case 'created':
      return { id: 'vm-outline', color: 'charts.blue' };
    case 'removing':
      return { id: 'trash' };
    case 'dead':
      return { id: 'error', color: 'errorForeground' };
    default: {
      const failed = /Exited \((?!0\))\d+\)/.test(status);
      return failed ? { id: 'vm-outline', color: 'charts.red' } : { id: 'vm-outline' };
    }
  }
}

/** The `Status` column as `docker ps` would show it at `nowMs`. */
export function containerStatus(record: ContainerRecord, nowMs: number): string {
  return record.clock ? renderClock(record.clock, nowMs) : (record.summary.Status ?? '');
}

/** docker's `CREATED` wording: `5 minutes ago`. */
function createdAgo(createdSeconds: number, nowMs: number): string {
  const clock = createdClock(createdSeconds);
  return clock ? renderClock(clock, nowMs) : l10n.t('unknown age');
}

function changesAt(clock: StatusClock | undefined, nowMs: number): number | undefined {
  return clock ? clockChangesAt(clock, nowMs) : undefined;
}

/**
 * The state and status in one phrase, without saying a word twice: `Created` (not "created, Created"),
 * `Exited (0) 2 minutes ago`, but `running, Up 5 minutes` and `paused, Up 5 minutes (Paused)`.
 */
export function stateAndStatus(state: string, status: string): string {
  if (status === '') return state;
  if (state === '' || status.toLowerCase().startsWith(state.toLowerCase())) return status;
  return `${state}, ${status}`;
}

/**
 * A command line in Markdown as the listing gives it (Docker quotes arguments that hold a space): escaped, and with
 * every space after the first of a run made non-breaking, since Markdown would collapse `'a  b'` into `'a b'`.
 */
export function markdownCommand(command: string): string {
  return escapeMarkdown(command).replace(/ {2,}/g, (run) => ` ${'\u00a0'.repeat(run.length - 1)}`);
}

export function containerTooltip(record: ContainerRecord, nowMs: number): string {
  const summary = record.summary;
  const created = summary.Created > 0 ? new Date(summary.Created * 1000).toISOString() : l10n.t('unknown');
  const lines = [
    `**${escapeMarkdown(record.name)}** — ${escapeMarkdown(stateAndStatus(summary.State, containerStatus(record, nowMs)))}`,
    '',
    l10n.t('ID: {0}', escapeMarkdown(record.id)),
    '',
    l10n.t('Image: {0}', escapeMarkdown(summary.Image)),
    '',
    l10n.t('Command: {0}', markdownCommand(summary.Command ?? '')),
    '',
    // The age as of the hover (tooltips are worded when hovered), as the image tooltip words it.
    l10n.t('Created: {0} ({1})', escapeMarkdown(created), createdAgo(summary.Created, nowMs)),
  ];
  // A running container's published ports (from the listing); those of one that is not running are only bindings,
  // which the Ports feature reads by inspect and adds as a decoration.
  // On network `none` the listing has no ports at all: the Ports feature's decoration says which bindings it drops.
  if (isRunningState(record.state) && !onNetworkNone(summary)) {
    const ports = portsOfSummary(summary.Ports).map(portLabel);
    lines.push('', l10n.t('Ports: {0}', ports.length > 0 ? escapeMarkdown(ports.join(', ')) : l10n.t('none')));
  }
  const labels = Object.entries(summary.Labels ?? {}).sort(([a], [b]) => a.localeCompare(b));
  if (labels.length > 0) {
    lines.push('', l10n.t('Labels:'), '');
    for (const [key, value] of labels) lines.push(`- ${escapeMarkdown(key)} = ${escapeMarkdown(value)}`);
  }
  return lines.join('\n');
}

export function presentContainer(record: ContainerRecord, nowMs: number): ItemPresentation {
  return {
    label: record.name,
    description: `${record.summary.Image} · ${containerStatus(record, nowMs) || record.state}`,
    // Worded only when read: a row's tooltip waits for a hover, and thousands of rows are drawn at once.
    get tooltip() {
      return containerTooltip(record, nowMs);
    },
    icon: containerIcon(record),
    contextValue: containerContextValue(record.state),
    changesAt: changesAt(record.clock, nowMs),
  };
}

/** Where a Compose project lives, from its containers' labels (the newest container's, as Compose relabels on `up`). */
export interface GroupPlace {
  readonly workingDir: string | undefined;
  readonly configFiles: readonly string[];
}

export function presentGroup(project: string, counts: { running: number; total: number }, place?: GroupPlace): ItemPresentation {
  const lines = [
    counts.total === 1
      ? l10n.t('Compose project **{0}**: {1} of 1 container running', escapeMarkdown(project), counts.running)
      : l10n.t('Compose project **{0}**: {1} of {2} containers running', escapeMarkdown(project), counts.running, counts.total),
  ];
  if (place?.workingDir) lines.push('', l10n.t('Working directory: {0}', escapeMarkdown(place.workingDir)));
  if (place && place.configFiles.length > 0) lines.push('', l10n.t('Config files:'), '', ...place.configFiles.map((file) => `- ${escapeMarkdown(file)}`));
  return {
    label: project,
    description: l10n.t('{0}/{1} running', counts.running, counts.total),
    tooltip: lines.join('\n'),
    icon: { id: 'layers' },
    contextValue: 'berth:group:compose',
  };
}

export function untaggedLabel(id: string): string {
  return `<untagged> sha256:${shortId(id)}…`;
}

/** An Images row: one tag of an image, or the image itself when it has none. */
export interface ImageRow {
  readonly tag: string | undefined;
  readonly label: string;
  readonly record: ImageRecord;
}

/**
 * How many containers an image row stands for: a tag row counts the containers created from that tag (tags that
 * share an image id would otherwise each claim all of them), an untagged row every container of the image.
 */
export interface ImageUsage {
  readonly row: number;
  readonly image: number;
}

/** `used by 1 container`, `used by 3 containers`; nothing when no container uses it. */
export function usedBy(count: number): string | undefined {
  if (count <= 0) return undefined;
  return count === 1 ? l10n.t('used by 1 container') : l10n.t('used by {0} containers', count);
}

function usageLine(node: ImageRow, usage: ImageUsage): string {
  if (node.tag === undefined || usage.row === usage.image) return l10n.t('Used by: {0}', containerCount(usage.image));
  return l10n.t('Used by: {0} created from {1} ({2} of this image in all)', containerCount(usage.row), escapeMarkdown(node.tag), containerCount(usage.image));
}

/** `1 container`, `3 containers`. */
function containerCount(count: number): string {
  return count === 1 ? l10n.t('1 container') : l10n.t('{0} containers', count);
}

export function presentImage(node: ImageRow, usage: ImageUsage, nowMs: number): ItemPresentation {
  const summary = node.record.summary;
  const parts = [formatBytes(summary.Size), createdAgo(summary.Created, nowMs)];
  const used = usedBy(node.tag === undefined ? usage.image : usage.row);
  if (used !== undefined) parts.push(used);
  const tags = node.record.tags;
  // Worded only when read (on hover), like a container row's.
  const tooltip = (): string => [
    `**${escapeMarkdown(node.tag ?? untaggedLabel(node.record.id))}**`,
    '',
    l10n.t('ID: {0}', escapeMarkdown(node.record.id)),
    '',
    l10n.t('Tags: {0}', tags.length > 0 ? escapeMarkdown(tags.join(', ')) : l10n.t('none')),
    '',
    l10n.t('Size: {0}', formatBytes(summary.Size)),
    '',
    l10n.t('Created: {0} ({1})', summary.Created > 0 ? escapeMarkdown(new Date(summary.Created * 1000).toISOString()) : l10n.t('unknown'), createdAgo(summary.Created, nowMs)),
    '',
    usageLine(node, usage),
  ].join('\n');
  return {
    label: node.label,
    description: parts.join(' · '),
    get tooltip() {
      return tooltip();
    },
    icon: node.tag === undefined ? { id: 'file-binary', color: 'disabledForeground' } : { id: 'package' },
    contextValue: node.tag === undefined ? 'berth:image:untagged' : 'berth:image:tagged',
    changesAt: changesAt(createdClock(summary.Created), nowMs),
  };
}


/** What an engine root node shows (several engines only). */
export interface EngineRowFacts {
  readonly name: string;
  readonly state: 'connecting' | 'connected' | 'unreachable';
  /** `Docker 20.10.24 · API 1.41`, `connecting…` or `unreachable: <reason>` (EngineSession.statusText). */
  readonly status: string;
  /** The engine's whole message while unreachable (the status has its first sentence). */
  readonly reason?: string | undefined;
  /** The endpoint, without credentials. */
  readonly endpoint: string;
  /** Where the engine comes from ("docker context "x"", "berth.engines setting", …). */
  readonly source: string;
  readonly current: boolean;
}

export function engineContextValue(state: EngineRowFacts['state']): string {
  return `berth:engine:${state}`;
}

export function presentEngine(engine: EngineRowFacts): ItemPresentation {
  const icon: IconSpec =
    engine.state === 'connected'
      ? { id: 'vm-active', color: 'charts.green' }
      : engine.state === 'unreachable'
        ? { id: 'debug-disconnect', color: 'errorForeground' }
        : { id: 'loading~spin' };
  const lines = [
    engine.current ? l10n.t('**{0}** (current engine)', escapeMarkdown(engine.name)) : `**${escapeMarkdown(engine.name)}**`,
    '',
    escapeMarkdown(engine.reason !== undefined ? l10n.t('unreachable: {0}', engine.reason) : engine.status),
    '',
    l10n.t('Endpoint: {0}', escapeMarkdown(engine.endpoint)),
    '',
    l10n.t('From: {0}', escapeMarkdown(engine.source)),
  ];
  return {
    label: engine.name,
    description: engine.current ? l10n.t('{0} · current', engine.status) : engine.status,
    tooltip: lines.join('\n'),
    icon,
    contextValue: engineContextValue(engine.state),
  };
}

/**
 * The view's message while its rows are the listing saved by an earlier window (savedListing.ts): the rows may be
 * out of date, and say so until the engine's own listing replaces them.
 */
export function savedListingMessage(savedAt: number, nowMs: number): string {
  return l10n.t('The list as saved at {0}, shown until the engine answers.', momentWords(savedAt, nowMs));
}
