// The event history (src/model/eventHistory.ts) across an engine restart and a dropped connection, on a dockerd and
// a Podman service of this file's own (the shared ones keep running for other suites). Every event the engine reports
// for the window must be in the history exactly once, each line byte for byte what `docker events --since --until`
// prints for the same window; the events made while the follower was away arrive only through the `since` resume.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { dockerEventLine, EngineClient, engineTimeOf, parseHost, type EngineEvent } from '../../../src/engine';
import { EventFollower, EventHistory, type EventSource } from '../../../src/model/eventHistory';
import { containerSpec } from '../../support/containerSpec';
import { temporaryDockerConfig } from '../../support/dockerHome';
import { engineTargets, loadTestEngines, type TestEngineTarget } from '../../support/engines';
import { createScratchDockerd } from '../../support/scratchDockerd';
import { createScratchPodman } from '../../support/scratchPodman';
import { until } from '../../support/wait';

const execFileAsync = promisify(execFile);
const engines = loadTestEngines();
const dockerConfig = temporaryDockerConfig('berth-events-docker-config');

interface RestartableEngine {
  readonly host: string;
  readonly image: string;
  start(): Promise<unknown>;
  kill(): Promise<void>;
  dispose(): Promise<void>;
}

async function restartableEngine(target: TestEngineTarget): Promise<RestartableEngine> {
  if (target.name === 'podman') {
    const podman = createScratchPodman('events');
    await podman.start();
    return { ...podman, image: engines.image };
  }
  const daemon = createScratchDockerd('events');
  await daemon.start();
  const importer = new EngineClient({ endpoint: parseHost(daemon.host, {}) });
  await importer.images.import(createReadStream(join(engines.stateDir, 'image', 'busybox-rootfs.tar')), { repo: 'berth-test/busybox', tag: 'latest', changes: ['CMD ["/bin/sh"]'] });
  await importer.close();
  return { host: daemon.host, image: 'berth-test/busybox:latest', start: () => daemon.start(), kill: () => daemon.kill(), dispose: () => daemon.dispose() };
}

function nowEngineTime(aheadMs = 0): string {
  return engineTimeOf(BigInt(Date.now() + aheadMs) * 1_000_000n);
}

/**
 * The end of a compared window: a moment just ahead, which `docker events` waits for. Podman 4.3 answers nothing at
 * all for an `until` already past, so a window that ended before the call would compare against nothing there.
 */
const WINDOW_END_AHEAD_MS = 1_500;

/** What the docker CLI prints for the window, one line per event. */
async function dockerEvents(host: string, since: string, until: string): Promise<string[]> {
  const { stdout } = await execFileAsync('docker', ['events', '--since', since, '--until', until], {
    env: { PATH: process.env.PATH, DOCKER_HOST: host, DOCKER_CONFIG: dockerConfig, TZ: process.env.TZ },
  });
  return stdout.split('\n').filter((line) => line !== '');
}

/**
 * The client's events, with a gate a test closes to keep the follower away (its next connection waits) and a cut
 * that breaks the open stream as a dropped connection would.
 */
class GatedSource implements EventSource {
  private gate: Promise<void> = Promise.resolve();
  private release: () => void = () => undefined;
  private cutter = new AbortController();

  constructor(private readonly client: EngineClient) {}

  close(): void {
    this.gate = new Promise((resolve) => (this.release = resolve));
  }

  open(): void {
    this.release();
  }

  cut(): void {
    this.cutter.abort();
  }

  async *events(options: Parameters<EventSource['events']>[0]): AsyncGenerator<EngineEvent> {
    await this.gate;
    this.cutter = new AbortController();
    const signal = AbortSignal.any([this.cutter.signal, ...(options.signal ? [options.signal] : [])]);
    yield* this.client.system.events({ ...options, signal });
  }
}

