import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mergeContainerLogs, type MergedLogLine, type MergedLogsClient } from '../../../../src/engine/compose';
import type { OutputChunk } from '../../../../src/engine/connection';
import { sleep } from '../../../support/wait';

/** One frame per line, stamped at `second` (UTC, 2026-01-01T00:00:SS). */
function frame(second: number, text: string, stream: 'stdout' | 'stderr' = 'stdout'): OutputChunk {
  const stamp = `2026-01-01T00:00:${String(second).padStart(2, '0')}.000000000Z`;
  return { stream, data: Buffer.from(`${stamp} ${text}\n`), frameEnd: true };
}

/** A client whose streams yield the given frames; each stream yields only after `gate` lets it, to shuffle arrival. */
function scriptedClient(streams: Record<string, OutputChunk[]>, gates: Record<string, Promise<void>> = {}, reads?: { count: number }): MergedLogsClient {
  return {
    containers: {
      inspect: () => Promise.reject(new Error('not used')),
      logs: async function* (id: string) {
        await gates[id];
        for (const chunk of streams[id] ?? []) {
          if (reads) reads.count++;
          yield chunk;
        }
      },
    },
  };
}

const sources = (ids: readonly string[]) => ids.map((id) => ({ id, name: id, tty: false }));
const collect = async (client: MergedLogsClient, ids: readonly string[], maxQueuedLines?: number): Promise<MergedLogLine[]> => {
  const out: MergedLogLine[] = [];
  await mergeContainerLogs(client, sources(ids), { signal: new AbortController().signal, maxQueuedLines }, (batch) => {
    out.push(...batch);
    return undefined;
  });
  return out;
};

void describe('merging several containers\' logs', () => {
  void it('orders by stamp however late a stream arrives; equal stamps keep the order of the containers given', async () => {
    let releaseLate!: () => void;
    const late = new Promise<void>((resolve) => (releaseLate = resolve));
    const client = scriptedClient({ a: [frame(2, 'a2'), frame(5, 'a5')], late: [frame(1, 'l1'), frame(2, 'l2'), frame(9, 'l9')] }, { late });
    const merging = collect(client, ['late', 'a']);
    await sleep(20);
    releaseLate();
    assert.deepEqual((await merging).map((line) => line.text), ['l1', 'l2', 'a2', 'a5', 'l9']);
  });

  void it('keeps each stream\'s stdout and stderr apart and reads a long stream with a bounded queue', async () => {
    const many = Array.from({ length: 500 }, (_, index) => frame(10 + Math.floor(index / 100), `m${index}`, index % 2 === 0 ? 'stdout' : 'stderr'));
    const reads = { count: 0 };
    const lines = await collect(scriptedClient({ many, one: [frame(12, 'one')] }, {}, reads), ['many', 'one'], 8);
    assert.equal(lines.length, 501);
    assert.equal(reads.count, 501);
    assert.equal(lines.filter((line) => line.stream === 'stderr').length, 250);
    assert.equal(lines.findIndex((line) => line.text === 'one'), 300);
  });

  void it('a failing stream fails the merge with its error', async () => {
    const client = {
      containers: {
        logs: async function* () {
          yield await Promise.resolve(frame(1, 'x'));
          throw new Error('engine went away');
        },
      },
    } as unknown as MergedLogsClient;
    await assert.rejects(collect(client, ['a', 'b']), /engine went away/);
  });
});
