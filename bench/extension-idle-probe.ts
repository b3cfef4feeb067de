/**
 * Counts the timers an extension bundle schedules and fires, to show that nothing runs while nothing changes.
 * Used inside the real extension host by test/integration/suite/idle.test.ts and by the extension benchmark.
 * No `vscode` here: the caller names the bundle file (the path its stack frames carry).
 *
 * Two views, because one alone misses cases:
 * - the global setTimeout/setInterval/setImmediate are wrapped while the probe runs: a call whose stack has a
 *   frame in the bundle counts as scheduled, and its callback as fired when it runs;
 * - an async hook sees every Timeout and Immediate callback that runs, including ones armed before the probe
 *   started (an interval set at activation) or through a reference captured at load time; a callback whose source
 *   text occurs in the bundle counts as fired.
 */
import { createHook, executionAsyncResource } from 'node:async_hooks';
import { channel } from 'node:diagnostics_channel';
import { readFileSync } from 'node:fs';
import { request as httpRequest, type ClientRequest } from 'node:http';
import { performance } from 'node:perf_hooks';

export interface TimerActivity {
  /** Timers the bundle scheduled while the probe ran. */
  readonly scheduled: number;
  /** Timer callbacks of the bundle that ran while the probe ran (both views, each callback counted once). */
  readonly fired: number;
  /** HTTP requests the bundle made through its undici while the probe ran. */
  readonly requests: number;
  /**
   * When (ms after start) and where each one came from: the first bundle frame of the scheduling stack, or the
   * callback's first line.
   */
  readonly sources: readonly string[];
}

type TimerFunction = (callback: (...args: unknown[]) => void, ...rest: unknown[]) => unknown;
type TimerName = 'setTimeout' | 'setInterval' | 'setImmediate';
const TIMER_NAMES: readonly TimerName[] = ['setTimeout', 'setInterval', 'setImmediate'];
/** Shorter callbacks (`() => x()`) could occur in any code; longer source text is specific to the bundle. */
const MIN_CALLBACK_SOURCE = 24;

/** The callback a Timeout or Immediate resource will run, if the resource is one. */
function timerCallback(resource: object | undefined): unknown {
  if (!resource) return undefined;
  const name = resource.constructor?.name;
  if (name === 'Timeout') return (resource as { _onTimeout?: unknown })._onTimeout;
  if (name === 'Immediate') return (resource as { _onImmediate?: unknown })._onImmediate;
  return undefined;
}

/** The current stack's frames inside BUNDLEPATH, innermost first (async callers included). */
function bundleFramesOf(bundlePath: string): string[] {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 60;
  const stack = new Error().stack ?? '';
  Error.stackTraceLimit = limit;
  return stack
    .split('\n')
    .filter((line) => line.includes(bundlePath))
    .map((line) => line.trim().replace(/^at /, '').replace(bundlePath, 'bundle'));
}

export class TimerProbe {
  private readonly bundleSource: string;
  private readonly fromBundle = new WeakMap<object, boolean>();
  /** Callbacks our wrappers handed to the real timer functions: the hook must not count them a second time. */
  private readonly wrappers = new WeakSet<object>();
  private readonly originals = new Map<TimerName, TimerFunction>();
  private readonly hook = createHook({ before: () => this.onCallbackStart() });
  /**
   * undici (the bundle's copy too) announces each request on this channel; a request while idle is no timer by
   * itself, but the timers it brings say only "undici", so its line names the request and what made it.
   */
  private readonly requests = channel('undici:request:create');
  private readonly onRequest = (message: unknown): void => this.noteRequest(message);
  private scheduled = 0;
  private fired = 0;
  private requestCount = 0;
  private readonly sources: string[] = [];
  private running = false;
  private startedAt = 0;

  constructor(private readonly bundlePath: string) {
    this.bundleSource = readFileSync(bundlePath, 'utf8');
  }

