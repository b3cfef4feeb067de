// A dockerd of one test's own, to SIGKILL and restart: the shared one at $BERTH_STATE_DIR/docker.sock serves other
// suites and must never be killed. Same flags as scripts/lib/docker.sh (no bridge, no iptables), its own socket,
// data root, exec root and pidfile under $BERTH_STATE_DIR/scratch-*, ended by PID. Plain Node: nothing from src/.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { testStateDir } from './engines';
import { sleep } from './wait';

const DOCKERD = '/usr/sbin/dockerd';

export interface ScratchDockerd {
  /** unix:// URL of its socket. */
  readonly host: string;
  readonly socketPath: string;
  readonly dir: string;
  /** PID of the running dockerd, undefined while it is down. */
  readonly pid: number | undefined;
  /** Starts dockerd (again) and resolves the performance.now() at which it first answered _ping. */
  start(): Promise<number>;
  /** SIGKILL, no warning; resolves once the process is gone. */
  kill(): Promise<void>;
  /** SIGTERM, then the orphaned containerd by its pidfile, unmounts and removes the directory. */
  dispose(): Promise<void>;
}

function ping(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = request({ socketPath, path: '/_ping', method: 'GET', timeout: 2_000 }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      res.on('end', () => resolve(res.statusCode === 200 && body === 'OK'));
      res.on('error', () => resolve(false));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(false));
    req.end();
  });
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    const state = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0];
    return state !== 'Z';
  } catch {
    return false;
  }
}

/** Last resort: SIGKILL every process whose command line names EXEC_ROOT (shims), and their children. */
function killStragglers(execRoot: string): void {
  const parents = new Map<number, number>();
  const ours: number[] = [];
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      parents.set(pid, Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(`${execRoot}/`)) ours.push(pid);
    } catch {
      // The process ended while we looked.
    }
  }
  const children = [...parents].filter(([, parent]) => ours.includes(parent)).map(([pid]) => pid);
  for (const pid of [...children, ...ours]) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}

/** Creates the directory; nothing runs until `start()`. */
export function createScratchDockerd(label: string): ScratchDockerd {
  const dir = mkdtempSync(join(testStateDir(), `scratch-${label}-`));
  const socketPath = join(dir, 'docker.sock');
  const execRoot = join(dir, 'exec');
  mkdirSync(join(dir, 'data'), { recursive: true });
  mkdirSync(execRoot, { recursive: true });
  writeFileSync(join(dir, 'daemon.json'), '{}');
  let child: ChildProcess | undefined;

  const args = [
    '--host',
    `unix://${socketPath}`,
    '--config-file',
    join(dir, 'daemon.json'),
    '--data-root',
    join(dir, 'data'),
    '--exec-root',
    execRoot,
    '--pidfile',
    join(dir, 'dockerd.pid'),
    '--bridge=none',
    '--iptables=false',
    '--ip6tables=false',
    '--ip-masq=false',
    '--userland-proxy=false',
    '--shutdown-timeout=2',
  ];

  const stopContainerd = async (): Promise<void> => {
    const pidFile = join(execRoot, 'containerd', 'containerd.pid');
    if (!existsSync(pidFile)) return;
    const pid = Number(readFileSync(pidFile, 'utf8').trim());
    // Only ours: its command line names our exec root.
    if (Number.isInteger(pid) && pid > 0 && processAlive(pid) && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(execRoot)) {
      process.kill(pid, 'SIGTERM');
      for (let i = 0; i < 100 && processAlive(pid); i++) await sleep(100);
      if (processAlive(pid)) process.kill(pid, 'SIGKILL');
    }
    // dockerd takes a PID that still exists, even a zombie nobody reaped, for a running containerd and waits on it.
    rmSync(pidFile, { force: true });
  };

  return {
    host: `unix://${socketPath}`,
    socketPath,
    dir,
    get pid() {
      return child && child.exitCode === null && child.signalCode === null ? child.pid : undefined;
    },
    async start() {
      if (child && child.exitCode === null && child.signalCode === null) throw new Error('the scratch dockerd is already running');
      // A killed dockerd leaves its containerd running, and a new dockerd cannot dial it: end it first, as a
      // service manager restarting the engine would (the containers' shims survive and are restored).
      await stopContainerd();
      rmSync(socketPath, { force: true });
      rmSync(join(dir, 'dockerd.pid'), { force: true });
      const log = openSync(join(dir, 'dockerd.log'), 'a');
      const started = spawn(DOCKERD, args, { stdio: ['ignore', log, log], detached: true });
      closeSync(log);
      child = started;
      for (let attempt = 0; attempt < 1200; attempt++) {
        if (started.exitCode !== null || started.signalCode !== null) break;
        if (await ping(socketPath)) return performance.now();
        await sleep(25);
      }
      const tail = readFileSync(join(dir, 'dockerd.log'), 'utf8').split('\n').slice(-20).join('\n');
      throw new Error(`the scratch dockerd in ${dir} did not answer _ping within 30 s:\n${tail}`);
    },
    async kill() {
      const running = child;
      if (!running?.pid) return;
      process.kill(running.pid, 'SIGKILL');
      await exited(running);
    },
    async dispose() {
      // A killed daemon left its containers' shims running: a fresh start lets the graceful stop end them.
      if (this.pid === undefined) await this.start().catch(() => undefined);
      const running = child;
      if (running?.pid !== undefined && running.exitCode === null && running.signalCode === null) {
        process.kill(running.pid, 'SIGTERM');
        const timer = setTimeout(() => running.kill('SIGKILL'), 30_000);
        await exited(running);
        clearTimeout(timer);
      }
      await stopContainerd();
      killStragglers(execRoot);
      // Overlay mounts and the exec root's netns/shm mounts, deepest first, then the directory.
      const mounts = readFileSync('/proc/mounts', 'utf8')
        .split('\n')
        .map((line) => line.split(' ')[1] ?? '')
        .filter((mountPoint) => mountPoint.startsWith(`${dir}/`))
        .sort()
        .reverse();
      for (const mountPoint of mounts) {
        try {
          execFileSync('umount', [mountPoint], { stdio: 'ignore' });
        } catch {
          execFileSync('umount', ['-l', mountPoint], { stdio: 'ignore' });
        }
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
