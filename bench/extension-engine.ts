/**
 * The engine the extension benchmarks use: a scratch dockerd of their own (test/support/scratchDockerd.ts), so the
 * thousands of containers they create never show up in the views, screenshots or listings of the test suites that
 * run beside them on the shared private dockerd, and "0 containers" really means none. The test image is imported
 * from the same busybox rootfs tarball scripts/engines.sh imports.
 */
import { createReadStream, existsSync } from 'node:fs';
import { join } from 'node:path';
import { EngineClient } from '../src/engine';
import { loadTestEngines } from '../test/support/engines';
import { createScratchDockerd, type ScratchDockerd } from '../test/support/scratchDockerd';

export const BENCH_IMAGE = 'berth-bench/busybox:latest';

export interface BenchEngine {
  readonly host: string;
  readonly socketPath: string;
  readonly image: string;
  /** An admin client, for creating and removing what the benchmarks need. */
  readonly client: EngineClient;
  dispose(): Promise<void>;
}

export async function startBenchEngine(): Promise<BenchEngine> {
  const engines = loadTestEngines();
  const rootfs = join(engines.stateDir, 'image', 'busybox-rootfs.tar');
  if (!existsSync(rootfs)) throw new Error(`${rootfs} is missing: run bash scripts/engines.sh start`);
  const daemon: ScratchDockerd = createScratchDockerd('bench');
  try {
    await daemon.start();
    const client = EngineClient.fromEnvironment({ host: daemon.host, env: {} });
    const [repo, tag] = BENCH_IMAGE.split(':') as [string, string];
    await client.images.import(createReadStream(rootfs), { repo, tag, changes: ['CMD ["/bin/sh"]'] });
    return {
      host: daemon.host,
      socketPath: daemon.socketPath,
      image: BENCH_IMAGE,
      client,
      dispose: async () => {
        await client.close();
        await daemon.dispose();
      },
    };
  } catch (error) {
    await daemon.dispose();
    throw error;
  }
}
