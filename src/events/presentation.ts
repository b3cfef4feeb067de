/**
 * The Events view's rows, vscode-free: time, type, action, the object's name and the attributes that matter (exit
 * code, signal), and the filter that matches type, object and action.
 */
import * as l10n from '@vscode/l10n';
import { dockerEventLine, type EngineEvent } from '../engine';
import { shortId } from '../common/format';
import type { HistoryEntry } from '../model/eventHistory';
import { escapeMarkdown, type ItemPresentation } from '../views/presentation';

/** Attributes worth a place on the row itself; the tooltip lists them all. */
const KEY_ATTRIBUTES = ['exitCode', 'signal', 'health_status'] as const;

const ICONS: Readonly<Record<string, string>> = { container: 'vm', image: 'file-binary', volume: 'database', network: 'type-hierarchy' };

/** The object's name as people know it: a container's or volume's name, an image's reference, else a short id. */
export function objectName(event: EngineEvent): string {
  const attributes = event.Actor?.Attributes ?? {};
  const id = event.Actor?.ID ?? '';
  return attributes['name'] ?? (/^(sha256:)?[0-9a-f]{64}$/.test(id) ? shortId(id) : id);
}

/** `14:03:07.123`: the local time of day, to the millisecond. */
export function timeOfDay(nanos: bigint): string {
  const date = new Date(Number(nanos / 1_000_000n));
  const two = (value: number): string => String(value).padStart(2, '0');
  return `${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}.${String(date.getMilliseconds()).padStart(3, '0')}`;
}

export function presentEvent(entry: HistoryEntry): ItemPresentation {
  const { event } = entry;
  const attributes = event.Actor?.Attributes ?? {};
  const keys = KEY_ATTRIBUTES.filter((key) => attributes[key] !== undefined).map((key) => `${key}=${attributes[key] ?? ''}`);
  return {
    label: `${event.Type} ${event.Action} ${objectName(event)}`,
    description: [timeOfDay(entry.nanos), ...keys].join(' · '),
    tooltip: escapeMarkdown(dockerEventLine(event)),
    icon: { id: ICONS[event.Type] ?? 'pulse' },
    contextValue: `berth:event:${revealable(event) ? 'revealable' : 'other'}`,
  };
}

/** Whether a click can show the event's object in another Berth view. */
export function revealable(event: EngineEvent): boolean {
  return event.Type === 'container' || event.Type === 'image';
}

/**
 * Words that must all appear in the event's type, action or object (name or id), case-insensitively: `container die`
 * or `web start`. Empty: everything matches.
 */
export function matchesFilter(event: EngineEvent, filter: string): boolean {
  const words = filter.toLowerCase().split(/\s+/).filter((word) => word !== '');
  if (words.length === 0) return true;
  const haystack = [event.Type, event.Action, objectName(event), event.Actor?.ID ?? '', event.Actor?.Attributes?.['name'] ?? ''].join(' ').toLowerCase();
  return words.every((word) => haystack.includes(word));
}

/** The view's description: how many rows a filter shows of how many kept. */
export function filterDescription(shown: number, total: number, filter: string): string {
  return filter.trim() === '' ? '' : l10n.t('{0} of {1}', shown, total);
}
