// `build -`: stdin told apart as docker's IsArchive does, the archive's bytes passed on whole, the Dockerfile bounded.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { isArchive, MAX_STDIN_DOCKERFILE_BYTES, readStdinContext, singleDockerfileTar } from '../../../../src/engine/build';
import { EngineError } from '../../../../src/engine/connection';

async function bytesOf(source: AsyncIterable<Buffer>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of source) parts.push(part);
  return Buffer.concat(parts);
}

/** An async source that yields what `next` returns until it returns undefined, as a pipe hands data over. */
function source(next: () => Buffer | undefined): AsyncIterable<Buffer> {
  return {
    [Symbol.asyncIterator]: () => ({
      next: (): Promise<IteratorResult<Buffer>> => {
        const value = next();
        return Promise.resolve(value === undefined ? { value: undefined, done: true } : { value, done: false });
      },
    }),
  };
}

/** `data` in pieces of `size`. */
function inPieces(data: Buffer, size: number): AsyncIterable<Buffer> {
  let at = 0;
  return source(() => {
    if (at >= data.length) return undefined;
    at += size;
    return data.subarray(at - size, at);
  });
}

void describe('build - reads stdin as docker does', () => {
  void it('a tar header with a good checksum, or a compression magic number, is an archive; text and a broken header are not', async () => {
    const tar = await bytesOf(singleDockerfileTar(Buffer.from('FROM scratch\n')));
    assert.equal(isArchive(tar.subarray(0, 512)), true);
    assert.equal(isArchive(gzipSync(tar).subarray(0, 512)), true);
    assert.equal(isArchive(Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0])), true);
    const broken = Buffer.from(tar.subarray(0, 512));
    broken[0] = (broken[0] as number) ^ 1;
    assert.equal(isArchive(broken), false);
    assert.equal(isArchive(Buffer.alloc(512)), false);
    assert.equal(isArchive(Buffer.from('FROM busybox\nRUN true\n'.padEnd(600, '#'))), false);
    assert.equal(isArchive(tar.subarray(0, 100)), false);
  });

  void it('an archive is passed on byte for byte, however the pipe splits it', async () => {
    const tar = await bytesOf(singleDockerfileTar(Buffer.from('FROM scratch\n'.repeat(200))));
    for (const size of [1, 7, 511, 512, 4096]) {
      const context = await readStdinContext(inPieces(tar, size));
      assert.equal(context.kind, 'archive');
      if (context.kind === 'archive') assert.ok((await bytesOf(context.body)).equals(tar), `pieces of ${size}`);
    }
  });

  void it('anything else is the Dockerfile, read whole up to the bound and refused past it', async () => {
    const text = Buffer.from('FROM busybox\nRUN echo hi\n');
    const context = await readStdinContext(inPieces(text, 3));
    assert.deepEqual(context, { kind: 'dockerfile', text });
    assert.deepEqual(await readStdinContext(inPieces(Buffer.alloc(0), 1)), { kind: 'dockerfile', text: Buffer.alloc(0) });
    const atBound = await readStdinContext(inPieces(Buffer.alloc(MAX_STDIN_DOCKERFILE_BYTES, 0x23), 65536));
    assert.equal(atBound.kind === 'dockerfile' ? atBound.text.length : -1, MAX_STDIN_DOCKERFILE_BYTES);
    let pulled = 0;
    const endless = source(() => {
      pulled++;
      return Buffer.alloc(65536, 0x23);
    });
    await assert.rejects(readStdinContext(endless), (error: unknown) => error instanceof EngineError && /larger than 4 MiB/.test(error.message));
    assert.ok(pulled <= MAX_STDIN_DOCKERFILE_BYTES / 65536 + 1, `read ${pulled} pieces past the bound`);
  });

  void it('a lone Dockerfile becomes a tar holding only Dockerfile', async () => {
    const tar = await bytesOf(singleDockerfileTar(Buffer.from('FROM scratch\n')));
    assert.equal(tar.subarray(0, 10).toString('latin1'), 'Dockerfile');
    assert.equal(tar.length % 512, 0);
  });
});
