/**
 * The child process of bench/stats-cost.ts, bundled by esbuild as the extension is: the extension's StatsWatcher over
 * the given containers ('watch'), told to watch nothing as when the view is hidden ('hidden'), or no watcher at all
 * as with stats turned off ('off'; the client is made all the same), until SIGINT. In 'hidden' it counts the stats
 * requests the client makes (there must be none) into test-output/bench-stats/hidden-requests.txt.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { EngineClient } from '../src/engine';
import { StatsWatcher } from '../src/stats/statsWatcher';

const [host, mode, ...ids] = process.argv.slice(2);
const client = EngineClient.fromEnvironment({ host });
let requests = 0;
const counting = {
  containers: {
    stats: (id: string, options: Parameters<EngineClient['containers']['stats']>[1]) => {
      requests++;
      return client.containers.stats(id, options);
    },
  },
};
let flushes = 0;
const watcher = mode === 'off' ? undefined : new StatsWatcher(() => counting, () => flushes++);
watcher?.watch(mode === 'hidden' ? [] : ids);
// A hidden view leaves nothing to keep a process alive: this bench child waits for SIGINT all the same.
const keepAlive = setInterval(() => undefined, 1 << 30);
process.once('SIGINT', () => {
  clearInterval(keepAlive);
  watcher?.dispose();
  const out = resolve(__dirname, '..', 'test-output', 'bench-stats');
  mkdirSync(out, { recursive: true });
  if (mode === 'hidden') writeFileSync(resolve(out, 'hidden-requests.txt'), String(requests));
  void client.close().then(() => process.exit(0));
});
