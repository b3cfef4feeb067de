/**
 * One project's logs merged into one stream: every container of the project (or of some of its services), each line
 * tagged with its service, in the order of the engine's timestamps. Following, it keeps up with the project through
 * the event stream: a container that restarts is read again from just after its last line, and one that joins the
 * project later (a scale-up, an `up` of another service) is added. Plain Node: terminals and documents are sinks.
 *
 * Order: each container's stream is in time order, but the streams arrive independently. Lines wait in a short
 * reorder window (`reorderMs`, measured on arrival) and leave sorted by their stamps, so lines of different services
 * written close together come out in the engine's order; a line later than the window is shown, never dropped.
 */
import { errorMessage } from '../../common/errors';
import { lastingEvents, type EngineClient } from '../api';
import { COMPOSE_LABELS, memberOf, type ComposeMember } from './composeProjects';
import { MessageSplitter, splitStamp } from './composeMessages';
import { isEngineError, type ContainerSummary, type EngineEvent, timersPromises } from '../connection';

export { splitStamp };

export interface MergedLine {
  readonly service: string;
  /** What the prefix shows: the service, or `service-N` once the service has several containers. */
  readonly label: string;
  readonly container: string;
  readonly stream: 'stdout' | 'stderr';
  /** The engine's stamp as Unix seconds and nanoseconds, for ordering and resuming. */
  readonly seconds: number;
  readonly nanos: number;
  /** The line without its stamp and without the final newline. */
  readonly text: string;
}

export interface MergedLogsSink {
  /** Lines in timestamp order, in batches. */
  lines(batch: readonly MergedLine[]): void;
  /** A message from Berth itself: a container joined, stopped, restarted or was removed. */
  notice(text: string): void;
}

export type ProjectLogsClient = { readonly system: Pick<EngineClient['system'], 'events'>; readonly containers: Pick<EngineClient['containers'], 'logs' | 'inspect' | 'list'> };

export interface ProjectLogsOptions {
  readonly follow: boolean;
  readonly tail?: number | 'all' | undefined;
  /** Only these services (all when empty or absent). */
  readonly services?: readonly string[] | undefined;
  readonly signal: AbortSignal;
  readonly reorderMs?: number | undefined;
}

export function compareLines(a: { seconds: number; nanos: number }, b: { seconds: number; nanos: number }): number {
  return a.seconds - b.seconds || a.nanos - b.nanos;
}

/** Lines wait here until they are older than the window, then leave in stamp order. */
export class ReorderBuffer {
  private pending: Array<{ line: MergedLine; arrived: number }> = [];

  constructor(
    private readonly windowMs: number,
    private readonly emit: (batch: readonly MergedLine[]) => void,
  ) {}

  push(line: MergedLine, now: number): void {
    this.pending.push({ line, arrived: now });
  }

  get size(): number {
    return this.pending.length;
  }

  /** Emits every line up to the newest stamp among the lines that waited long enough (all with `force`). */
  flush(now: number, force = false): void {
    if (this.pending.length === 0) return;
    let limit: MergedLine | undefined;
    for (const entry of this.pending) {
      if (!force && now - entry.arrived < this.windowMs) continue;
      if (!limit || compareLines(entry.line, limit) > 0) limit = entry.line;
    }
    if (!limit) return;
    const out: MergedLine[] = [];
    const keep: Array<{ line: MergedLine; arrived: number }> = [];
    for (const entry of this.pending) {
      if (force || compareLines(entry.line, limit) <= 0) out.push(entry.line);
      else keep.push(entry);
    }
    this.pending = keep;
    // Sort is stable: lines of one container with the same stamp keep their order.
    this.emit(out.sort(compareLines));
  }
}

interface Reader {
  member: ComposeMember;
  /** Reading now; false while the container is stopped. */
  active: boolean;
  /** The stamp of the last line delivered: a resumed read skips up to it. */
  last: { seconds: number; nanos: number } | undefined;
}

/** When a follow ends while the same run still runs (an engine quirk), wait this long before reading again. */
const SAME_RUN_RETRY_MS = 300;

