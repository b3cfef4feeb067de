// The logs follower (what Show Logs and Open Logs in Editor show) against the real dockerd and Podman: every line
// arrives exactly as the engine's logs endpoint returns it without timestamps, byte for byte, although the follower
// reads with timestamps and the engines store long lines as partial messages (dockerd every 16 KiB, Podman every
// 8 KiB, a TTY wherever a pty read ended). Then a container shown before its start, and a restart in the middle.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LINE_CUT_MARKER, MAX_LINE_BYTES, utf8Boundary } from '../../../src/engine/connection';
import { followContainerLogs, type LogSink } from '../../../src/logs/logFollower';
import { useEngineSuite } from '../../support/engineSuite';
import { engineTargets, loadTestEngines, uniqueName } from '../../support/engines';
import { sleep, until } from '../../support/wait';

const engines = loadTestEngines();

/** Line lengths around the engines' split points, without the newline. */
const LONG_LINES = [16_383, 16_384, 16_385, 40_000, 1_048_576];

/** Prints a line of `length` bytes: `length - 2` x's and a two-byte é, so a split may fall inside a character. */
function longLine(length: number): string {
  return `head -c ${length - 2} /dev/zero | tr '\\0' x; printf '\\303\\251\\n'`;
}

/** Long lines on stdout with short stderr lines between them, then a line without a newline at the end. */
const INTERLEAVED = [
  'echo start',
  ...LONG_LINES.flatMap((length, index) => [longLine(length), `echo "err ${index} ✓" >&2`]),
  'echo END',
  "printf 'no newline'",
].join('; ');

/** What the follower shows of the engine's bytes: each line longer than MAX_LINE_BYTES cut there, with the marker. */
function cutLongLines(bytes: Buffer): Buffer {
  const parts: Buffer[] = [];
  for (let start = 0; start < bytes.length; ) {
    const newline = bytes.indexOf(0x0a, start);
    const end = newline === -1 ? bytes.length : newline + 1;
    if (end - start <= MAX_LINE_BYTES) parts.push(bytes.subarray(start, end));
    else parts.push(bytes.subarray(start, utf8Boundary(bytes, start + MAX_LINE_BYTES)), Buffer.from(`${LINE_CUT_MARKER}${newline === -1 ? '' : '\n'}`));
    start = end;
  }
  return Buffer.concat(parts);
}

class Collected implements LogSink {
  readonly streams = { stdout: [] as string[], stderr: [] as string[] };
  readonly notices: string[] = [];
  readonly order: string[] = [];
  /** Output and notices in the order they came: `notice: text` or the text itself. */
  readonly sequence: string[] = [];

  output(stream: 'stdout' | 'stderr', text: string): void {
    this.streams[stream].push(text);
    this.order.push(stream);
    this.sequence.push(text);
  }

  notice(text: string): void {
    this.notices.push(text);
    this.sequence.push(`notice: ${text}`);
  }

  bytes(stream: 'stdout' | 'stderr'): Buffer {
    return Buffer.from(this.streams[stream].join(''), 'utf8');
  }
}

