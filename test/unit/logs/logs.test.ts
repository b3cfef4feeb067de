import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { EngineError, type ContainerInspect, type EngineEvent, type OutputChunk } from '../../../src/engine';
import { LogBuffer } from '../../../src/logs/logBuffer';
import { followContainerLogs, type LogsClient } from '../../../src/logs/logFollower';
import { eventsSince, parseTimestamp } from '../../../src/logs/timestamps';
import { toTerminalText } from '../../../src/terminals/terminalText';

void test('stdout is verbatim, stderr lines carry a prefix, unfinished lines continue', () => {
  const buffer = new LogBuffer(100);
  buffer.append('stdout', 'héllo ');
  buffer.append('stderr', 'warn\n');
  buffer.append('stdout', 'wörld\n');
  buffer.append('stdout', 'tail');
  // The unfinished stdout line is completed in place; the stderr line that came meanwhile follows it.
  assert.equal(buffer.text(), 'héllo wörld\nstderr| warn\ntail');
});

void test('the logs document is capped and says how many lines it dropped', () => {
  const buffer = new LogBuffer(3);
  for (let n = 1; n <= 5; n++) buffer.append('stdout', `line ${n}\n`);
  assert.equal(buffer.dropped, 2);
  assert.equal(buffer.text(), '[Berth] 2 earlier lines dropped (berth.logs.maxLines = 3)\nline 3\nline 4\nline 5\n');
  for (let n = 6; n <= 10_000; n++) buffer.append('stdout', `line ${n}\n`);
  assert.equal(buffer.lineCount, 3);
  assert.ok(buffer.text().endsWith('line 9998\nline 9999\nline 10000\n'));
});

/** The buffer's rules written the slow way (every line joined on every read): what the kept joined text must equal. */
class JoinEverythingBuffer {
  private readonly lines: string[] = [];
  private readonly open = new Map<string, number>();
  private dropped = 0;

  constructor(private readonly maxLines: number) {}

  append(stream: 'stdout' | 'stderr', text: string): void {
    if (text === '') return;
    const at = this.open.get(stream);
    if (at !== undefined) this.lines[at] += text;
    else this.lines.push(stream === 'stderr' ? `stderr| ${text}` : text);
    if (text.endsWith('\n')) this.open.delete(stream);
    else this.open.set(stream, at ?? this.lines.length - 1);
    this.cap();
  }

  appendNotice(text: string): void {
    const last = this.lines[this.lines.length - 1];
    this.lines.push(`${last !== undefined && !last.endsWith('\n') ? '\n' : ''}[Berth] ${text}\n`);
    this.open.clear();
    this.cap();
  }

  text(): string {
    const body = this.lines.join('');
    return this.dropped === 0 ? body : `[Berth] ${this.dropped} earlier lines dropped (berth.logs.maxLines = ${this.maxLines})\n${body}`;
  }

  private cap(): void {
    while (this.lines.length > this.maxLines) {
      this.lines.shift();
      this.dropped++;
      for (const [stream, index] of this.open) {
        if (index === 0) this.open.delete(stream);
        else this.open.set(stream, index - 1);
      }
    }
  }
}

void test('the joined text kept between reads equals joining every line again, whatever the order of output, reads and drops', () => {
  const chunk = fc.string({ unit: fc.constantFrom('a', 'é', ' ', '\n'), maxLength: 6 });
  const step = fc.oneof(
    fc.record({ kind: fc.constant('out' as const), stream: fc.constantFrom('stdout' as const, 'stderr' as const), text: chunk }),
    fc.record({ kind: fc.constant('notice' as const), text: fc.constantFrom('exited', 'restarted') }),
    fc.record({ kind: fc.constant('read' as const) }),
  );
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 6 }), fc.array(step, { maxLength: 80 }), (maxLines, steps) => {
      const buffer = new LogBuffer(maxLines);
      const reference = new JoinEverythingBuffer(maxLines);
      for (const each of steps) {
        if (each.kind === 'out') {
          buffer.append(each.stream, each.text);
          reference.append(each.stream, each.text);
        } else if (each.kind === 'notice') {
          buffer.appendNotice(each.text);
          reference.appendNotice(each.text);
        } else assert.equal(buffer.text(), reference.text());
      }
      assert.equal(buffer.text(), reference.text());
    }),
    { numRuns: 2000 },
  );
});

