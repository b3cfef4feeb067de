// Attach Shell's session against an in-process engine on a Unix socket that speaks the Engine API's wire format
// (exec create, the hijacked `POST /exec/{id}/start`, exec and container inspection). It stages what a real engine
// cannot do on demand: a `bash` that is slow to turn out missing while the user types, a container that stops,
// restarts or disappears under the shell. The inspections it answers are shaped as Docker 20.10 and Podman answer.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { EngineClient } from '../../../src/engine';
import { execLaunchState, runShell, type ShellTerminal } from '../../../src/terminals/shellSession';
import { sendError, sendJson, writeEngineHead } from '../../support/fakeEngine';

const CONTAINER = 'c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00';
const BASH_MISSING = 'OCI runtime exec failed: exec failed: unable to start container process: exec: "bash": executable file not found in $PATH: unknown\r\n';
const PROMPT = '/ # ';

/**
 * What each shell does when started: `runs` at once, or stays `starting` (PID 0) until the test decides;
 * `late-start` is not even marked running after the upgrade (Docker writes the 101 before it starts the exec).
 */
type ShellScript = 'runs' | 'slow-missing' | 'late-start';

class FakeExec {
  running = false;
  pid = 0;
  exitCode: number | null = null;
  socket: Socket | undefined;
  received = '';
  inspections = 0;

  constructor(readonly id: string, readonly shell: string) {}

  /** The runtime started the process: it gets a PID and prints its prompt. */
  launch(): void {
    this.pid = 4242;
    this.socket?.write(PROMPT);
  }

  /** The runtime could not find the program: Docker's message in the stream, status 126, no PID. */
  failMissing(): void {
    this.socket?.end(BASH_MISSING);
    this.running = false;
    this.exitCode = 126;
  }

  /** The process ended (the user typed exit, or the container was killed under it). */
  end(exitCode: number): void {
    this.running = false;
    this.exitCode = exitCode;
    this.socket?.end();
  }
}

class ShellEngine {
  readonly execs: FakeExec[] = [];
  scripts: Record<string, ShellScript> = {};
  container: { running: boolean; startedAt: string } | undefined;
  /** Called on each container inspection before answering (to stage an engine that records a stop late). */
  beforeContainerInspect: () => void = () => undefined;
  private readonly waiters: Array<() => void> = [];

  /** Resolves once `condition` holds; checked after every request the engine handles. */
  until<T>(condition: () => T | undefined): Promise<T> {
    return new Promise((resolve) => {
      const check = (): void => {
        const value = condition();
        if (value === undefined) this.waiters.push(check);
        else resolve(value);
      };
      check();
    });
  }

  exec(shell: string): FakeExec | undefined {
    return this.execs.find((exec) => exec.shell === shell);
  }

  changed(): void {
    for (const waiter of this.waiters.splice(0)) waiter();
  }

  handle(request: IncomingMessage, body: string, response: Parameters<typeof sendJson>[0]): void {
    const path = (request.url ?? '').replace(/^\/v\d+\.\d+/, '').split('?')[0] ?? '';
    if (path === '/_ping') {
      writeEngineHead(response, 200, 'text/plain; charset=utf-8');
      response.end('OK');
      return;
    }
    if (path === `/containers/${CONTAINER}/json`) {
      this.beforeContainerInspect();
      if (!this.container) {
        sendError(response, 404, `No such container: ${CONTAINER}`);
        return;
      }
      const { running, startedAt } = this.container;
      sendJson(response, 200, {
        Id: CONTAINER,
        Name: '/shell-box',
        Config: { Tty: false },
        State: { Status: running ? 'running' : 'exited', Running: running, Restarting: false, StartedAt: startedAt, ExitCode: running ? 0 : 137 },
      });
      return;
    }
    if (request.method === 'POST' && path === `/containers/${CONTAINER}/exec`) {
      const shell = (JSON.parse(body) as { Cmd: string[] }).Cmd[0] ?? '';
      const exec = new FakeExec(`exec-${this.execs.length}-${shell}`, shell);
      this.execs.push(exec);
      sendJson(response, 201, { Id: exec.id });
      return;
    }
    const execMatch = /^\/exec\/([^/]+)\/(json|resize)$/.exec(path);
    const exec = this.execs.find((candidate) => candidate.id === execMatch?.[1]);
    if (exec && execMatch?.[2] === 'json') {
      exec.inspections += 1;
      sendJson(response, 200, { ID: exec.id, Running: exec.running, ExitCode: exec.exitCode, Pid: exec.pid, ContainerID: CONTAINER });
      return;
    }
    if (exec && execMatch?.[2] === 'resize') {
      writeEngineHead(response, 201);
      response.end();
      return;
    }
    sendError(response, 404, `page not found: ${request.method ?? ''} ${path}`);
  }

