// A private dockerd a test run starts for itself (flags as in CONTRIBUTING.md), under its own temp dir: the integration
// suite stops and restarts it to test the engine-down path, and the UI tests get an engine holding only their own
// containers. It never touches the shared engine from scripts/engines.sh, so other suites are unaffected.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, openSync, closeSync } from 'node:fs';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { join } from 'node:path';
import { EngineClient } from '../../src/engine';
import type { TestEngines } from '../support/engines';
import { sleep } from './deadline';

function dockerdPath(): string {
  for (const candidate of ['/usr/sbin/dockerd', '/usr/bin/dockerd', '/usr/local/bin/dockerd']) {
    if (existsSync(candidate)) return candidate;
  }
  return 'dockerd';
}

function ping(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = request({ socketPath, path: '/_ping', method: 'GET', timeout: 2000 }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(false));
    req.end();
  });
}

export class PrivateEngine {
  private daemon: ChildProcess | undefined;

  private constructor(readonly dir: string) {}

  get socketPath(): string {
    return join(this.dir, 'docker.sock');
  }

  get host(): string {
    return `unix://${this.socketPath}`;
  }

  /** Creates the state dir under /tmp (short: unix socket paths are limited to 108 bytes) and starts dockerd. */
  static async create(prefix = 'berth-engine-'): Promise<PrivateEngine> {
    const engine = new PrivateEngine(await mkdtemp(join('/tmp', prefix)));
    await engine.start();
    return engine;
  }

  async start(): Promise<void> {
    if (this.daemon && this.daemon.exitCode === null) return;
    await mkdir(join(this.dir, 'data'), { recursive: true });
    await mkdir(join(this.dir, 'exec'), { recursive: true });
    // An empty config keeps any system-wide /etc/docker/daemon.json out of this daemon.
    await writeFile(join(this.dir, 'daemon.json'), '{}');
    const logFd = openSync(join(this.dir, 'dockerd.log'), 'a');
    try {
      this.daemon = spawn(
        dockerdPath(),
        [
          '--host', this.host,
          '--config-file', join(this.dir, 'daemon.json'),
          '--data-root', join(this.dir, 'data'),
          '--exec-root', join(this.dir, 'exec'),
          '--pidfile', join(this.dir, 'dockerd.pid'),
          '--bridge=none', '--iptables=false', '--ip6tables=false', '--ip-masq=false',
          '--userland-proxy=false',
          '--shutdown-timeout=2',
        ],
        { detached: true, stdio: ['ignore', logFd, logFd], env: { ...process.env, PATH: `${process.env.PATH ?? ''}:/usr/sbin:/sbin` } },
      );
    } finally {
      closeSync(logFd);
    }
    // Never outlive the process that started it (a killed test run, an extension host that exits).
    const daemon = this.daemon;
    const killOnExit = (): void => {
      if (daemon.exitCode === null) daemon.kill('SIGKILL');
    };
    process.once('exit', killOnExit);
    daemon.once('exit', () => process.removeListener('exit', killOnExit));
    const end = Date.now() + 60_000;
    while (!(await ping(this.socketPath))) {
      if (this.daemon.exitCode !== null || Date.now() > end) {
        const log = await readFile(join(this.dir, 'dockerd.log'), 'utf8').catch(() => '');
        throw new Error(`private dockerd did not start (exit ${this.daemon.exitCode}):\n${log.slice(-2000)}`);
      }
      await sleep(200);
    }
  }

  /** Ends dockerd by its PID (it stops its own containerd) and waits until it is gone. */
  async stop(): Promise<void> {
    const daemon = this.daemon;
    if (!daemon?.pid || daemon.exitCode !== null || daemon.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => daemon.once('exit', () => resolve()));
    daemon.kill('SIGTERM');
    const ended = await Promise.race([exited.then(() => true), sleep(30_000).then(() => false)]);
    if (!ended) {
      daemon.kill('SIGKILL');
      await exited;
    }
  }

  /** Imports the shared test image (the busybox rootfs from scripts/engines.sh) under the same reference. */
  async importTestImage(engines: TestEngines): Promise<void> {
    const tar = await readFile(join(engines.stateDir, 'image', 'busybox-rootfs.tar'));
    const [repo, tag] = splitReference(engines.image);
    const client = EngineClient.fromEnvironment({ host: this.host, env: {} });
    try {
      await client.images.import(tar, { repo, tag, changes: ['CMD ["/bin/sh"]'] });
    } finally {
      await client.close();
    }
  }

  async dispose(): Promise<void> {
    await this.stop();
    await rm(this.dir, { recursive: true, force: true, maxRetries: 3 }).catch(() => undefined);
  }
}

function splitReference(reference: string): [string, string] {
  const slash = reference.lastIndexOf('/');
  const colon = reference.lastIndexOf(':');
  return colon > slash ? [reference.slice(0, colon), reference.slice(colon + 1)] : [reference, 'latest'];
}
