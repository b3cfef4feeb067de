/**
 * What `berth events --format` templates see: docker's events.Message, with its Go field names (`.Type`, `.Action`,
 * `.Actor.ID`, `.Actor.Attributes`, `.Scope`, `.Time`, `.TimeNano`, and the old `.Status`, `.ID`, `.From`).
 * `{{json .}}` is the message as Go encodes it: its keys in the struct's order, the empty old fields left out, and
 * `timeNano` with all its digits.
 */
import type { EngineEvent } from '../engine';
import type { TemplateContext } from './template';
import { EXACT_INTEGER, type TemplateValue } from './templateFunctions';

type RawEvent = EngineEvent & { status?: string; id?: string; from?: string };

const FIELDS = ['Status', 'ID', 'From', 'Type', 'Action', 'Actor', 'Scope', 'Time', 'TimeNano'] as const;

/** The message docker's events command checks a template against before it reads any event. */
export const EMPTY_EVENT: EngineEvent = { Type: '', Action: '', Actor: { ID: '' }, time: 0, timeNano: 0 };

export function eventContext(event: EngineEvent): TemplateContext & { toJson(): unknown; htmlEscapedJson: false } {
  const raw = event as RawEvent;
  const nanos = raw.exactTimeNano !== undefined && /^\d{1,20}$/.test(raw.exactTimeNano) ? raw.exactTimeNano : String(raw.timeNano ?? 0);
  const attributes = raw.Actor?.Attributes;
  const actor: TemplateValue = { ID: raw.Actor?.ID ?? '', Attributes: attributes ? { ...attributes } : {} };
  const values: Record<(typeof FIELDS)[number], TemplateValue> = {
    Status: raw.status ?? '',
    ID: raw.id ?? '',
    From: raw.from ?? '',
    Type: raw.Type ?? '',
    Action: raw.Action ?? '',
    Actor: actor,
    Scope: raw.scope ?? '',
    Time: raw.time ?? 0,
    // Digits, not a number: a nanosecond time has more digits than a double holds.
    TimeNano: nanos,
  };
  return {
    typeName: '*events.Message',
    has: (name) => (FIELDS as readonly string[]).includes(name),
    field: (name) => values[name as (typeof FIELDS)[number]],
    toJson: () => ({
      ...(raw.status ? { status: raw.status } : {}),
      ...(raw.id ? { id: raw.id } : {}),
      ...(raw.from ? { from: raw.from } : {}),
      Type: values.Type,
      Action: values.Action,
      Actor: { ID: raw.Actor?.ID ?? '', Attributes: attributes ? Object.fromEntries(Object.entries(attributes).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : null },
      ...(raw.scope ? { scope: raw.scope } : {}),
      ...(raw.time ? { time: raw.time } : {}),
      ...(nanos !== '0' ? { timeNano: `${EXACT_INTEGER}${nanos}` } : {}),
    }),
    htmlEscapedJson: false,
  };
}