void test('past the 4,096-line compaction, the kept text still matches', () => {
  const buffer = new LogBuffer(1000);
  const reference = new JoinEverythingBuffer(1000);
  for (let n = 0; n < 12_000; n++) {
    const text = n % 7 === 0 ? `part ${n} ` : `line ${n}\n`;
    buffer.append(n % 3 === 0 ? 'stderr' : 'stdout', text);
    reference.append(n % 3 === 0 ? 'stderr' : 'stdout', text);
    if (n % 997 === 0) assert.equal(buffer.text(), reference.text());
  }
  assert.equal(buffer.text(), reference.text());
});

void test('timestamps parse to nanoseconds and back to an events since value', () => {
  const stamp = parseTimestamp('2024-05-01T10:00:00.123456789Z hello');
  assert.ok(stamp);
  assert.equal(stamp.nanos, 1_714_557_600_123_456_789n);
  assert.equal(stamp.length, '2024-05-01T10:00:00.123456789Z '.length);
  assert.equal(parseTimestamp('2024-05-01T10:00:00Z x')?.nanos, 1_714_557_600_000_000_000n);
  assert.equal(parseTimestamp('no timestamp'), undefined);
  assert.equal(eventsSince(stamp.nanos), '1714557600.123456789');
  assert.equal(toTerminalText('a\nb\r\nc'), 'a\r\nb\r\nc');
});

/** Scripted answers for the three calls a follower makes, in order. */
class ScriptedLogs implements LogsClient {
  readonly system = { events: this.events.bind(this) };
  readonly containers = { inspect: this.inspectContainer.bind(this), logs: this.containerLogs.bind(this) };
  readonly logCalls: Array<{ follow?: boolean; since?: number; until?: number; tail?: number | 'all' }> = [];
  constructor(
    private readonly inspects: Array<ContainerInspect | Error>,
    private readonly logs: string[][],
    private readonly eventScripts: EngineEvent[][],
    /** What the follower's reads of a container's starts and ends get (none: the follower goes on from inspects). */
    private readonly runEventScripts: EngineEvent[][] = [],
  ) {}

  inspectContainer(): Promise<ContainerInspect> {
    const next = this.inspects.shift();
    if (!next) return Promise.reject(new Error('unexpected inspect'));
    return next instanceof Error ? Promise.reject(next) : Promise.resolve(next);
  }

  // eslint-disable-next-line @typescript-eslint/require-await
  async *containerLogs(_id: string, options: { follow?: boolean; since?: number; until?: number; tail?: number | 'all' } = {}): AsyncGenerator<OutputChunk> {
    this.logCalls.push({ follow: options.follow, since: options.since, tail: options.tail, ...(options.until === undefined ? {} : { until: options.until }) });
    for (const line of this.logs.shift() ?? []) {
      const stream = line.startsWith('E ') ? 'stderr' : 'stdout';
      yield { stream, data: Buffer.from(line.replace(/^E /, ''), 'utf8') };
    }
  }

  readonly eventSinces: Array<string | undefined> = [];

  // eslint-disable-next-line @typescript-eslint/require-await
  async *events(options: { since?: string; filters?: { event?: string[] } } = {}): AsyncGenerator<EngineEvent> {
    // The waits for a start ask for starts and removals only; the reads of what happened since ask for everything.
    if (options.filters?.event === undefined) {
      yield* this.runEventScripts.shift() ?? [];
      return;
    }
    this.eventSinces.push(options.since);
    yield* this.eventScripts.shift() ?? [];
  }
}

/** Follows the scripted container (tail 10); resolves what the sink got, `stream: text` and `notice: text`. */
async function followScripted(client: ScriptedLogs, followRestarts: boolean): Promise<string[]> {
  const shown: string[] = [];
  const sink = { output: (stream: string, text: string) => shown.push(`${stream}: ${text}`), notice: (text: string) => shown.push(`notice: ${text}`) };
  await followContainerLogs(client, 'c1', sink, { tail: 10, signal: new AbortController().signal, followRestarts });
  return shown;
}

