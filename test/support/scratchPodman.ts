// A second `podman system service` of one test's own, on its own socket, to SIGKILL and restart: it shares the
// private Podman's configuration and storage ($BERTH_STATE_DIR/podman, scripts/lib/podman.sh), so it sees the same
// containers and the same events log, while the shared service other suites use keeps running. Ended by PID.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { testStateDir } from './engines';
import { sleep } from './wait';

export interface ScratchPodman {
  readonly host: string;
  start(): Promise<void>;
  kill(): Promise<void>;
  dispose(): Promise<void>;
}

function ping(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = request({ socketPath, path: '/_ping', method: 'GET', timeout: 2_000 }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode === 200));
      res.on('error', () => resolve(false));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(false));
    req.end();
  });
}

export function createScratchPodman(label: string): ScratchPodman {
  const podmanDir = join(testStateDir(), 'podman');
  const dir = mkdtempSync(join(testStateDir(), `scratch-podman-${label}-`));
  const socketPath = join(dir, 'podman.sock');
  let child: ChildProcess | undefined;
  const running = (): ChildProcess | undefined => (child && child.exitCode === null && child.signalCode === null ? child : undefined);
  const kill = async (): Promise<void> => {
    const process = running();
    if (!process?.pid) return;
    const gone = new Promise<void>((resolve) => process.once('exit', () => resolve()));
    process.kill('SIGKILL');
    await gone;
  };
  return {
    host: `unix://${socketPath}`,
    async start() {
      if (running()) throw new Error('the scratch podman service is already running');
      rmSync(socketPath, { force: true });
      const log = openSync(join(dir, 'service.log'), 'a');
      const env = {
        PATH: process.env.PATH ?? '/usr/sbin:/usr/bin:/sbin:/bin',
        CONTAINERS_CONF: join(podmanDir, 'containers.conf'),
        CONTAINERS_STORAGE_CONF: join(podmanDir, 'storage.conf'),
        CONTAINERS_REGISTRIES_CONF: join(podmanDir, 'registries.conf'),
        REGISTRY_AUTH_FILE: join(podmanDir, 'auth.json'),
      };
      child = spawn('podman', ['system', 'service', '--time=0', `unix://${socketPath}`], { stdio: ['ignore', log, log], env });
      closeSync(log);
      const started = child;
      for (let attempt = 0; attempt < 1200; attempt++) {
        if (started.exitCode !== null || started.signalCode !== null) break;
        if (await ping(socketPath)) return;
        await sleep(25);
      }
      throw new Error(`the scratch podman service in ${dir} did not answer _ping within 30 s`);
    },
    kill,
    async dispose() {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
