/** The Engine API's System endpoints (`client.system`): ping, version, info, the event stream, disk usage and prune. */
import {
  JsonLineDecoder,
  buildQuery,
  type CallOptions,
  type EngineEvent,
  type EventsOptions,
  type PingInfo,
  type VersionInfo,
  type EngineConnection,
  retryWhileBusy,
} from '../connection';
import type { DiskUsage, FilterOptions, PruneReport } from './storageTypes';

/** dockerd's refusal of a second disk usage request while one runs. */
const DF_RUNNING = /disk usage operation is already running/i;
const DF_ATTEMPTS = 8;

/** Which prune endpoint lists its removed objects under which key. */
const PRUNED_KEYS = {
  containers: 'ContainersDeleted',
  images: 'ImagesDeleted',
  volumes: 'VolumesDeleted',
  networks: 'NetworksDeleted',
  build: 'CachesDeleted',
} as const;
export type PruneTarget = keyof typeof PRUNED_KEYS;

export class SystemEndpoints {
  constructor(private readonly connection: EngineConnection) {}

  /**
   * GET /_ping: the engine's highest API version (Api-Version), OS type, Server and Libpod-Api-Version headers.
   * (Negotiation uses HEAD like the Go client; undici cannot keep a connection alive after a HEAD, so ping uses GET.)
   */
  ping(options: CallOptions = {}): Promise<PingInfo> {
    return this.connection.pingFor(options.signal, 'GET');
  }

  async version(options: CallOptions = {}): Promise<VersionInfo> {
    return this.connection.json<VersionInfo>({ method: 'GET', path: '/version', subject: 'engine', signal: options.signal });
  }

  async info(options: CallOptions = {}): Promise<Record<string, unknown>> {
    return this.connection.json<Record<string, unknown>>({ method: 'GET', path: '/info', subject: 'engine', signal: options.signal });
  }

  /** The engine's event stream, one event at a time, until the signal aborts or the engine goes away. */
  async *events(options: EventsOptions = {}): AsyncGenerator<EngineEvent, void, undefined> {
    const query = buildQuery({ since: options.since, until: options.until, filters: options.filters });
    const response = await this.connection.openStream({
      method: 'GET',
      path: `/events${query}`,
      subject: 'engine',
      signal: options.signal,
    });
    options.onOpen?.();
    const pending: EngineEvent[] = [];
    const decoder = new JsonLineDecoder<EngineEvent>((event, text) => pending.push(withExactTime(event, text)));
    try {
      for await (const chunk of response.body) {
        decoder.push(chunk);
        for (let i = 0; i < pending.length; i++) yield pending[i] as EngineEvent;
        pending.length = 0;
      }
      decoder.end();
      yield* pending;
    } finally {
      response.cancel();
    }
  }

  /**
   * `GET /system/df`: costly on a busy engine, so only ever called on demand. dockerd runs one at a time and refuses
   * another while it runs (a Volumes view refresh and a prune's plan can ask at once): such a refusal is tried again.
   */
  df(options: CallOptions = {}): Promise<DiskUsage> {
    const call = () => this.connection.endpointJson<DiskUsage>({ method: 'GET', path: '/system/df', subject: 'engine', signal: options.signal, long: true });
    return retryWhileBusy(call, DF_RUNNING, { attempts: DF_ATTEMPTS, stepMs: 100, signal: options.signal });
  }

  /** One prune call; `filters` as the engine reads them (`label`, `label!`, `until`, `dangling`). */
  async prune(target: PruneTarget, options: FilterOptions = {}): Promise<PruneReport> {
    const query = buildQuery({ filters: options.filters });
    const path = target === 'build' ? `/build/prune${query}` : `/${target}/prune${query}`;
    const answer = await this.connection.endpointJson<Record<string, unknown>>({ method: 'POST', path, subject: 'engine', signal: options.signal, long: true });
    return { removed: removedNames(answer[PRUNED_KEYS[target]]), spaceReclaimed: Number(answer['SpaceReclaimed'] ?? 0) || 0 };
  }
}

/** Prune answers list objects as names (volumes, networks), ids (containers, caches) or `{Untagged|Deleted}` (images). */
function removedNames(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item: unknown): string[] => {
    if (typeof item === 'string') return [item];
    if (typeof item === 'object' && item !== null) {
      const entry = item as { Deleted?: unknown; Untagged?: unknown };
      const name = entry.Deleted ?? entry.Untagged;
      return typeof name === 'string' ? [name] : [];
    }
    return [];
  });
}

/**
 * Attribute values are JSON strings, so the only `"timeNano":` followed by digits is the event's own: its digits are
 * kept as text, since the number loses the last few nanoseconds that ordering and resuming (`since=`) depend on.
 */
const TIME_NANO_DIGITS = /"timeNano"\s*:\s*(\d{1,20})\s*[,}]/;

function withExactTime(event: EngineEvent, text: string): EngineEvent {
  if (typeof event !== 'object' || event === null || typeof event.timeNano !== 'number') return event;
  const digits = TIME_NANO_DIGITS.exec(text)?.[1];
  return digits === undefined ? event : { ...event, exactTimeNano: digits };
}