function inspect(running: boolean, exitCode = 0, startedAt = '2024-05-01T10:00:00.5Z'): ContainerInspect {
  return {
    Id: 'c1',
    Name: '/job',
    Created: '2024-05-01T09:00:00Z',
    Image: 'img',
    State: { Status: running ? 'running' : 'exited', Running: running, ExitCode: exitCode, StartedAt: startedAt, FinishedAt: '2024-05-01T10:00:05.5Z' },
    Config: { Tty: false, Cmd: null, Env: null, Labels: null, Image: 'img' },
    HostConfig: {},
  };
}

void test('a followed log survives a restart: one exit line, resumes after the last line shown, ends when removed', async () => {
  const client = new ScriptedLogs(
    [inspect(true), inspect(false, 3), inspect(true, 0, '2024-05-01T10:00:08Z'), new EngineError('not-found', 'No such container: c1', { status: 404 })],
    [
      ['2024-05-01T10:00:01.000000001Z first\n', '2024-05-01T10:00:02.000000002Z second\n'],
      // The resume asks from the whole second of the last line, so the engine replays "second".
      ['2024-05-01T10:00:02.000000002Z second\n', '2024-05-01T10:00:02.5Z thïrd\n', 'E 2024-05-01T10:00:03Z oops\n'],
      // Stopped: the rest of the run up to FinishedAt, from the second of the last line shown (replayed, dropped).
      ['E 2024-05-01T10:00:03Z oops\n'],
      ['2024-05-01T10:00:09Z after restart\n'],
    ],
    [[{ Type: 'container', Action: 'start', Actor: { ID: 'c1' }, time: 1_714_557_608, timeNano: 1_714_557_608_000_000_000 }]],
  );
  const shown = await followScripted(client, true);
  assert.deepEqual(shown, [
    'stdout: first\n',
    'stdout: second\n',
    'stdout: thïrd\n',
    'stderr: oops\n',
    'notice: job exited with status 3; waiting for it to start again…',
    'notice: job restarted',
    'stdout: after restart\n',
    'notice: job was removed',
  ]);
  assert.deepEqual(client.logCalls, [
    { follow: undefined, since: undefined, tail: 10 },
    { follow: true, since: 1_714_557_602, tail: undefined },
    { follow: undefined, since: 1_714_557_603, tail: undefined, until: 1_714_557_605.500001 },
    { follow: true, since: 1_714_557_603, tail: undefined },
  ]);
});

void test('runs that came and went between two inspects (a restart policy): each run\'s lines, its exit line, then "restarted", in the events\' order', async () => {
  const at = (seconds: string, Action: string, exitCode?: string): EngineEvent => ({
    Type: 'container',
    Action,
    Actor: { ID: 'c1', Attributes: exitCode === undefined ? {} : { exitCode } },
    time: 1_714_557_600,
    timeNano: Number(`17145576${seconds.replace('.', '')}`),
    exactTimeNano: `17145576${seconds.replace('.', '')}`,
  });
  const client = new ScriptedLogs(
    [inspect(true), inspect(true, 0, '2024-05-01T10:00:04Z'), new EngineError('not-found', 'No such container: c1', { status: 404 })],
    [
      ['2024-05-01T10:00:00.6Z run 1\n'],
      ['2024-05-01T10:00:00.6Z run 1\n', '2024-05-01T10:00:01.1Z bye 1\n'],
      // Up to the first run's die: nothing new.
      ['2024-05-01T10:00:01.1Z bye 1\n'],
      // Up to the second run's die: all of it, although it ended before the follower looked.
      ['2024-05-01T10:00:01.1Z bye 1\n', '2024-05-01T10:00:02.1Z run 2\n', 'E 2024-05-01T10:00:02.7Z bye 2\n'],
      ['2024-05-01T10:00:02.1Z run 2\n', 'E 2024-05-01T10:00:02.7Z bye 2\n', '2024-05-01T10:00:04.1Z run 3\n'],
    ],
    [],
    [[at('00.501000000', 'start'), at('01.200000000', 'die', '1'), at('02.000000000', 'start'), at('02.800000000', 'die', '1'), at('04.001000000', 'start')]],
  );
  const shown = await followScripted(client, true);
  assert.deepEqual(shown, [
    'stdout: run 1\n',
    'stdout: bye 1\n',
    'notice: job exited with status 1; waiting for it to start again…',
    'notice: job restarted',
    'stdout: run 2\n',
    'stderr: bye 2\n',
    'notice: job exited with status 1; waiting for it to start again…',
    'notice: job restarted',
    'stdout: run 3\n',
    'notice: job was removed',
  ]);
  assert.deepEqual(client.logCalls.slice(2, 4).map((call) => call.until), [1_714_557_601.200001, 1_714_557_602.800001]);
});