  start(): void {
    if (this.running) throw new Error('the timer probe is already running');
    this.running = true;
    this.scheduled = 0;
    this.fired = 0;
    this.requestCount = 0;
    this.sources.length = 0;
    this.startedAt = performance.now();
    const globals = globalThis as unknown as Record<TimerName, TimerFunction>;
    for (const name of TIMER_NAMES) {
      const original = globals[name];
      this.originals.set(name, original);
      globals[name] = this.wrap(name, original);
    }
    this.hook.enable();
    this.requests.subscribe(this.onRequest);
  }

  /** Restores the globals and returns what was seen since start(). Safe to call when not running. */
  stop(): TimerActivity {
    if (this.running) {
      this.hook.disable();
      this.requests.unsubscribe(this.onRequest);
      const globals = globalThis as unknown as Record<TimerName, TimerFunction>;
      for (const [name, original] of this.originals) globals[name] = original;
      this.originals.clear();
      this.running = false;
    }
    return { scheduled: this.scheduled, fired: this.fired, requests: this.requestCount, sources: [...this.sources] };
  }

  private wrap(name: TimerName, original: TimerFunction): TimerFunction {
    const countFired = (): void => {
      this.fired++;
    };
    const wrapped = (callback: (...args: unknown[]) => void, ...rest: unknown[]): unknown => {
      const frame = this.bundleFrame();
      if (frame === undefined || typeof callback !== 'function') return original(callback, ...rest);
      this.scheduled++;
      this.note(`${name} from ${frame}`);
      // A function expression, so the callback still gets the `this` the timer gives it.
      const counted = function (this: unknown, ...args: unknown[]): void {
        countFired();
        callback.apply(this, args);
      };
      this.wrappers.add(counted);
      return original(counted, ...rest);
    };
    // util.promisify(setTimeout) and friends keep working while the probe runs.
    Object.assign(wrapped, original);
    return wrapped;
  }

  /** The first stack frame inside the bundle, or undefined when the caller is not the bundle. */
  private bundleFrame(): string | undefined {
    return this.bundleFrames()[0];
  }

  /** The stack frames inside the bundle, innermost first (async callers included). */
  private bundleFrames(): string[] {
    return bundleFramesOf(this.bundlePath);
  }

  /** A request made through the bundle's undici (other extensions' and Node's own fetch are not the bundle). */
  private noteRequest(message: unknown): void {
    const frames = this.bundleFrames();
    if (frames.length === 0) return;
    const request = (message as { request?: { method?: string; path?: string } }).request;
    this.requestCount++;
    this.note(`request ${request?.method ?? '?'} ${request?.path ?? '?'} from ${frames.slice(1, 9).join(' < ')}`);
  }

  private onCallbackStart(): void {
    const callback = timerCallback(executionAsyncResource());
    if (typeof callback !== 'function' || this.wrappers.has(callback)) return;
    if (!this.isBundleFunction(callback)) return;
    this.fired++;
    this.note(`fired: ${Function.prototype.toString.call(callback).split('\n')[0]?.slice(0, 120) ?? ''}`);
  }

  /** One line per timer, with the time since start(). */
  private note(what: string): void {
    this.sources.push(`+${(performance.now() - this.startedAt).toFixed(0)} ms ${what}`);
  }

  private isBundleFunction(callback: object): boolean {
    const known = this.fromBundle.get(callback);
    if (known !== undefined) return known;
    const source = Function.prototype.toString.call(callback);
    const ours = source.length >= MIN_CALLBACK_SOURCE && !source.includes('[native code]') && this.bundleSource.includes(source);
    this.fromBundle.set(callback, ours);
    return ours;
  }
}

/**
 * Counts the engine's events on a connection of its own (plain node:http, nothing shared with the extension's
 * client), so a quiet window is known to be one where nothing changed.
 */
export class EngineEventCounter {
  private count = 0;
  private lastAt = 0;

  private constructor(private readonly request: ClientRequest) {}

