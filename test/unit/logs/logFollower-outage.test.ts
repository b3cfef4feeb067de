// The logs follower's words across an engine outage (issue 31 item 12). A dockerd that is going away still answers
// an inspect or two (its containers already killed: exit 137) and then refuses again; the follower must not say
// "reconnected" on such a lone answer, nor "lost the engine" a second time while it never said it was back.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EngineError, type ContainerInspect, type EngineEvent, type OutputChunk } from '../../../src/engine';
import { followContainerLogs, type LogsClient } from '../../../src/logs/logFollower';

function state(running: boolean, exitCode: number): ContainerInspect {
  return {
    Id: 'c1',
    Name: '/chatty',
    Created: '2024-05-01T09:00:00Z',
    Image: 'img',
    State: { Status: running ? 'running' : 'exited', Running: running, ExitCode: exitCode, StartedAt: '2024-05-01T10:00:00.5Z', FinishedAt: '2024-05-01T10:00:05.5Z' },
    Config: { Tty: false, Cmd: null, Env: null, Labels: null, Image: 'img' },
    HostConfig: {},
  };
}

const lost = (): EngineError => new EngineError('unreachable', 'connect ECONNREFUSED /tmp/docker.sock');

/** Answers inspects and log reads from scripts, in order; an Error in a script is thrown where the engine fails. */
class OutageEngine implements LogsClient {
  readonly system = { events: this.events.bind(this) };
  readonly containers = { inspect: this.inspectContainer.bind(this), logs: this.containerLogs.bind(this) };
  constructor(
    private readonly inspects: Array<ContainerInspect | Error>,
    private readonly logs: Array<string[] | Error>,
  ) {}

  inspectContainer(): Promise<ContainerInspect> {
    const next = this.inspects.shift() ?? new EngineError('not-found', 'No such container: c1', { status: 404 });
    return next instanceof Error ? Promise.reject(next) : Promise.resolve(next);
  }

  // eslint-disable-next-line @typescript-eslint/require-await
  async *containerLogs(): AsyncGenerator<OutputChunk> {
    const script = this.logs.shift() ?? [];
    if (script instanceof Error) throw script;
    for (const line of script) yield { stream: 'stdout', data: Buffer.from(line, 'utf8'), frameEnd: true };
  }

  async *events(): AsyncGenerator<EngineEvent> {
    // No start comes: the wait for one ends, and the next inspect says the container is gone.
  }
}

async function transcript(engine: OutageEngine): Promise<string[]> {
  const shown: string[] = [];
  const sink = { output: (_stream: string, text: string) => shown.push(text), notice: (text: string) => shown.push(`[${text}]`) };
  await followContainerLogs(engine, 'c1', sink, { tail: 10, signal: new AbortController().signal, followRestarts: true });
  return shown.map((text) => text.replace(/\(connect ECONNREFUSED [^)]*\)/, '(…)'));
}

void test('an engine going away: one "lost" line, and "reconnected" only once the engine answers a read again', async () => {
  const engine = new OutageEngine(
    // The first inspect; then, while the engine goes away, one answer (killed: 137) and a refusal of the log read; then
    // the engine is back with the container stopped.
    [state(true, 0), state(false, 137), state(false, 137)],
    [
      ['2024-05-01T10:00:01Z first\n'],
      lost(),
      lost(),
      ['2024-05-01T10:00:01Z first\n', '2024-05-01T10:00:05Z bye\n'],
    ],
  );
  assert.deepEqual(await transcript(engine), [
    'first\n',
    '[lost the engine (…); reconnecting…]',
    '[reconnected; chatty is stopped (exit 137)]',
    'bye\n',
    '[chatty was removed]',
  ]);
});

void test('an outage with nothing more to read still says "reconnected" once the read of the run\'s end succeeds', async () => {
  const engine = new OutageEngine([state(true, 0), state(false, 0)], [['2024-05-01T10:00:01Z first\n'], lost(), ['2024-05-01T10:00:01Z first\n']]);
  assert.deepEqual(await transcript(engine), ['first\n', '[lost the engine (…); reconnecting…]', '[reconnected; chatty is stopped (exit 0)]', '[chatty was removed]']);
});