  /** `POST /exec/{id}/start` with `Upgrade: tcp`: 101, then the raw TTY stream both ways. */
  hijack(request: IncomingMessage, socket: Socket): void {
    const id = /\/exec\/([^/]+)\/start/.exec(request.url ?? '')?.[1];
    const exec = this.execs.find((candidate) => candidate.id === id);
    if (!exec) {
      socket.end('HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}');
      return;
    }
    socket.write('HTTP/1.1 101 UPGRADED\r\nContent-Type: application/vnd.docker.raw-stream\r\nConnection: Upgrade\r\nUpgrade: tcp\r\n\r\n');
    exec.socket = socket;
    // Docker marks the exec running before the runtime has started (or failed to start) the process.
    const script = this.scripts[exec.shell] ?? 'runs';
    if (script !== 'late-start') exec.running = true;
    // The request's JSON body (`{"Detach":false,"Tty":true}`) comes first on the hijacked socket; keystrokes follow.
    let bodySkipped = false;
    socket.on('data', (data: Buffer) => {
      const text = data.toString('utf8');
      if (!bodySkipped && text.startsWith('{"Detach"')) {
        bodySkipped = true;
        exec.received += text.slice(text.indexOf('}') + 1);
      } else {
        exec.received += text;
      }
      this.changed();
    });
    socket.on('error', () => undefined);
    if (script === 'runs') exec.launch();
    this.changed();
  }
}

class FakeTerminal implements ShellTerminal {
  readonly opened = Promise.resolve();
  readonly controller = new AbortController();
  readonly dimensions = { rows: 24, columns: 80 };
  output = '';
  private readonly inputListeners = new Set<(data: string) => void>();

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  onInput(listener: (data: string) => void): { dispose(): void } {
    this.inputListeners.add(listener);
    return { dispose: () => this.inputListeners.delete(listener) };
  }

  onDidSetDimensions(): { dispose(): void } {
    return { dispose: () => undefined };
  }

  write(text: string): void {
    this.output += text;
  }

  type(text: string): void {
    for (const listener of this.inputListeners) listener(text);
  }
}

