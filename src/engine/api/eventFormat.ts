/**
 * An engine event's exact time, its identity, and `docker events`' default line: shared by `berth events` and the
 * Events view, so both show an event the way docker does.
 */
import type { EngineEvent } from '../connection';

const NANOS_PER_SECOND = 1_000_000_000n;

/** The event's time in nanoseconds: the wire's digits when known, else the (rounded) number, else `time`. */
export function eventNanos(event: EngineEvent): bigint {
  if (event.exactTimeNano !== undefined && /^\d{1,20}$/.test(event.exactTimeNano)) return BigInt(event.exactTimeNano);
  if (typeof event.timeNano === 'number' && Number.isFinite(event.timeNano) && event.timeNano > 0) return BigInt(Math.floor(event.timeNano));
  if (typeof event.time === 'number' && Number.isFinite(event.time) && event.time > 0) return BigInt(Math.floor(event.time)) * NANOS_PER_SECOND;
  return 0n;
}

/** `SECONDS.NANOS`, the engine's form of `since` and `until`. */
export function engineTimeOf(nanos: bigint): string {
  const clamped = nanos < 0n ? 0n : nanos;
  return `${clamped / NANOS_PER_SECOND}.${(clamped % NANOS_PER_SECOND).toString().padStart(9, '0')}`;
}

/** Attribute entries sorted by key in byte order, as Go's sort.Strings sorts them. */
export function sortedAttributes(event: EngineEvent): Array<[string, string]> {
  const attributes = event.Actor?.Attributes ?? {};
  return Object.entries(attributes)
    .map(([key, value]): [string, string] => [key, String(value)])
    .sort(([a], [b]) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8')));
}

/**
 * Everything that tells two events apart: the same event replayed after a reconnect has the same key, so a history
 * can drop it.
 */
export function eventKey(event: EngineEvent, nanos: bigint = eventNanos(event)): string {
  return JSON.stringify([nanos.toString(), event.Type, event.Action, event.Actor?.ID ?? '', sortedAttributes(event)]);
}

/**
 * docker's RFC3339NanoFixed (`2006-01-02T15:04:05.000000000Z07:00`) in the local time zone: always nine digits
 * of fraction, `Z` for UTC, else the offset.
 */
export function rfc3339NanoFixed(nanos: bigint): string {
  const seconds = nanos / NANOS_PER_SECOND;
  const fraction = (nanos % NANOS_PER_SECOND).toString().padStart(9, '0');
  const date = new Date(Number(seconds) * 1000);
  const offsetMinutes = -date.getTimezoneOffset();
  const zone = offsetMinutes === 0 ? 'Z' : `${offsetMinutes < 0 ? '-' : '+'}${two(Math.floor(Math.abs(offsetMinutes) / 60))}:${two(Math.abs(offsetMinutes) % 60)}`;
  const day = `${String(date.getFullYear()).padStart(4, '0')}-${two(date.getMonth() + 1)}-${two(date.getDate())}`;
  return `${day}T${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}.${fraction}${zone}`;
}

function two(value: number): string {
  return String(value).padStart(2, '0');
}

/** `docker events`' default line, without its newline: `<time> <Type> <Action> <ID> (<key>=<value>, …)`. */
export function dockerEventLine(event: EngineEvent): string {
  const nanos = eventNanos(event);
  const time = nanos > 0n ? `${rfc3339NanoFixed(nanos)} ` : '';
  const attributes = sortedAttributes(event);
  const suffix = attributes.length > 0 ? ` (${attributes.map(([key, value]) => `${key}=${value}`).join(', ')})` : '';
  return `${time}${event.Type} ${event.Action} ${event.Actor?.ID ?? ''}${suffix}`;
}
