/**
 * A container's runs as its event stream tells them: each start and each end (`die`, with its exit status), in the
 * engine's order and with the engine's times. The logs follower places its "exited" and "restarted" lines by them,
 * since an inspect only shows the latest run and a container under a restart policy can run several times between
 * two inspects. No `vscode` here.
 */
import type { ContainerInspect, EngineClient, EngineEvent } from '../engine';
import { baseAction } from '../model/actions';
import { eventsSince, parseTimestamp } from './timestamps';

export type RunEvent =
  | { readonly kind: 'start'; readonly nanos: bigint }
  | { readonly kind: 'die'; readonly nanos: bigint; readonly exitCode: number | undefined }
  | { readonly kind: 'removed'; readonly nanos: bigint };

type State = ContainerInspect['State'];

/**
 * How long the events that explain an inspected state may take to come. They come within milliseconds; only an
 * engine that dropped them (its event buffer overflowed) makes the follower wait this long and go on without them.
 */
const EVENTS_WAIT_MS = 5000;

/** A container that was created but never started has the zero time as StartedAt. */
export function hasRun(state: State): boolean {
  return state.Running || (state.StartedAt !== '' && !state.StartedAt.startsWith('0001-'));
}

/** Running a process now: Docker reports a container waiting out its restart delay as Running and Restarting. */
export function isRunning(state: State): boolean {
  return state.Running && state.Restarting !== true;
}

function nanosOf(time: string): bigint | undefined {
  if (time === '' || time.startsWith('0001-')) return undefined;
  return parseTimestamp(`${time} `)?.nanos;
}

function eventNanos(event: EngineEvent): bigint {
  return event.exactTimeNano === undefined ? BigInt(Math.round(event.timeNano)) : BigInt(event.exactTimeNano);
}

function toRunEvent(event: EngineEvent): RunEvent | undefined {
  const nanos = eventNanos(event);
  const action = baseAction(event.Action);
  if (action === 'start') return { kind: 'start', nanos };
  if (action === 'destroy' || action === 'remove') return { kind: 'removed', nanos };
  if (action !== 'die' && action !== 'died') return undefined;
  const code = Number(event.Actor.Attributes?.exitCode ?? event.Actor.Attributes?.containerExitCode);
  return { kind: 'die', nanos, exitCode: Number.isInteger(code) ? code : undefined };
}

/**
 * Whether EVENTS tell everything up to STATE: the start of the run that is running (engines send it after setting
 * StartedAt), or the end of the one that stopped (sent after FinishedAt; Podman's FinishedAt can even be a little
 * before its StartedAt, so the later of the two).
 */
function explains(events: readonly RunEvent[], state: State): boolean {
  const last = events.at(-1);
  if (last?.kind === 'removed') return true;
  const started = nanosOf(state.StartedAt);
  if (started === undefined) return true;
  if (isRunning(state)) return events.some((event) => event.kind === 'start' && event.nanos >= started);
  const finished = nanosOf(state.FinishedAt);
  const end = finished !== undefined && finished > started ? finished : started;
  return events.some((event) => event.kind === 'die' && event.nanos >= end);
}

/**
 * The container's starts, ends and removal from FROM (nanoseconds) up to what STATE shows, in the engine's order;
 * undefined when the engine did not send them in time (or its stream ended first). Podman ignores `until` (it then
 * sends nothing at all), so the stream is followed and left as soon as it has told enough.
 */
export async function runEventsUpTo(
  client: { readonly system: Pick<EngineClient['system'], 'events'> },
  id: string,
  from: bigint,
  state: State,
  signal: AbortSignal,
): Promise<RunEvent[] | undefined> {
  const events: RunEvent[] = [];
  if (nanosOf(state.StartedAt) === undefined) return events;
  const reading = new AbortController();
  const stop = (): void => reading.abort();
  signal.addEventListener('abort', stop, { once: true });
  const timer = setTimeout(stop, EVENTS_WAIT_MS);
  try {
    const stream = client.system.events({ since: eventsSince(from), filters: { type: ['container'], container: [id] }, signal: reading.signal });
    for await (const event of stream) {
      const run = toRunEvent(event);
      if (run === undefined || run.nanos < from) continue;
      events.push(run);
      if (explains(events, state)) return events;
    }
    return undefined;
  } catch (error) {
    if (signal.aborted || !reading.signal.aborted) throw error;
    return undefined;
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', stop);
  }
}

/**
 * Waits for a `start` (or the removal) on the event stream from FROM; 'ended' when the stream closed. The start itself
 * is left to `runEventsUpTo`, which reads the events again from the same instant.
 */
export async function waitForStart(
  client: { readonly system: Pick<EngineClient['system'], 'events'> },
  id: string,
  from: bigint | undefined,
  signal: AbortSignal,
): Promise<{ kind: 'started'; nanos: bigint } | { kind: 'removed' | 'ended' }> {
  const filters = { type: ['container'], container: [id], event: ['start', 'destroy', 'remove'] };
  for await (const event of client.system.events({ filters, signal, ...(from === undefined ? {} : { since: eventsSince(from) }) })) {
    const action = baseAction(event.Action);
    if (action === 'destroy' || action === 'remove') return { kind: 'removed' };
    if (action === 'start') return { kind: 'started', nanos: eventNanos(event) };
  }
  return { kind: 'ended' };
}