for (const target of engineTargets(engines)) {
  void describe(`event history on ${target.name}`, { skip: target.skip, timeout: 300_000 }, () => {
    let engine: RestartableEngine;
    let client: EngineClient;

    before(async () => {
      engine = await restartableEngine(target);
      client = new EngineClient({ endpoint: parseHost(engine.host, {}) });
    });

    after(async () => {
      await client?.close().catch(() => undefined);
      await engine?.dispose();
    });

    /** create, start, exit, remove: a handful of events; resolves the container's id. */
    async function lifecycle(): Promise<string> {
      const { Id } = await client.containers.create(containerSpec(engine.image, ['true']));
      const { result } = await client.containers.wait(Id, { condition: 'next-exit' });
      await client.containers.start(Id);
      await result;
      await client.containers.remove(Id, { force: true });
      return Id;
    }

    function follow(history: EventHistory, source: EventSource, since: string): { follower: EventFollower; stop: () => void } {
      const follower = new EventFollower(source, history, { firstSince: () => since, backoff: { initialMs: 20, maxMs: 200 } });
      const controller = new AbortController();
      void follower.run(controller.signal);
      return { follower, stop: () => controller.abort() };
    }

    const seen = (history: EventHistory, id: string, action: string): boolean =>
      history.entries().some((entry) => entry.event.Actor?.ID === id && entry.event.Action === action);

    /** The history's lines within [SINCE, UNTIL], checked to hold no line twice. */
    function historyLines(history: EventHistory, since: string, until: string): string[] {
      const toNanos = (time: string): bigint => BigInt(time.replace('.', ''));
      const lines = history
        .entries()
        .filter((entry) => entry.nanos >= toNanos(since) && entry.nanos <= toNanos(until))
        .map((entry) => dockerEventLine(entry.event));
      assert.equal(new Set(lines).size, lines.length, `a line is doubled:\n${lines.join('\n')}`);
      return lines;
    }

    void it('keeps every event once across an engine restart, as docker events shows the window', async () => {
      const since = nowEngineTime();
      const history = new EventHistory(10_000);
      const source = new GatedSource(client);
      const { follower, stop } = follow(history, source, since);
      await until('the follower is live', () => follower.state.kind === 'live');
      const before = await lifecycle();
      await until('the events before the restart arrive', () => seen(history, before, 'destroy') || seen(history, before, 'remove'));
      const beforeRestart = await dockerEvents(engine.host, since, nowEngineTime(WINDOW_END_AHEAD_MS));

      source.close();
      await engine.kill();
      await until('the follower says the connection dropped', () => follower.state.kind === 'disconnected');
      await engine.start();
      const whileAway = await lifecycle();
      source.open();
      await until('the events made while away arrive through since=', () => seen(history, whileAway, 'start'));
      const afterReconnect = await lifecycle();
      await until('live events follow', () => seen(history, afterReconnect, 'start'));
      await until('the last one is in', () => seen(history, afterReconnect, 'destroy') || seen(history, afterReconnect, 'remove'));
      const until_ = nowEngineTime(WINDOW_END_AHEAD_MS);
      const afterRestart = await dockerEvents(engine.host, since, until_);
      stop();

      assert.ok(follower.reconnects >= 1, 'the follower reconnected');
      const expected = [...new Set([...beforeRestart, ...afterRestart])].sort();
      assert.ok(expected.some((line) => line.includes(` start ${whileAway}`)), 'docker saw the event made while the follower was away');
      assert.deepEqual(historyLines(history, since, until_).sort(), expected);
    });

    void it('drops what a resumed stream replays after a dropped connection', async () => {
      const since = nowEngineTime();
      const history = new EventHistory(10_000);
      const source = new GatedSource(client);
      const { follower, stop } = follow(history, source, since);
      await until('the follower is live', () => follower.state.kind === 'live');
      const first = await lifecycle();
      await until('the first events arrive', () => seen(history, first, 'destroy') || seen(history, first, 'remove'));
      const duplicatesBefore = history.duplicates;

      source.close();
      source.cut();
      await until('the follower says the connection dropped', () => follower.state.kind === 'disconnected');
      const whileAway = await lifecycle();
      source.open();
      await until('the events made while away arrive', () => seen(history, whileAway, 'destroy') || seen(history, whileAway, 'remove'));
      const until_ = nowEngineTime(WINDOW_END_AHEAD_MS);
      const dockerLines = await dockerEvents(engine.host, since, until_);
      stop();

      // The resume starts before the newest event seen, so the engine sent that one again: it was dropped, not shown.
      assert.ok(history.duplicates > duplicatesBefore, 'the replayed boundary events were recognised');
      assert.deepEqual(historyLines(history, since, until_).sort(), dockerLines.sort());
    });
  });
}