for (const target of engineTargets(engines)) {
  void describe(`logs follower on ${target.name}`, { timeout: 300_000 }, () => {
    const suite = useEngineSuite({ host: target.host, skip: target.skip, name: `logs-follow-${target.name}` });
    const { client } = suite;

    async function create(script: string, tty: boolean): Promise<{ id: string; name: string }> {
      const name = uniqueName('logs-follow');
      return { id: await suite.createContainer(['sh', '-c', script], { Tty: tty }, name), name };
    }

    async function runToEnd(script: string, tty: boolean): Promise<string> {
      const { id } = await create(script, tty);
      const { result } = await client.containers.wait(id, { condition: 'next-exit' });
      await client.containers.start(id);
      assert.equal((await result).StatusCode, 0);
      return id;
    }

    /** What the engine's logs endpoint returns for one stream without timestamps. */
    async function engineLogs(id: string, stream: 'stdout' | 'stderr'): Promise<Buffer> {
      const parts: Buffer[] = [];
      for await (const chunk of client.containers.logs(id, { stdout: stream === 'stdout', stderr: stream === 'stderr' })) parts.push(Buffer.from(chunk.data));
      return Buffer.concat(parts);
    }

    function assertSameBytes(actual: Buffer, expected: Buffer, what: string): void {
      if (actual.equals(expected)) return;
      let at = 0;
      while (at < Math.min(actual.length, expected.length) && actual[at] === expected[at]) at++;
      assert.fail(`${what}: ${actual.length} bytes shown, the engine has ${expected.length}; first difference at byte ${at}: ` +
        `${JSON.stringify(actual.subarray(at, at + 60).toString('latin1'))} vs ${JSON.stringify(expected.subarray(at, at + 60).toString('latin1'))}`);
    }

    for (const tty of [false, true]) {
      void it(`lines of ${LONG_LINES.join(', ')} bytes and stderr between them arrive whole, past 64 KiB cut with the marker (${tty ? 'TTY' : 'no TTY'})`, { skip: target.skip }, async () => {
        const id = await runToEnd(INTERLEAVED, tty);
        const shown = new Collected();
        await followContainerLogs(client, id, shown, { tail: 'all', signal: new AbortController().signal, followRestarts: false });
        assertSameBytes(shown.bytes('stdout'), cutLongLines(await engineLogs(id, 'stdout')), 'stdout');
        assertSameBytes(shown.bytes('stderr'), await engineLogs(id, 'stderr'), 'stderr');
        const stdout = shown.streams.stdout.join('');
        // No engine stamp inside the text, every long line in one piece, the one past the bound cut.
        assert.doesNotMatch(stdout, /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/);
        // Where the engine split a line inside the é, it stored each half as U+FFFD (`docker logs` shows the same).
        const long = stdout.split(/\r?\n/).filter((line) => line.startsWith('xxx')).map((line) => line.replace(/\uFFFD+$/, 'é'));
        const cutLength = MAX_LINE_BYTES + Buffer.byteLength(LINE_CUT_MARKER);
        assert.deepEqual(long.map((line) => Buffer.byteLength(line)), LONG_LINES.map((length) => (length > MAX_LINE_BYTES ? cutLength : length)), 'each long line is shown whole, or cut');
        assert.ok(long.at(-1)?.endsWith(LINE_CUT_MARKER), 'the 1 MiB line ends with the marker');
        if (tty) assert.equal(shown.streams.stderr.length, 0, 'a TTY has one stream');
        else assert.deepEqual(shown.streams.stderr, LONG_LINES.map((_, index) => `err ${index} ✓\n`));
        assert.deepEqual(shown.notices, []);
      });
    }

    void it('a container shown before its start that exits at once: its output once, then one line saying it exited', { skip: target.skip }, async () => {
      const { id, name } = await create('echo instant-out', false);
      const shown = new Collected();
      const following = new AbortController();
      const follower = followContainerLogs(client, id, shown, { tail: 1000, signal: following.signal, followRestarts: true });
      await until('the waiting notice', () => shown.notices.length > 0);
      assert.deepEqual(shown.notices, [`${name} has not started yet; waiting for it to start…`]);
      await client.containers.start(id);
      await until('the exit notice', () => shown.notices.length > 1);
      // Let a storm show itself if there is one: the event stream replays the start.
      await (await client.containers.wait(id, { condition: 'not-running' })).result;
      await sleep(1500);
      following.abort();
      await follower.catch(() => undefined);
      assert.deepEqual(shown.streams.stdout, ['instant-out\n']);
      assert.deepEqual(shown.notices, [`${name} has not started yet; waiting for it to start…`, `${name} exited with status 0; waiting for it to start again…`]);
    });

    for (const tty of [false, true]) {
      void it(`a restart in the middle: no line lost or repeated (${tty ? 'TTY' : 'no TTY'})`, { skip: target.skip }, async () => {
        // Each run prints long lines and short ones (both streams), then waits to be stopped.
        const script = `echo "run $(date +%s%N)"; ${longLine(40_000)}; echo mid >&2; ${longLine(16_385)}; i=0; while [ $i -lt 20 ]; do echo "tick $i"; i=$((i+1)); done; echo ready; sleep 600`;
        const { id, name } = await create(script, tty);
        await client.containers.start(id);
        const shown = new Collected();
        const following = new AbortController();
        const follower = followContainerLogs(client, id, shown, { tail: 1000, signal: following.signal, followRestarts: true });
        const readyCount = (): number => shown.streams.stdout.join('').split('ready').length - 1;
        await until('the first run', () => readyCount() === 1);
        await client.containers.restart(id, { timeoutSeconds: 0 });
        await until('the second run', () => readyCount() === 2);
        await client.containers.stop(id, { timeoutSeconds: 0 });
        await until('the exit notice', () => shown.notices.some((text) => text.startsWith(`${name} exited with status`)));
        following.abort();
        await follower.catch(() => undefined);
        assertSameBytes(shown.bytes('stdout'), cutLongLines(await engineLogs(id, 'stdout')), 'stdout');
        assertSameBytes(shown.bytes('stderr'), await engineLogs(id, 'stderr'), 'stderr');
        assert.equal(shown.notices.filter((text) => text === `${name} restarted`).length, 1, shown.notices.join('\n'));
      });
    }

    void it('restarts in a row of a container that prints at once: each new run\'s first line comes after its "restarted" line', { skip: target.skip }, async () => {
      // Docker stamps a run's first line up to a few ms before the StartedAt it reports, which once let that line in
      // ahead of the notice (the end of the old run was read up to the new StartedAt).
      const { id, name } = await create('echo serving; sleep 600', false);
      await client.containers.start(id);
      const shown = new Collected();
      const following = new AbortController();
      const follower = followContainerLogs(client, id, shown, { tail: 1000, signal: following.signal, followRestarts: true });
      const serving = (): number => shown.sequence.filter((text) => text === 'serving\n').length;
      await until('the first run', () => serving() === 1);
      const restarts = 8;
      for (let run = 2; run <= restarts + 1; run++) {
        await client.containers.restart(id, { timeoutSeconds: 0 });
        await until(`run ${run}`, () => serving() === run);
      }
      following.abort();
      await follower.catch(() => undefined);
      const trace = shown.sequence.join('');
      assert.equal(shown.sequence[0], 'serving\n', trace);
      shown.sequence.forEach((text, at) => {
        if (at > 0 && text === 'serving\n') assert.equal(shown.sequence[at - 1], `notice: ${name} restarted`, `entry ${at}:\n${shown.sequence.join('\n')}`);
      });
      assert.equal(shown.notices.filter((text) => text === `${name} restarted`).length, restarts, shown.notices.join('\n'));
    });
  });
}
