/**
 * `npm run bench:files`: Berth's container file system against the docker CLI, in one run on the private dockerd
 * (or BERTH_BENCH_HOST with BERTH_BENCH_IMAGE), calls interleaved. Writes bench/files-results.{json,md}.
 * - Listing a directory of 5,000 files: Berth's listing against `docker exec ID ls -la DIR` spawned once per listing
 *   (Microsoft's path). Goal <= 0.5x. The provider lists through a helper it keeps in the container while folders
 *   are opened (src/engine/listingSession.ts): measured kept (each folder after the first) and started (the first),
 *   beside the one-shot exec `find` and the archive's headers.
 * - Listing `/` while /usr holds 30 MB and then 300 MB more: the exec listing stays flat; the archive's does not
 *   (the engine still sends the bodies it walks), which is why the provider uses exec where it can.
 * - Opening a 10 MB file: Berth's read out of the tar against `docker cp` to a temporary file and reading it.
 *   Goal <= 1.0x, and the memory the read holds at its peak under 3x the file.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { EngineClient } from '../src/engine';
import { ListingSession } from '../src/engine/listingSession';
import { ListingSessions } from '../src/files/listingSessions';
import { execCapture, listByArchive, listByExec, readContainerFile } from '../src/engine/containerFiles';
import { containerSpec } from '../test/support/containerSpec';
import { loadTestEngines } from '../test/support/engines';
import { measureInterleaved, type Contender } from './measure';
import { summarize, type Summary } from './stats';

const execFileAsync = promisify(execFile);
const ROUNDS = 5;
const FILE_MB = 10;

interface Row {
  readonly case: string;
  readonly contender: string;
  readonly summary: Summary;
}

async function main(): Promise<void> {
  const host = process.env.BERTH_BENCH_HOST ?? loadTestEngines().dockerHost;
  const image = process.env.BERTH_BENCH_IMAGE ?? loadTestEngines().image;
  const client = EngineClient.fromEnvironment({ host });
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/root' };
  const docker = (args: string[]) => execFileAsync('docker', ['-H', host, ...args], { env, maxBuffer: 256 << 20 });
  const { Id: id } = await client.createContainer(containerSpec(image, ['sleep', '3600']));
  const scratch = mkdtempSync(join(tmpdir(), 'berth-bench-files-'));
  const rows: Row[] = [];
  // The provider's own keeper of listing helpers; the idle end is longer than the bench's pauses between samples.
  const keeper = new ListingSessions(60_000);
  const record = (name: string, results: Map<string, { samples: number[] }>) => {
    for (const [contender, measurement] of results) rows.push({ case: name, contender, summary: summarize(measurement.samples) });
  };
  try {
    await client.startContainer(id);
    await shell(client, id, 'mkdir -p /data && cd /data && i=0; while [ $i -lt 5000 ]; do : > "file-$i.txt"; i=$((i+1)); done');
    const listing: Contender[] = [
      { name: 'Berth, listing helper kept (folder after folder)', run: () => keeper.list(client, id, '/data'), samples: 10, warmup: 1 },
      { name: 'Berth, listing helper started (first listing)', run: () => firstListing(client, id, '/data'), samples: 10, warmup: 1 },
      { name: 'Berth, exec find', run: () => listByExec(client, id, '/data'), samples: 10, warmup: 1 },
      { name: 'Berth, archive headers', run: () => listByArchive(client, id, '/data'), samples: 10, warmup: 1 },
      { name: 'docker exec ls -la (spawned)', run: () => docker(['exec', id, 'ls', '-la', '/data']), samples: 10, warmup: 1 },
    ];
    record('list 5,000 files', await measureInterleaved(listing, ROUNDS));
    for (const mb of [30, 300]) {
      await shell(client, id, `mkdir -p /usr/bulk && dd if=/dev/urandom of=/usr/bulk/fill bs=1048576 count=${mb} 2>/dev/null`);
      const root: Contender[] = [
        { name: 'Berth, listing helper kept (folder after folder)', run: () => keeper.list(client, id, '/'), samples: 5, warmup: 1 },
        { name: 'Berth, exec find', run: () => listByExec(client, id, '/'), samples: 5, warmup: 1 },
        { name: 'Berth, archive headers', run: () => listByArchive(client, id, '/'), samples: 5, warmup: 1 },
        { name: 'docker exec ls -la (spawned)', run: () => docker(['exec', id, 'ls', '-la', '/']), samples: 5, warmup: 1 },
      ];
      record(`list / with ${mb} MB in /usr`, await measureInterleaved(root, ROUNDS));
    }
    await shell(client, id, `dd if=/dev/urandom of=/tmp/big.bin bs=1048576 count=${FILE_MB} 2>/dev/null`);
    const copyTarget = join(scratch, 'big.bin');
    const open: Contender[] = [
      { name: 'Berth, read out of the tar', run: () => readContainerFile(client, id, '/tmp/big.bin'), samples: 10, warmup: 1 },
      { name: 'docker cp + read', run: async () => { await docker(['cp', `${id}:/tmp/big.bin`, copyTarget]); return readFileSync(copyTarget); }, samples: 10, warmup: 1 },
    ];
    record(`open a ${FILE_MB} MB file`, await measureInterleaved(open, ROUNDS));
    const peakMb = await peakMemoryOfRead(() => readContainerFile(client, id, '/tmp/big.bin'));
    report(rows, peakMb);
  } finally {
    keeper.dispose();
    await client.removeContainer(id, { force: true });
    await client.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** The first listing of a container the provider has no helper for: start one, list, end it. */
