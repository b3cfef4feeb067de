/**
 * `build -`: what stdin holds, told apart as the docker CLI does (build.GetContextFromReader). A tar archive, plain or
 * compressed, is the whole context and goes to the engine as it is read; anything else is a Dockerfile, sent as the
 * only file of a context. The Dockerfile is held in memory, so it is bounded; the archive is streamed, never held.
 */
import { tarStream, EngineError, readHead } from '../connection';

/** Bytes looked at to tell an archive: one tar header. */
const HEADER_BYTES = 512;
/** A Dockerfile read from stdin is held whole: more than this is refused rather than read without end. */
export const MAX_STDIN_DOCKERFILE_BYTES = 4 * 1024 * 1024;

export type StdinContext =
  | { readonly kind: 'archive'; readonly body: AsyncGenerator<Buffer, void, undefined> }
  | { readonly kind: 'dockerfile'; readonly text: Buffer };

/** Reads the start of `input` and says which it is; an archive's body yields those first bytes again, then the rest. */
export async function readStdinContext(input: AsyncIterable<Buffer | string>): Promise<StdinContext> {
  const iterator = input[Symbol.asyncIterator]();
  const { bytes: start, ended } = await readHead(iterator, HEADER_BYTES);
  if (isArchive(start)) return { kind: 'archive', body: replay(start, ended ? undefined : iterator) };
  const parts: Buffer[] = [start];
  let total = start.length;
  while (!ended) {
    const next = await iterator.next();
    if (next.done === true) break;
    const chunk = Buffer.isBuffer(next.value) ? next.value : Buffer.from(next.value);
    total += chunk.length;
    if (total > MAX_STDIN_DOCKERFILE_BYTES) {
      await iterator.return?.();
      throw new EngineError('bad-request', `the Dockerfile on stdin is larger than ${MAX_STDIN_DOCKERFILE_BYTES / (1024 * 1024)} MiB, the most berth reads from stdin for a Dockerfile`, {
        hint: 'stdin that is not a tar archive is read as a Dockerfile: pipe a tar of the build context instead (tar -c . | berth build -), or build from a folder',
      });
    }
    parts.push(chunk);
  }
  return { kind: 'dockerfile', text: Buffer.concat(parts, total) };
}

async function* replay(start: Buffer, rest: AsyncIterator<Buffer | string> | undefined): AsyncGenerator<Buffer, void, undefined> {
  if (start.length > 0) yield start;
  if (rest === undefined) return;
  try {
    for (let next = await rest.next(); next.done !== true; next = await rest.next()) yield Buffer.isBuffer(next.value) ? next.value : Buffer.from(next.value);
  } finally {
    await rest.return?.();
  }
}

const COMPRESSION_MAGIC: readonly (readonly number[])[] = [
  [0x42, 0x5a, 0x68], // bzip2
  [0x1f, 0x8b, 0x08], // gzip
  [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00], // xz
  [0x28, 0xb5, 0x2f, 0xfd], // zstd
];

/** docker's IsArchive: a compression magic number, or a first tar header whose checksum holds (Go's tar.Reader.Next). */
export function isArchive(header: Buffer): boolean {
  if (COMPRESSION_MAGIC.some((magic) => magic.every((byte, index) => header[index] === byte))) return true;
  if (header.length < HEADER_BYTES) return false;
  const field = header.subarray(148, 156).toString('latin1').replace(/[\0 ]+$/, '').replace(/^[\0 ]+/, '');
  if (!/^[0-7]+$/.test(field)) return false;
  const recorded = parseInt(field, 8);
  let unsigned = 0;
  let signed = 0;
  for (let index = 0; index < HEADER_BYTES; index++) {
    const byte = index >= 148 && index < 156 ? 0x20 : (header[index] as number);
    unsigned += byte;
    signed += byte > 127 ? byte - 256 : byte;
  }
  return recorded === unsigned || recorded === signed;
}

/** The context docker makes of a Dockerfile on stdin: a tar holding only `Dockerfile`. */
export function singleDockerfileTar(text: Buffer): AsyncIterable<Buffer> {
  const pack = tarStream().pack();
  pack.entry({ name: 'Dockerfile', size: text.length, mode: 0o600, mtime: new Date(0), uid: 0, gid: 0 }, text);
  pack.finalize();
  return pack as unknown as AsyncIterable<Buffer>;
}