void describe('Attach Shell session', () => {
  const dir = mkdtempSync(join(tmpdir(), 'berth-shell-'));
  const socketPath = join(dir, 'engine.sock');
  let engine: ShellEngine;
  let server: Server;
  let client: EngineClient;
  const logged: string[] = [];

  before(async () => {
    server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      request.on('end', () => {
        engine.handle(request, body, response);
        engine.changed();
      });
    });
    server.on('upgrade', (request: IncomingMessage, socket: Socket, head: Buffer) => {
      if (head.length > 0) socket.unshift(head);
      engine.hijack(request, socket);
    });
    await new Promise<void>((resolve) => server.listen(socketPath, resolve));
    client = EngineClient.fromEnvironment({ host: `unix://${socketPath}`, env: {} });
  });

  beforeEach(() => {
    engine = new ShellEngine();
    engine.container = { running: true, startedAt: '2024-05-01T10:00:00.000000001Z' };
    logged.length = 0;
  });

  after(async () => {
    await client.close();
    // The close callback waits on the bookkeeping of connections the upgrade took over, which never settles: don't wait.
    server.close();
    server.closeAllConnections();
    rmSync(dir, { recursive: true, force: true });
  });

  void it('keys typed while bash is still being tried reach sh, in order, and bash gets none of them', async () => {
    engine.scripts = { bash: 'slow-missing' };
    const terminal = new FakeTerminal();
    const outcome = runShell(client, CONTAINER, terminal, (line) => logged.push(line));
    const bash = await engine.until(() => engine.exec('bash')?.socket && engine.exec('bash'));
    terminal.type('echo $((6*7)) > /tmp/answer');
    terminal.type('\r');
    // A slow engine: the session keeps asking while bash is neither running nor failed, and holds the keys (a
    // session that guessed from silence would have sent them to bash by now).
    await engine.until(() => (bash.inspections >= 8 || bash.received !== '' ? true : undefined));
    assert.equal(bash.received, '', 'nothing typed is sent to a shell that is not known to run');
    bash.failMissing();

    const sh = await engine.until(() => engine.exec('sh'));
    await engine.until(() => (sh.received.includes('\r') ? true : undefined));
    assert.equal(sh.received, 'echo $((6*7)) > /tmp/answer\r');
    assert.equal(bash.received, '');
    terminal.type('exit\r');
    await engine.until(() => (sh.received.endsWith('exit\r') ? true : undefined));
    sh.end(0);

    assert.deepEqual(await outcome, { shell: 'sh', exitCode: 0, containerChange: undefined });
    assert.equal(terminal.output, PROMPT, 'the terminal shows sh, and nothing of the failed bash attempt');
    assert.ok(logged.some((line) => line.includes('executable file not found')), logged.join('\n'));
  });

  void it('a bash that runs gets the keys, and sh is never tried', async () => {
    const terminal = new FakeTerminal();
    const outcome = runShell(client, CONTAINER, terminal, (line) => logged.push(line));
    terminal.type('ls\r');
    const bash = await engine.until(() => (engine.exec('bash')?.received === 'ls\r' ? engine.exec('bash') : undefined));
    bash.end(3);
    assert.deepEqual(await outcome, { shell: 'bash', exitCode: 3, containerChange: undefined });
    assert.equal(engine.exec('sh'), undefined);
  });

  void it('a shell that ends because its container stopped says so (not a failed exit 137)', async () => {
    const terminal = new FakeTerminal();
    const outcome = runShell(client, CONTAINER, terminal, () => undefined);
    const bash = await engine.until(() => (engine.exec('bash')?.pid ? engine.exec('bash') : undefined));
    if (engine.container) engine.container.running = false;
    bash.end(137);
    assert.deepEqual(await outcome, { shell: 'bash', exitCode: 137, containerChange: 'stopped' });
  });

  void it('a container whose stop the engine records after the shell\'s end still counts as stopped', async () => {
    const terminal = new FakeTerminal();
    const outcome = runShell(client, CONTAINER, terminal, () => undefined);
    const bash = await engine.until(() => (engine.exec('bash')?.pid ? engine.exec('bash') : undefined));
    // The exec ends (137) while the container still looks running for two more inspections.
    let looksRunning = 2;
    engine.beforeContainerInspect = () => {
      if (bash.exitCode === null || !engine.container) return;
      if (looksRunning-- <= 0) engine.container.running = false;
    };
    bash.end(137);
    assert.deepEqual(await outcome, { shell: 'bash', exitCode: 137, containerChange: 'stopped' });
  });

  void it('a shell killed on its own (the container keeps running) is not blamed on the container', async () => {
    const terminal = new FakeTerminal();
    const outcome = runShell(client, CONTAINER, terminal, () => undefined);
    const bash = await engine.until(() => (engine.exec('bash')?.pid ? engine.exec('bash') : undefined));
    bash.end(137);
    assert.deepEqual(await outcome, { shell: 'bash', exitCode: 137, containerChange: undefined });
  });

  void it('a container that restarted (new StartedAt) or was removed is told apart', async () => {
    for (const [change, expected] of [
      [() => (engine.container = { running: true, startedAt: '2024-05-01T10:05:00.000000001Z' }), 'restarted'],
      [() => (engine.container = undefined), 'removed'],
    ] as const) {
      engine = new ShellEngine();
      engine.container = { running: true, startedAt: '2024-05-01T10:00:00.000000001Z' };
      const outcome = runShell(client, CONTAINER, new FakeTerminal(), () => undefined);
      const bash = await engine.until(() => (engine.exec('bash')?.pid ? engine.exec('bash') : undefined));
      change();
      bash.end(137);
      assert.equal((await outcome).containerChange, expected);
    }
  });

  void it('closing the terminal while a shell is still being found ends the session without trying another', async () => {
    engine.scripts = { bash: 'slow-missing' };
    const terminal = new FakeTerminal();
    const outcome = runShell(client, CONTAINER, terminal, () => undefined);
    const bash = await engine.until(() => (engine.exec('bash')?.inspections ? engine.exec('bash') : undefined));
    terminal.controller.abort();
    await assert.rejects(outcome);
    assert.equal(bash.received, '');
    assert.equal(engine.exec('sh'), undefined);
  });

  void it('an exec upgraded but not started yet (Docker answers 101 first) is waited for: the keys reach it once it runs', async () => {
    engine.scripts = { bash: 'late-start' };
    const terminal = new FakeTerminal();
    const outcome = runShell(client, CONTAINER, terminal, (line) => logged.push(line));
    const bash = await engine.until(() => engine.exec('bash')?.socket && engine.exec('bash'));
    terminal.type('echo hi\r');
    // Not running, no PID, no status: the session keeps asking. One that took the exec for ended stops asking, and
    // would never hand it the keys; the waits are bounded so that shows as a failure, not a hang.
    const within = <T>(wait: Promise<T>, what: string): Promise<T> =>
      Promise.race([wait, new Promise<T>((_, reject) => setTimeout(() => {
        // Closing the terminal ends the session, so the failure does not leave it waiting on the socket.
        terminal.controller.abort();
        bash.end(0);
        reject(new Error(`timed out: ${what}`));
      }, 5000).unref())]);
    await within(engine.until(() => (bash.inspections >= 4 ? true : undefined)), 'the session asking about the exec again');
    assert.equal(bash.received, '');
    bash.running = true;
    bash.launch();
    await within(engine.until(() => (bash.received.includes('\r') ? true : undefined)), `the keys reaching bash (got ${JSON.stringify(bash.received)})`);
    assert.equal(bash.received, 'echo hi\r');
    assert.equal(engine.exec('sh'), undefined, 'no other shell was tried');
    bash.end(0);
    assert.deepEqual(await outcome, { shell: 'bash', exitCode: 0, containerChange: undefined });
  });
});

