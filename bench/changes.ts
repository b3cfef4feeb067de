/**
 * `npm run bench:changes`: a container's changes (docker diff) with 5,000 changed paths, on the private dockerd (or
 * BERTH_BENCH_HOST with BERTH_BENCH_IMAGE), interleaved in one run. Writes bench/changes-results.{json,md}.
 * - Berth's client reading the whole list (what the Changes row does), and `berth diff` spawned, against
 *   `docker diff` spawned. Goal <= 1.0x.
 * - The first rows: how long until the first batch is decoded, against the whole read, and how many batches the
 *   answer came in (more than one: rows are shown before all are read).
 */
import { join, resolve } from 'node:path';
import { execFileAsync, fillDirectory, ratioTable, recordCase, runBench, withBenchContainer, writeResults, type Row } from './containerBench';
import { measureInterleaved, type Contender } from './measure';
import { elapsedMs, summarize, type Summary } from './stats';

const ROUNDS = 5;
const PATHS = 5000;

async function main(): Promise<void> {
  await withBenchContainer('changes', async ({ host, client, id, scratch, env }) => {
    await execFileAsync(process.execPath, [resolve(__dirname, '..', 'esbuild.js'), `--cli-outdir=${scratch}`]);
    const cli = join(scratch, 'cli.js');
    const rows: Row[] = [];
    // With the folder itself, PATHS changed paths.
    await fillDirectory(client, id, '/data', PATHS - 1, 1);
    let listed = 0;
    const firstBatchMs: number[] = [];
    const wholeMs: number[] = [];
    const batches: number[] = [];
    const readAll = async (): Promise<void> => {
      const start = process.hrtime.bigint();
      let count = 0;
      let batchCount = 0;
      for await (const batch of client.containers.changes(id)) {
        if (batchCount === 0) firstBatchMs.push(elapsedMs(start));
        batchCount++;
        count += batch.length;
      }
      wholeMs.push(elapsedMs(start));
      batches.push(batchCount);
      listed = count;
    };
    const contenders: Contender[] = [
      { name: 'Berth, client (the Changes row)', run: readAll, samples: 10, warmup: 1 },
      { name: 'berth diff (spawned)', run: () => execFileAsync(process.execPath, [cli, '--host', host, 'diff', id], { env, maxBuffer: 64 << 20 }), samples: 10, warmup: 1 },
      { name: 'docker diff (spawned)', run: () => execFileAsync('docker', ['-H', host, 'diff', id], { env, maxBuffer: 64 << 20 }), samples: 10, warmup: 1 },
    ];
    const results = await measureInterleaved(contenders, ROUNDS);
    recordCase(rows, `${listed} changed paths`, results);
    report(rows, summarize(firstBatchMs), summarize(wholeMs), batches);
  });
}

function report(rows: readonly Row[], first: Summary, whole: Summary, batches: readonly number[]): void {
  const lines = ratioTable(rows, 'docker diff');
  const fewest = Math.min(...batches);
  lines.push('', `First batch decoded after ${first.median.toFixed(1)} ms (median), the whole list after ${whole.median.toFixed(1)} ms; the answer came in ${fewest}–${Math.max(...batches)} batches.`);
  writeResults('changes', 'Container changes: Berth against docker diff', `${lines.join('\n')}\n`, { rows, firstBatch: first, whole, batches });
}

runBench(main);
