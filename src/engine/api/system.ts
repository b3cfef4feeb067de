/** The Engine API's System endpoints: ping, version, info and the event stream. */
import {
  JsonLineDecoder,
  buildQuery,
  type CallOptions,
  type EngineEvent,
  type EventsOptions,
  type PingInfo,
  type VersionInfo,
  EngineConnection,
  STREAM_HEADERS_TIMEOUT_MS,
} from '../connection';

export class SystemEndpoints extends EngineConnection {
  /**
   * GET /_ping: the engine's highest API version (Api-Version), OS type, Server and Libpod-Api-Version headers.
   * (Negotiation uses HEAD like the Go client; undici cannot keep a connection alive after a HEAD, so ping uses GET.)
   */
  ping(options: CallOptions = {}): Promise<PingInfo> {
    return this.pingFor(options.signal, 'GET');
  }

  async version(options: CallOptions = {}): Promise<VersionInfo> {
    return this.json<VersionInfo>({ method: 'GET', path: '/version', subject: 'engine', signal: options.signal });
  }

  async info(options: CallOptions = {}): Promise<Record<string, unknown>> {
    return this.json<Record<string, unknown>>({ method: 'GET', path: '/info', subject: 'engine', signal: options.signal });
  }

  /** The engine's event stream, one event at a time, until the signal aborts or the engine goes away. */
  async *events(options: EventsOptions = {}): AsyncGenerator<EngineEvent, void, undefined> {
    const query = buildQuery({ since: options.since, until: options.until, filters: options.filters });
    const response = await this.openStream({
      method: 'GET',
      path: `/events${query}`,
      subject: 'engine',
      signal: options.signal,
      headersTimeout: STREAM_HEADERS_TIMEOUT_MS,
      bodyTimeout: 0,
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