void describe('exec launch state from the engine\'s inspection', () => {
  void it('reads Docker 20.10 and Podman 4.3 answers as recorded from the test engines', () => {
    // Docker: Running before the runtime started the process, PID 0; then a PID, or status 126 without one.
    assert.equal(execLaunchState({ Running: true, ExitCode: null, Pid: 0 }), 'starting');
    assert.equal(execLaunchState({ Running: true, ExitCode: null, Pid: 2215 }), 'running');
    assert.equal(execLaunchState({ Running: false, ExitCode: 126, Pid: 0 }), 'missing');
    // Docker keeps the PID after the shell exits: it ran, even with status 126 from its last command.
    assert.equal(execLaunchState({ Running: false, ExitCode: 126, Pid: 2215 }), 'ended');
    assert.equal(execLaunchState({ Running: false, ExitCode: 0, Pid: 2215 }), 'ended');
    // Podman: ExitCode 0 while running; 127 for a program that is not there.
    assert.equal(execLaunchState({ Running: true, ExitCode: 0, Pid: 4832 }), 'running');
    assert.equal(execLaunchState({ Running: false, ExitCode: 127, Pid: 0 }), 'missing');
    // An engine that does not report a PID at all: running is the best it says.
    assert.equal(execLaunchState({ Running: true, ExitCode: null }), 'running');
  });

  void it('an exec not started yet is starting, not ended: Docker answers the upgrade before it starts the exec', () => {
    // Docker, created or just upgraded: not running, no PID, no status. Its end is never read from this alone.
    assert.equal(execLaunchState({ Running: false, ExitCode: null, Pid: 0 }), 'starting');
    assert.equal(execLaunchState({ Running: false, ExitCode: null, Pid: 0 }, true), 'starting');
    // Podman, created: status 0 and no PID, the same as after an end (it clears the PID): the closed stream decides.
    assert.equal(execLaunchState({ Running: false, ExitCode: 0, Pid: 0 }), 'starting');
    assert.equal(execLaunchState({ Running: false, ExitCode: 0, Pid: 0 }, true), 'ended');
    assert.equal(execLaunchState({ Running: false, ExitCode: 3, Pid: 0 }, true), 'ended');
  });
});