  static open(socketPath: string): Promise<EngineEventCounter> {
    return new Promise((resolve, reject) => {
      const request = httpRequest({ socketPath, path: '/events', method: 'GET' });
      const counter = new EngineEventCounter(request);
      request.on('response', (response) => {
        if (response.statusCode !== 200) {
          reject(new Error(`GET /events answered HTTP ${response.statusCode ?? '?'}`));
          response.resume();
          return;
        }
        response.setEncoding('utf8');
        response.on('data', (text: string) => {
          const events = text.split('\n').filter((line) => line.trim() !== '').length;
          counter.count += events;
          if (events > 0) counter.lastAt = performance.now();
        });
        response.on('error', () => undefined);
        resolve(counter);
      });
      // Before the response: the promise fails; after close(): the destroyed request's error is expected.
      request.on('error', reject);
      request.end();
    });
  }

  get events(): number {
    return this.count;
  }

  /** performance.now() of the last event, 0 when none came. */
  get lastEventAt(): number {
    return this.lastAt;
  }

  close(): void {
    this.request.destroy();
  }
}

/**
 * The bundle's undici requests from the probe's start on, with when each was made and ended. A request is activity
 * as an engine event is: what it leaves behind (undici's keep-alive timer) must run out before a window counts. One
 * made while nothing had happened for the quiet time is unprovoked: idle work, reported whenever it comes.
 */
class RequestLedger {
  private readonly open = new Map<object, { readonly what: string; readonly at: number }>();
  private readonly ended: Array<{ readonly what: string; readonly at: number; readonly endedAt: number }> = [];
  private lastAt = 0;
  readonly unprovoked: string[] = [];
  private readonly channels = {
    create: channel('undici:request:create'),
    trailers: channel('undici:request:trailers'),
    error: channel('undici:request:error'),
  };
  private readonly onCreate = (message: unknown): void => {
    const frames = bundleFramesOf(this.bundlePath);
    const request = (message as { request?: { method?: string; origin?: string; path?: string } }).request;
    if (!request || frames.length === 0) return;
    const what = `${request.method ?? '?'} ${request.origin ?? ''}${request.path ?? '?'}`;
    const now = performance.now();
    if (this.quietFor(now) >= this.quietBeforeMs) this.unprovoked.push(`${what} from ${frames.slice(1, 9).join(' < ')}`);
    this.open.set(request, { what, at: now });
    this.lastAt = now;
  };
  private readonly onEnd = (message: unknown): void => {
    const request = (message as { request?: { method?: string; origin?: string; path?: string } }).request;
    if (!request) return;
    const entry = this.open.get(request);
    if (entry) {
      this.open.delete(request);
      this.lastAt = performance.now();
      this.ended.push({ ...entry, endedAt: this.lastAt });
      return;
    }
    // Made before the probe started (a long request: a wait, a followed stream, a slow listing), so its caller is
    // unknown; its end still leaves undici's keep-alive timer, and is activity as any other end is. The bundle's
    // undici ends it inside the bundle; Node's own fetch (other code in the host) does not.
    if (bundleFramesOf(this.bundlePath).length === 0) return;
    this.lastAt = performance.now();
    this.ended.push({ what: `${request.method ?? '?'} ${request.origin ?? ''}${request.path ?? '?'}`, at: Number.NEGATIVE_INFINITY, endedAt: this.lastAt });
  };

  constructor(
    private readonly bundlePath: string,
    private readonly quietBeforeMs: number,
    /** How long (ms) before NOW the last engine event or request came. */
    private readonly quietFor: (now: number) => number,
  ) {
    this.channels.create.subscribe(this.onCreate);
    this.channels.trailers.subscribe(this.onEnd);
    this.channels.error.subscribe(this.onEnd);
  }

  /** performance.now() of the last request made or ended, 0 when none. */
  get lastActivityAt(): number {
    return this.lastAt;
  }

  /** Requests made before FROM that ended in [FROM, TO], and those still open at TO, one line each. */
  describe(from: number, to: number): string[] {
    const age = (at: number): string => (at === Number.NEGATIVE_INFINITY ? 'made before the probe started' : `made ${((from - at) / 1000).toFixed(1)} s before the window`);
    return [
      ...this.ended.filter((entry) => entry.at < from && entry.endedAt >= from && entry.endedAt <= to).map((entry) => `+${(entry.endedAt - from).toFixed(0)} ms ended: ${entry.what} (${age(entry.at)})`),
      ...[...this.open.values()].filter((entry) => entry.at < from).map((entry) => `still open: ${entry.what} (${age(entry.at)})`),
    ];
  }

