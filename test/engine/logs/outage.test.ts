// The logs follower across an engine outage on a dockerd this suite owns and kills. The container is stopped when the
// engine comes back, and is started again at the worst moment: after the follower saw it stopped and before it reads
// the rest of that run. Its new run must come after a "restarted" line, and every line must show exactly once.
import assert from 'node:assert/strict';
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { EngineClient, parseHost } from '../../../src/engine';
import { followContainerLogs, type LogsClient } from '../../../src/logs/logFollower';
import { containerSpec } from '../../support/containerSpec';
import { loadTestEngines } from '../../support/engines';
import { createScratchDockerd, type ScratchDockerd } from '../../support/scratchDockerd';
import { until } from '../../support/wait';

const engines = loadTestEngines();
const IMAGE = 'berth-test/busybox:latest';

let daemon: ScratchDockerd;
let client: EngineClient;

before(async () => {
  daemon = createScratchDockerd('logs-outage');
  await daemon.start();
  client = new EngineClient({ endpoint: parseHost(daemon.host, {}) });
  await client.images.import(createReadStream(join(engines.stateDir, 'image', 'busybox-rootfs.tar')), {
    repo: 'berth-test/busybox',
    tag: 'latest',
    changes: ['CMD ["/bin/sh"]'],
  });
});

after(async () => {
  await client.close().catch(() => undefined);
  await daemon.dispose();
});

async function engineLog(id: string): Promise<string> {
  let text = '';
  for await (const chunk of client.containers.logs(id, { stdout: true, stderr: true })) text += chunk.data.toString('utf8');
  return text;
}

void describe('logs follower: an engine outage that leaves the container stopped', { timeout: 240_000 }, () => {
  void it('a start right after the reconnect comes after a "restarted" line; every run shows once', async () => {
    // Each run prints a line of its own, then waits; a run that ends prints one more.
    const { Id: id } = await client.containers.create(
      containerSpec(IMAGE, ['sh', '-c', 'echo "boot $(cat /proc/sys/kernel/random/uuid)"; trap "echo bye; exit 0" TERM; sleep 600 & wait']),
    );
    await client.containers.start(id);

    // What the user reads, in order: output and Berth's notices on one transcript.
    const transcript: string[] = [];
    const shown = (): string => transcript.join('');
    let startAfterReconnect = false;
    const raced: LogsClient = {
      system: {
        events: (options) => client.system.events(options),
      },
      containers: {
        logs: (containerId, options) => client.containers.logs(containerId, options),
        inspect: async (containerId, options) => {
          const answer = await client.containers.inspect(containerId, options);
          if (startAfterReconnect && !answer.State.Running) {
            startAfterReconnect = false;
            await client.containers.start(containerId);
            await until('the new run printed its line', async () => (await engineLog(id)).split('boot ').length - 1 === 2);
          }
          return answer;
        },
      },
    };
    const following = new AbortController();
    const outcome = followContainerLogs(() => raced, id, { output: (_stream, text) => transcript.push(text), notice: (text) => transcript.push(`[${text}]\n`) }, {
      tail: 'all',
      signal: following.signal,
      followRestarts: true,
    }).then(
      () => 'ended',
      (error: unknown) => error,
    );
    await until('the first run shows', () => shown().includes('boot '));

    startAfterReconnect = true;
    await daemon.kill();
    await until('the follower says the engine was lost', () => shown().includes('[lost the engine'));
    await daemon.start();
    await until('the follower reconnects', () => shown().includes('[reconnected;'));
    await until('the second run shows', () => shown().split('boot ').length - 1 === 2);

    const text = shown();
    following.abort();
    const ended = await outcome;
    assert.ok(ended === 'ended' || (ended instanceof Error && following.signal.aborted), `the follower ended with ${String(ended)}`);
    assert.equal(startAfterReconnect, false, 'the container was started between the reconnect and the follower reading it');
    const [firstRun, secondRun] = text.split('boot ').slice(1);
    assert.match(text, /\[reconnected; \S+ is stopped \(exit \d+\)\]\n/, text);
    // Nothing of the second run before the line that says it restarted.
    assert.match(firstRun ?? '', /\[\S+ restarted\]\n$/, `the second run came without a "restarted" line before it:\n${text}`);
    assert.ok(!(secondRun ?? '').includes('restarted]'), text);
    // Each of the engine's lines exactly once, in its order.
    const lines = (body: string): string[] => body.split('\n').filter((line) => line.startsWith('boot ') || line === 'bye');
    assert.deepEqual(lines(text), lines(await engineLog(id)));
    await client.containers.remove(id, { force: true });
  });
});
