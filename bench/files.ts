/**
 * `npm run bench:files`: Berth's container file system against the docker CLI, in one run on the private dockerd
 * (or BERTH_BENCH_HOST with BERTH_BENCH_IMAGE), calls interleaved. Writes bench/files-results.{json,md}.
 * - Listing a directory of 5,000 files: Berth's listing against `docker exec ID ls -la DIR` spawned once per listing
 *   (Microsoft's path). Goal <= 0.5x. The provider lists through a helper it keeps in the container while folders
 *   are opened (src/engine/files/listingSession.ts): measured kept (each folder after the first) and started (the first),
 *   beside the one-shot exec `find` and the archive's headers.
 * - Listing `/` while /usr holds 30 MB and then 300 MB more: the exec listing stays flat; the archive's does not
 *   (the engine still sends the bodies it walks), which is why the provider uses exec where it can.
 * - Opening a 10 MB file: Berth's read out of the tar against `docker cp` to a temporary file and reading it.
 *   Goal <= 1.0x, and the memory the read holds at its peak under 3x the file.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EngineClient } from '../src/engine';
import { ListingSession, listByArchive, listByExec, readContainerFile } from '../src/engine/files';
import { ListingSessions } from '../src/files/listingSessions';
import { fillDirectory, ratioTable, recordCase, runBench, shell, withBenchContainer, writeResults, type Row } from './containerBench';
import { measureInterleaved, type Contender } from './measure';

const ROUNDS = 5;
const FILE_MB = 10;

async function main(): Promise<void> {
  await withBenchContainer('files', async ({ client, id, scratch, docker }) => {
    // The provider's own keeper of listing helpers; the idle end is longer than the bench's pauses between samples.
    const keeper = new ListingSessions(60_000);
    try {
      const rows: Row[] = [];
      await fillDirectory(client, id, '/data', 5000);
      const listing: Contender[] = [
        { name: 'Berth, listing helper kept (folder after folder)', run: () => keeper.list(client, id, '/data'), samples: 10, warmup: 1 },
        { name: 'Berth, listing helper started (first listing)', run: () => firstListing(client, id, '/data'), samples: 10, warmup: 1 },
        { name: 'Berth, exec find', run: () => listByExec(client, id, '/data'), samples: 10, warmup: 1 },
        { name: 'Berth, archive headers', run: () => listByArchive(client, id, '/data'), samples: 10, warmup: 1 },
        { name: 'docker exec ls -la (spawned)', run: () => docker(['exec', id, 'ls', '-la', '/data']), samples: 10, warmup: 1 },
      ];
      recordCase(rows, 'list 5,000 files', await measureInterleaved(listing, ROUNDS));
      for (const mb of [30, 300]) {
        await shell(client, id, `mkdir -p /usr/bulk && dd if=/dev/urandom of=/usr/bulk/fill bs=1048576 count=${mb} 2>/dev/null`);
        const root: Contender[] = [
          { name: 'Berth, listing helper kept (folder after folder)', run: () => keeper.list(client, id, '/'), samples: 5, warmup: 1 },
          { name: 'Berth, exec find', run: () => listByExec(client, id, '/'), samples: 5, warmup: 1 },
          { name: 'Berth, archive headers', run: () => listByArchive(client, id, '/'), samples: 5, warmup: 1 },
          { name: 'docker exec ls -la (spawned)', run: () => docker(['exec', id, 'ls', '-la', '/']), samples: 5, warmup: 1 },
        ];
        recordCase(rows, `list / with ${mb} MB in /usr`, await measureInterleaved(root, ROUNDS));
      }
      await shell(client, id, `dd if=/dev/urandom of=/tmp/big.bin bs=1048576 count=${FILE_MB} 2>/dev/null`);
      const copyTarget = join(scratch, 'big.bin');
      const open: Contender[] = [
        { name: 'Berth, read out of the tar', run: () => readContainerFile(client, id, '/tmp/big.bin'), samples: 10, warmup: 1 },
        { name: 'docker cp + read', run: async () => { await docker(['cp', `${id}:/tmp/big.bin`, copyTarget]); return readFileSync(copyTarget); }, samples: 10, warmup: 1 },
      ];
      recordCase(rows, `open a ${FILE_MB} MB file`, await measureInterleaved(open, ROUNDS));
      const peakMb = await peakMemoryOfRead(() => readContainerFile(client, id, '/tmp/big.bin'));
      report(rows, peakMb);
    } finally {
      keeper.dispose();
    }
  });
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
  const lines = ratioTable(rows, 'docker');
  lines.push('', `Peak memory while reading the ${FILE_MB} MB file: ${peakMb.toFixed(1)} MB (${(peakMb / FILE_MB).toFixed(2)}× the file).`);
  writeResults('files', 'Files in containers: Berth against the docker CLI', `${lines.join('\n')}\n`, { rows, peakMb, fileMb: FILE_MB });
}

runBench(main);