export class ProjectLogs {
  private readonly readers = new Map<string, Reader>();
  private readonly buffer: ReorderBuffer;
  private readonly running = new Set<Promise<void>>();
  private readonly services: ReadonlySet<string>;
  private readonly reorderMs: number;
  /** Start events that came before the first listing was in; undefined once it is. */
  private early: EngineEvent[] | undefined = [];

  constructor(
    private readonly client: ProjectLogsClient,
    readonly project: string,
    private readonly sink: MergedLogsSink,
    private readonly options: ProjectLogsOptions,
  ) {
    this.reorderMs = options.reorderMs ?? 150;
    this.buffer = new ReorderBuffer(this.reorderMs, (batch) => this.sink.lines(batch));
    this.services = new Set(options.services ?? []);
  }

  /** Reads until every stream ended (not following) or the signal aborts (following). */
  async run(): Promise<void> {
    const { signal } = this.options;
    const filter = { label: [`${COMPOSE_LABELS.project}=${this.project}`] };
    // Events from a moment before the listing: a container that starts in between is seen by one or the other.
    const since = Math.floor(Date.now() / 1000) - 2;
    const events = this.options.follow ? this.watch(since) : undefined;
    const summaries = await this.client.containers.list({ all: true, filters: filter, signal });
    const members = summaries.filter((summary) => this.wanted(summary)).map(memberOf);
    if (members.length === 0 && !this.options.follow) return;
    const ticker = this.options.follow ? this.tick() : undefined;
    for (const member of members) this.start(member, true);
    // Starts seen before the listing: those of listed containers are covered by their first read (with the tail).
    const early = this.early ?? [];
    this.early = undefined;
    for (const event of early) if (!this.readers.has(event.Actor.ID)) this.onStart(event);
    while (this.running.size > 0) await Promise.race(this.running);
    if (!this.options.follow) {
      this.buffer.flush(Date.now(), true);
      return;
    }
    await Promise.all([events, ticker]);
    this.buffer.flush(Date.now(), true);
  }

  private wanted(summary: ContainerSummary): boolean {
    if (summary.Labels?.[COMPOSE_LABELS.oneoff] === 'True') return false;
    return this.services.size === 0 || this.services.has(summary.Labels?.[COMPOSE_LABELS.service] ?? '');
  }

  private label(member: ComposeMember): string {
    let replicas = 0;
    for (const reader of this.readers.values()) if (reader.member.service === member.service) replicas++;
    return replicas > 1 && member.number !== undefined ? `${member.service}-${member.number}` : member.service;
  }

  private start(member: ComposeMember, first: boolean): void {
    let reader = this.readers.get(member.id);
    if (reader?.active) return;
    reader ??= { member, active: false, last: undefined };
    this.readers.set(member.id, reader);
    reader.active = true;
    const work = this.read(reader, first).finally(() => this.running.delete(work));
    this.running.add(work);
  }

  private async read(reader: Reader, firstRead: boolean): Promise<void> {
    let first = firstRead;
    const { signal, follow } = this.options;
    const { member } = reader;
    try {
      for (;;) {
        const inspect = await this.client.containers.inspect(member.id, { signal });
        const last = reader.last;
        const splitter = new MessageSplitter(inspect.Config.Tty, (stream, seconds, nanos, text) => {
          if (last && compareLines({ seconds, nanos }, last) <= 0) return; // replayed by `since`
          reader.last = { seconds, nanos };
          this.buffer.push({ service: member.service, label: this.label(member), container: member.id, stream, seconds, nanos, text }, Date.now());
        });
        // `since` is inclusive and in microseconds here: the line at `last` comes again and is skipped above. A run
        // read from its start (a restart, a container that joined) begins at its StartedAt: older lines are older runs'.
        const from = last ?? (first ? undefined : splitStamp(`${inspect.State.StartedAt} `));
        const since = from ? from.seconds + Math.floor(from.nanos / 1000) / 1e6 : undefined;
        const tail = first ? this.options.tail : undefined;
        first = false;
        const openedMs = Date.now();
        const opened = { seconds: Math.floor(openedMs / 1000), nanos: (openedMs % 1000) * 1_000_000 };
        // rawFrames: the splitter takes the frames itself, with no chunk object per frame (a flood of tiny messages).
        for await (const chunk of this.client.containers.logs(member.id, { follow, timestamps: true, tail, since, tty: inspect.Config.Tty, rawFrames: true, signal })) {
          splitter.push(chunk);
        }
        splitter.end();
        // Nothing shown (a tail of 0, a quiet run): a later read starts from when this one was opened, not earlier.
        reader.last ??= opened;
        if (!follow || signal.aborted) return;
        const now = await this.client.containers.inspect(member.id, { signal });
        if (!now.State.Running) {
          this.sink.notice(`${this.label(member)} exited with code ${now.State.ExitCode}`);
          return;
        }
        if (now.State.StartedAt === inspect.State.StartedAt) await timersPromises().setTimeout(SAME_RUN_RETRY_MS, undefined, { signal });
        else this.sink.notice(`${this.label(member)} restarted`);
      }
    } catch (error) {
      if (signal.aborted) return;
      if (isEngineError(error, 'not-found')) this.sink.notice(`${this.label(member)} was removed`);
      else this.sink.notice(`${this.label(member)}: reading its logs failed: ${errorMessage(error)}`);
    } finally {
      reader.active = false;
    }
  }