void test('a container shown before its first start: no "stopped", its output, then one exit line (a replayed start is no restart)', async () => {
  const never = { ...inspect(false), State: { ...inspect(false).State, Status: 'created' as const, StartedAt: '0001-01-01T00:00:00Z', FinishedAt: '0001-01-01T00:00:00Z' } };
  const ran = inspect(false, 0, '2024-05-01T10:00:06Z');
  const start = { Type: 'container', Action: 'start', Actor: { ID: 'c1' }, time: 1_714_557_606, timeNano: 1_714_557_606_000_000_000 };
  const client = new ScriptedLogs(
    // After the start event the container has exited already; the replayed start of that run changes nothing.
    [never, ran, ran, ran, new EngineError('not-found', 'No such container: c1', { status: 404 })],
    [[], ['2024-05-01T10:00:06.1Z instant-out\n'], ['2024-05-01T10:00:06.1Z instant-out\n']],
    [[start], [start], [{ ...start, Action: 'destroy' }]],
  );
  const shown = await followScripted(client, true);
  assert.deepEqual(shown, [
    'notice: job has not started yet; waiting for it to start…',
    'stdout: instant-out\n',
    'notice: job exited with status 0; waiting for it to start again…',
    'notice: job was removed',
  ]);
  assert.equal(client.eventSinces[0], '1714554000.000000000', 'events from the creation on');
  assert.equal(client.eventSinces[2], '1714557606.000001000', 'the next wait starts after the start already acted on');
});

void test('second-precision stamps (Podman): a new line in the same second as the last one shown is not taken for a replay', async () => {
  const client = new ScriptedLogs(
    [inspect(true)],
    [
      ['2024-05-01T10:00:01Z a\n', '2024-05-01T10:00:02Z b\n', 'E 2024-05-01T10:00:02Z c\n'],
      // The follow from that second replays b and c, then brings d, written in the same second, and e.
      ['2024-05-01T10:00:02Z b\n', 'E 2024-05-01T10:00:02Z c\n', '2024-05-01T10:00:02Z d\n', '2024-05-01T10:00:03Z e\n'],
    ],
    [],
  );
  const shown = await followScripted(client, false);
  assert.deepEqual(shown, ['stdout: a\n', 'stdout: b\n', 'stderr: c\n', 'stdout: d\n', 'stdout: e\n']);
  assert.deepEqual(client.logCalls.at(-1), { follow: true, since: 1_714_557_602, tail: undefined });
});