async function firstListing(client: EngineClient, id: string, dir: string): Promise<unknown> {
  const session = await ListingSession.open(client, id);
  try {
    return await session.list(dir);
  } finally {
    session.close();
  }
}

async function shell(client: EngineClient, id: string, script: string): Promise<void> {
  const result = await execCapture(client, id, ['sh', '-c', script]);
  if (result.exitCode !== 0) throw new Error(`setup failed: ${result.stderr}`);
}

/** The most memory (heap + buffers) the process held above its start while reading, sampled as the read streams. */
async function peakMemoryOfRead(read: () => Promise<Buffer>): Promise<number> {
  const base = used();
  let peak = 0;
  const timer = setInterval(() => (peak = Math.max(peak, used() - base)), 1);
  const data = await read();
  peak = Math.max(peak, used() - base);
  clearInterval(timer);
  void data.length;
  return peak / (1024 * 1024);
}

function used(): number {
  const memory = process.memoryUsage();
  return memory.heapUsed + memory.arrayBuffers;
}

function report(rows: readonly Row[], peakMb: number): void {
  const lines = ['| Case | Contender | median ms | p10–p90 ms | ratio to docker |', '| --- | --- | --- | --- | --- |'];
  for (const row of rows) {
    const peer = rows.find((other) => other.case === row.case && other.contender.startsWith('docker'));
    const ratio = peer ? (row.summary.median / peer.summary.median).toFixed(2) : '—';
    lines.push(`| ${row.case} | ${row.contender} | ${row.summary.median.toFixed(1)} | ${row.summary.p10.toFixed(1)}–${row.summary.p90.toFixed(1)} | ${ratio}× |`);
  }
  lines.push('', `Peak memory while reading the ${FILE_MB} MB file: ${peakMb.toFixed(1)} MB (${(peakMb / FILE_MB).toFixed(2)}× the file).`);
  const text = `${lines.join('\n')}\n`;
  const out = resolve(__dirname);
  writeFileSync(join(out, 'files-results.md'), `# Files in containers: Berth against the docker CLI\n\n${text}`);
  writeFileSync(join(out, 'files-results.json'), `${JSON.stringify({ rows, peakMb, fileMb: FILE_MB }, null, 2)}\n`);
  console.log(text);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