  /** Starts and new containers through the event stream, until the signal aborts. */
  private async watch(since: number): Promise<void> {
    const { signal } = this.options;
    const filters = { type: ['container'], label: [`${COMPOSE_LABELS.project}=${this.project}`] };
    try {
      // Across the clean ends of the stream: Podman ends it each time it rotates its events file.
      for await (const event of lastingEvents(this.client, { since, filters, signal })) {
        if (!event.Action.startsWith('start')) continue;
        if (this.early) this.early.push(event);
        else this.onStart(event);
      }
      if (!signal.aborted) this.sink.notice("The engine keeps ending the project's event stream: containers that start from now on are not followed");
    } catch (error) {
      if (!signal.aborted) this.sink.notice(`Following the project's events failed: ${errorMessage(error)}`);
    }
  }

  /** A container of the project started: one that stopped is read again, one not seen before joins. */
  private onStart(event: EngineEvent): void {
    const existing = this.readers.get(event.Actor.ID);
    if (existing?.active) return;
    const attributes = event.Actor.Attributes ?? {};
    const service = attributes[COMPOSE_LABELS.service] ?? '';
    if (attributes[COMPOSE_LABELS.oneoff] === 'True' || (this.services.size > 0 && !this.services.has(service))) return;
    const member: ComposeMember = existing?.member ?? {
      id: event.Actor.ID,
      name: attributes['name'] ?? event.Actor.ID.slice(0, 12),
      service,
      number: Number.parseInt(attributes[COMPOSE_LABELS.number] ?? '', 10) || undefined,
      state: 'running',
    };
    this.sink.notice(existing ? `${this.label(member)} restarted` : `${member.name} joined the project`);
    this.start(member, false);
  }

  private async tick(): Promise<void> {
    const { signal } = this.options;
    while (!signal.aborted) {
      await timersPromises().setTimeout(Math.max(10, Math.floor(this.reorderMs / 3)), undefined, { signal }).catch(() => undefined);
      this.buffer.flush(Date.now());
    }
  }
}

/** docker compose's colours for the prefixes, in its order. */
export const PREFIX_COLOURS: readonly number[] = [36, 33, 32, 35, 34, 96, 93, 92, 95, 94];

/** Prefixes lines as `docker compose logs` does: the label padded to the widest so far, `|`, the text. */
export class LinePrefixer {
  private width = 0;
  private readonly colours = new Map<string, number>();

  constructor(private readonly colour: boolean) {}

  format(line: MergedLine): string {
    this.width = Math.max(this.width, line.label.length);
    const prefix = `${line.label.padEnd(this.width)} |`;
    if (!this.colour) return `${prefix} ${line.text}`;
    let code = this.colours.get(line.service);
    if (code === undefined) {
      code = PREFIX_COLOURS[this.colours.size % PREFIX_COLOURS.length] ?? 36;
      this.colours.set(line.service, code);
    }
    return `\u001b[${code}m${prefix}\u001b[0m ${line.text}`;
  }
}