void test('a follow that ends with part of a line of the next run (Podman across a restart): that part waits, and the new run comes whole after "restarted"', async () => {
  const restarted = inspect(true, 0, '2024-05-01T10:00:03.2Z');
  const client = new ScriptedLogs(
    [inspect(true), restarted, new EngineError('not-found', 'No such container: c1', { status: 404 })],
    [
      ['2024-05-01T10:00:02Z run 1\n', '2024-05-01T10:00:02Z ready\n'],
      // The follow replays that second, then sends the next run's first part of a line without the line before it.
      ['2024-05-01T10:00:02Z run 1\n', '2024-05-01T10:00:02Z ready\n', '2024-05-01T10:00:03Z xxxx'],
      // The rest of the first run, up to just before the new one started: nothing new.
      ['2024-05-01T10:00:02Z run 1\n', '2024-05-01T10:00:02Z ready\n'],
      ['2024-05-01T10:00:02Z run 1\n', '2024-05-01T10:00:02Z ready\n', '2024-05-01T10:00:03Z run 2\n', '2024-05-01T10:00:03Z xxxxyyy\n'],
    ],
    [],
  );
  const shown = await followScripted(client, true);
  assert.deepEqual(shown, ['stdout: run 1\n', 'stdout: ready\n', 'notice: job restarted', 'stdout: run 2\n', 'stdout: xxxxyyy\n', 'notice: job was removed']);
  assert.deepEqual(client.logCalls[2], { follow: undefined, since: 1_714_557_602, tail: undefined, until: 1_714_557_603.199999 });
});

void test('a restart seen while following (Docker): the old run is read up to its FinishedAt, so the new run\'s first line, stamped before its StartedAt, comes after "restarted"', async () => {
  const restarted = inspect(true, 0, '2024-05-01T10:00:08.0015Z');
  restarted.State.FinishedAt = '2024-05-01T10:00:07.9Z';
  const client = new ScriptedLogs(
    [inspect(true), restarted, new EngineError('not-found', 'No such container: c1', { status: 404 })],
    [
      ['2024-05-01T10:00:02.1Z serving\n'],
      ['2024-05-01T10:00:02.1Z serving\n', '2024-05-01T10:00:07.8Z bye\n'],
      // Up to the old run's end: nothing new (an engine asked up to the new StartedAt would have sent the new line).
      ['2024-05-01T10:00:07.8Z bye\n'],
      ['2024-05-01T10:00:07.8Z bye\n', '2024-05-01T10:00:08.0001Z serving\n'],
    ],
    [],
  );
  const shown = await followScripted(client, true);
  assert.deepEqual(shown, ['stdout: serving\n', 'stdout: bye\n', 'notice: job restarted', 'stdout: serving\n', 'notice: job was removed']);
  assert.deepEqual(client.logCalls[2], { follow: undefined, since: 1_714_557_607, tail: undefined, until: 1_714_557_607.900001 });
});

void test('a follow that ends with an unfinished line of a container then removed: the line is shown as it came', async () => {
  const client = new ScriptedLogs(
    [inspect(true), new EngineError('not-found', 'No such container: c1', { status: 404 })],
    [['2024-05-01T10:00:02Z one\n'], ['2024-05-01T10:00:02Z one\n', '2024-05-01T10:00:03Z last words']],
    [],
  );
  const shown = await followScripted(client, true);
  assert.deepEqual(shown, ['stdout: one\n', 'stdout: last words', 'notice: job was removed']);
});

void test('Podman: a stopped run is read 20 ms past its FinishedAt (an exit file\'s coarse ctime), so a last line stamped after it is shown', async () => {
  const client = Object.assign(
    new ScriptedLogs(
      [inspect(true), inspect(false, 0), inspect(false, 0)],
      [
        ['2024-05-01T10:00:01Z a\n'],
        // The follow ends before its last line has waited out Podman's deferral: that line is read again.
        ['2024-05-01T10:00:01Z a\n', '2024-05-01T10:00:05Z last\n'],
        ['2024-05-01T10:00:01Z a\n', '2024-05-01T10:00:05Z last\n'],
      ],
      [[{ Type: 'container', Action: 'destroy', Actor: { ID: 'c1' }, time: 1_714_557_609, timeNano: 1_714_557_609_000_000_000 }]],
    ),
    { pingInfo: { apiVersion: '1.41', osType: 'linux', server: 'Libpod/4.3.1', libpodApiVersion: '4.3.1' } },
  );
  const shown = await followScripted(client, true);
  assert.deepEqual(shown, ['stdout: a\n', 'stdout: last\n', 'notice: job exited with status 0; waiting for it to start again…', 'notice: job was removed']);
  assert.deepEqual(client.logCalls[2], { follow: undefined, since: 1_714_557_601, tail: undefined, until: 1_714_557_605.520001 });
});