  close(): void {
    this.channels.create.unsubscribe(this.onCreate);
    this.channels.trailers.unsubscribe(this.onEnd);
    this.channels.error.unsubscribe(this.onEnd);
  }
}

export interface IdleOptions {
  /** The extension's bundle, e.g. `<extensionPath>/dist/extension.js`. */
  readonly bundlePath: string;
  /** Socket of the engine the extension follows. */
  readonly socketPath: string;
  /** The measured window. */
  readonly windowMs: number;
  /**
   * A window counts only after this long without an engine event (or since the probe started): what an event
   * causes has settled, including the engine client's idle keep-alive connections expiring.
   */
  readonly quietBeforeMs: number;
  /** Give up looking for a window without engine events after this long (a shared engine may stay busy). */
  readonly deadlineMs: number;
}

export interface IdleResult {
  /** A window passed with no engine event in it or just before it, and no request of the bundle ending in it. */
  readonly quiet: boolean;
  /** What the bundle scheduled and fired in that window (in the last window tried when none was quiet). */
  readonly activity: TimerActivity;
  readonly windows: number;
  /** Engine events seen from the start until the measured window ended. */
  readonly engineEvents: number;
  /** From the start until the measured window began. */
  readonly waitedMs: number;
  /** Requests the bundle made after the quiet time had passed with nothing happening (idle work), with their callers. */
  readonly unprovokedRequests: readonly string[];
}

/**
 * Waits for the engine and the bundle's requests to be quiet, then counts the bundle's timers over one window.
 * A request the bundle makes is activity as an engine event is, but one it makes after the quiet time with nothing
 * happening is reported as unprovoked, whenever it comes.
 */
export async function measureIdle(options: IdleOptions): Promise<IdleResult> {
  // Taken before the probe wraps the globals: the waits below are the probe's own and never pass its wrapper.
  const setTimer = globalThis.setTimeout;
  const wait = (ms: number): Promise<void> => new Promise((resolve) => setTimer(resolve, ms));
  const probe = new TimerProbe(options.bundlePath);
  const counter = await EngineEventCounter.open(options.socketPath);
  const started = performance.now();
  // The probe's start counts as activity too: the extension may have just made requests of its own.
  const lastActivity = (): number => Math.max(started, counter.lastEventAt, ledger.lastActivityAt);
  const ledger = new RequestLedger(options.bundlePath, options.quietBeforeMs, (now) => now - lastActivity());
  let windows = 0;
  let activity: TimerActivity = { scheduled: 0, fired: 0, requests: 0, sources: [] };
  const result = (quiet: boolean, waitedMs: number): IdleResult => ({ quiet, activity, windows, engineEvents: counter.events, waitedMs, unprovokedRequests: [...ledger.unprovoked] });
  try {
    while (performance.now() - started < options.deadlineMs) {
      const sinceActivity = performance.now() - lastActivity();
      if (sinceActivity < options.quietBeforeMs) {
        await wait(Math.min(1000, options.quietBeforeMs - sinceActivity + 1));
        continue;
      }
      const windowStart = performance.now();
      const eventsBefore = counter.events;
      probe.start();
      try {
        await wait(options.windowMs);
      } finally {
        activity = probe.stop();
      }
      const requestsEnded = ledger.describe(windowStart, performance.now());
      if (activity.scheduled + activity.fired + activity.requests > 0) activity = { ...activity, sources: [...activity.sources, ...requestsEnded] };
      windows++;
      // A request made before the window and ended in it (its keep-alive timer shows) is activity, as an event is.
      const endedInWindow = requestsEnded.some((line) => line.startsWith('+'));
      if (counter.events === eventsBefore && !endedInWindow) return result(true, windowStart - started);
    }
    return result(false, performance.now() - started);
  } finally {
    probe.stop();
    ledger.close();
    counter.close();
  }
}
