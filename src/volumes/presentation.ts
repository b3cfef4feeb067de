/** What a volume row, a row of a container using it, and the Disk Usage row show. No `vscode` here. */
import * as l10n from '@vscode/l10n';
import { formatBytes, humanDuration, shortId } from '../common/format';

/** docker's wording of an age: `5 minutes ago`. */
function formatAge(createdSeconds: number, nowMs: number): string {
  return `${humanDuration(Math.max(0, nowMs - createdSeconds * 1000))} ago`;
}
import { diskUsageLines, type DiskUsage, type DiskUsageLine, type Volume } from '../engine';
import { clockChangesAt, createdClock } from '../model/statusClock';
import { escapeMarkdown, type ItemPresentation } from '../views/presentation';
import type { VolumeUser } from './store';

/** An anonymous volume's name is 64 hex digits. */
export function isAnonymous(name: string): boolean {
  return /^[0-9a-f]{64}$/.test(name);
}

export function volumeLabel(name: string): string {
  return isAnonymous(name) ? name.slice(0, 12) : name;
}

export function presentVolume(volume: Volume, users: readonly VolumeUser[], usage: { size: number; refCount: number } | undefined, nowMs: number): ItemPresentation {
  const anonymous = isAnonymous(volume.Name);
  const created = volume.CreatedAt !== undefined ? Date.parse(volume.CreatedAt) / 1000 : Number.NaN;
  const size = usage !== undefined && usage.size >= 0 ? formatBytes(usage.size) : undefined;
  const parts: string[] = [];
  if (anonymous) parts.push(l10n.t('anonymous'));
  parts.push(volume.Driver);
  if (size !== undefined) parts.push(size);
  const ageClock = Number.isFinite(created) ? createdClock(created) : undefined;
  if (Number.isFinite(created)) parts.push(formatAge(created, nowMs));
  parts.push(users.length === 0 ? l10n.t('unused') : users.length === 1 ? l10n.t('in use by 1 container') : l10n.t('in use by {0} containers', users.length));
  const lines = [
    anonymous ? l10n.t('**{0}** (anonymous)', escapeMarkdown(volume.Name)) : `**${escapeMarkdown(volume.Name)}**`,
    '',
    l10n.t('Driver: {0}', escapeMarkdown(volume.Driver)),
    '',
    l10n.t('Size: {0}', size ?? l10n.t('not computed yet (Refresh Disk Usage)')),
    '',
    l10n.t('Created: {0}', volume.CreatedAt !== undefined ? escapeMarkdown(volume.CreatedAt) : l10n.t('unknown')),
    '',
    l10n.t('Used by: {0}', users.length > 0 ? escapeMarkdown(users.map((user) => user.name).join(', ')) : l10n.t('no container')),
  ];
  return {
    label: volumeLabel(volume.Name),
    description: parts.join(' · '),
    tooltip: lines.join('\n'),
    icon: users.length > 0 ? { id: 'database' } : { id: 'database', color: 'disabledForeground' },
    contextValue: users.length > 0 ? 'berth:volume:used' : 'berth:volume:unused',
    // The age in the description moves, as a container's status does: the view refreshes the row then.
    changesAt: ageClock ? clockChangesAt(ageClock, nowMs) : undefined,
  };
}

export function presentVolumeUser(user: VolumeUser): ItemPresentation {
  return {
    label: user.name,
    description: shortId(user.id),
    tooltip: l10n.t('Container **{0}** ({1}) mounts this volume. Click to show it.', escapeMarkdown(user.name), shortId(user.id)),
    icon: { id: 'vm' },
    contextValue: 'berth:volume:user',
  };
}

/** `2.5GB (40%)` as docker prints the RECLAIMABLE column. */
export function reclaimableText(line: DiskUsageLine): string {
  if (line.size <= 0) return formatBytes(line.reclaimable);
  return `${formatBytes(line.reclaimable)} (${Math.round((line.reclaimable * 100) / line.size)}%)`;
}

export function presentDiskUsage(usage: DiskUsage | undefined, fetchedAt: number | undefined, nowMs: number): ItemPresentation {
  if (usage === undefined) {
    return {
      label: l10n.t('Disk Usage'),
      description: l10n.t('click to compute'),
      tooltip: l10n.t('Images, containers, volumes and build cache: total, active and reclaimable, as `docker system df` shows them.'),
      icon: { id: 'graph' },
      contextValue: 'berth:diskUsage',
    };
  }
  const lines = diskUsageLines(usage);
  const reclaimable = lines.reduce((sum, line) => sum + line.reclaimable, 0);
  const total = lines.reduce((sum, line) => sum + line.size, 0);
  const table = [
    l10n.t('| Type | Total | Active | Size | Reclaimable |'),
    '|---|---:|---:|---:|---:|',
    ...lines.map((line) => `| ${line.type} | ${line.total} | ${line.active} | ${formatBytes(line.size)} | ${reclaimableText(line)} |`),
  ];
  const age = fetchedAt !== undefined ? l10n.t('computed {0}', formatAge(fetchedAt / 1000, nowMs)) : '';
  return {
    label: l10n.t('Disk Usage'),
    description: l10n.t('{0} · {1} reclaimable', formatBytes(total), formatBytes(reclaimable)),
    tooltip: [...table, '', age].join('\n'),
    icon: { id: 'graph' },
    contextValue: 'berth:diskUsage',
  };
}
