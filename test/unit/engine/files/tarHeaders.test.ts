// The header-only tar walker against tar-stream's pack (the same library Berth extracts with elsewhere): names long
// enough for a pax header, links, a body skipped across chunk boundaries, and a damaged header refused.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as tar from 'tar-stream';
import { TarHeaderWalker, type TarHeader } from '../../../../src/engine/files';

async function packed(entries: ReadonlyArray<tar.Header | (Partial<tar.Header> & { name: string; body?: Buffer })>): Promise<Buffer> {
  const pack = tar.pack();
  for (const entry of entries) {
    const { body, ...header } = entry as Partial<tar.Header> & { name: string; body?: Buffer };
    if (body !== undefined) pack.entry({ ...header, size: body.length }, body);
    else pack.entry(header);
  }
  pack.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of pack) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function walk(bytes: Buffer, chunkSize: number): { headers: TarHeader[]; walker: TarHeaderWalker } {
  const headers: TarHeader[] = [];
  const walker = new TarHeaderWalker((header) => headers.push(header));
  for (let at = 0; at < bytes.length; at += chunkSize) walker.push(bytes.subarray(at, at + chunkSize));
  return { headers, walker };
}

void describe('tar header walker', () => {
  void it('reads names, kinds, sizes and link targets, however the bytes are split', async () => {
    const longName = `${'deep/'.repeat(60)}file.txt`;
    const bytes = await packed([
      { name: 'etc/', type: 'directory' },
      { name: 'etc/passwd', body: Buffer.alloc(1000, 1) },
      { name: longName, body: Buffer.alloc(3, 2) },
      { name: 'bin/sh', type: 'symlink', linkname: 'busybox' },
      { name: 'bin/ls', type: 'link', linkname: 'bin/busybox' },
    ]);
    for (const chunkSize of [1, 7, 512, 100_000]) {
      const { headers, walker } = walk(bytes, chunkSize);
      assert.deepEqual(headers.map((header) => `${header.kind} ${header.name} ${header.size} ${header.linkTarget}`), [
        'directory etc/ 0 ',
        'file etc/passwd 1000 ',
        `file ${longName} 3 `,
        'symlink bin/sh 0 busybox',
        'link bin/ls 0 bin/busybox',
      ]);
      assert.equal(walker.ended, true);
    }
  });

  void it('a tar cut inside a body is not at an entry boundary', async () => {
    const bytes = await packed([{ name: 'big', body: Buffer.alloc(4096, 3) }]);
    const { walker } = walk(bytes.subarray(0, 2048), 512);
    assert.equal(walker.atBoundary, false);
    assert.equal(walker.ended, false);
  });

  void it('a damaged header is refused, not read as an entry', async () => {
    const bytes = await packed([{ name: 'a', body: Buffer.alloc(10) }]);
    bytes[0] = 0x7a;
    assert.throws(() => walk(bytes, 512), /damaged header/);
  });
});
