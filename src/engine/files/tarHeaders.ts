/**
 * The headers of an uncompressed tar, read as its bytes arrive, its bodies skipped by count and never copied: what the
 * layer analysis needs of each layer tar. Knows ustar names with their prefix, GNU long names and long links
 * (`L`, `K`) and pax extended headers (`x`: path, linkpath, size); a global pax header (`g`) is skipped. Linear in the
 * bytes, and bounded: a long name or pax header larger than MAX_META_BYTES is refused.
 */

export type LayerEntryKind = 'file' | 'directory' | 'symlink' | 'link' | 'other';

export interface TarHeader {
  readonly name: string;
  readonly kind: LayerEntryKind;
  /** Bytes of the body; 0 for anything but a regular file. */
  readonly size: number;
  readonly mode: number;
  readonly linkTarget: string;
}

const BLOCK = 512;
const MAX_META_BYTES = 1024 * 1024;

export class TarHeaderError extends Error {
  override readonly name = 'TarHeaderError';
}

export class TarHeaderWalker {
  private header = Buffer.alloc(BLOCK);
  private headerFill = 0;
  /** Body bytes (with padding) still to skip, or to collect for a meta entry. */
  private skip = 0;
  private meta: { type: string; size: number; chunks: Buffer[]; fill: number } | undefined;
  private longName: string | undefined;
  private longLink: string | undefined;
  private pax: Record<string, string> = {};
  private zeroBlocks = 0;

  constructor(private readonly onHeader: (header: TarHeader) => void) {}

  /** True once the end-of-archive blocks were seen. */
  get ended(): boolean {
    return this.zeroBlocks >= 2;
  }

  /** True when no entry is cut: the tar ended, or it stopped between entries (a tar without its end blocks). */
  get atBoundary(): boolean {
    return this.skip === 0 && this.headerFill === 0 && this.meta === undefined;
  }

  push(chunk: Buffer): void {
    let at = 0;
    while (at < chunk.length) {
      if (this.ended) return;
      if (this.skip > 0) {
        const taken = Math.min(this.skip, chunk.length - at);
        if (this.meta !== undefined) this.collectMeta(chunk.subarray(at, at + taken));
        this.skip -= taken;
        at += taken;
        if (this.skip === 0 && this.meta !== undefined) this.finishMeta();
        continue;
      }
      const taken = Math.min(BLOCK - this.headerFill, chunk.length - at);
      chunk.copy(this.header, this.headerFill, at, at + taken);
      this.headerFill += taken;
      at += taken;
      if (this.headerFill === BLOCK) {
        this.headerFill = 0;
        this.readHeader();
      }
    }
  }

  private collectMeta(bytes: Buffer): void {
    const meta = this.meta as NonNullable<typeof this.meta>;
    const wanted = Math.min(bytes.length, meta.size - meta.fill);
    if (wanted > 0) {
      meta.chunks.push(Buffer.from(bytes.subarray(0, wanted)));
      meta.fill += wanted;
    }
  }

  private finishMeta(): void {
    const meta = this.meta as NonNullable<typeof this.meta>;
    this.meta = undefined;
    const text = Buffer.concat(meta.chunks).toString('utf8');
    if (meta.type === 'L') this.longName = text.replace(/\0.*$/s, '');
    else if (meta.type === 'K') this.longLink = text.replace(/\0.*$/s, '');
    else if (meta.type === 'x') this.pax = parsePax(text);
  }

  private readHeader(): void {
    const block = this.header;
    if (block.every((byte) => byte === 0)) {
      this.zeroBlocks++;
      return;
    }
    this.zeroBlocks = 0;
    if (!checksumMatches(block)) throw new TarHeaderError('a layer tar has a damaged header');
    const type = String.fromCharCode(block[156] ?? 0);
    const size = numberField(block, 124, 12);
    const padded = Math.ceil(size / BLOCK) * BLOCK;
    if (type === 'L' || type === 'K' || type === 'x') {
      if (size > MAX_META_BYTES) throw new TarHeaderError(`a layer tar has a name or extended header of ${size} bytes`);
      this.meta = { type, size, chunks: [], fill: 0 };
      this.skip = padded;
      if (padded === 0) this.finishMeta();
      return;
    }
    if (type === 'g') {
      this.skip = padded;
      return;
    }
    const magic = block.toString('latin1', 257, 262);
    const prefix = magic === 'ustar' ? cString(block, 345, 155) : '';
    const ustarName = cString(block, 0, 100);
    const name = this.pax.path ?? this.longName ?? (prefix !== '' ? `${prefix}/${ustarName}` : ustarName);
    const linkTarget = this.pax.linkpath ?? this.longLink ?? cString(block, 157, 100);
    const bodySize = this.pax.size !== undefined && /^\d+$/.test(this.pax.size) ? Number(this.pax.size) : size;
    this.longName = undefined;
    this.longLink = undefined;
    this.pax = {};
    const kind = kindOf(type);
    this.onHeader({ name, kind, size: kind === 'file' ? bodySize : 0, mode: numberField(block, 100, 8), linkTarget: kind === 'symlink' || kind === 'link' ? linkTarget : '' });
    // Only regular files (and types with data this reader does not know) carry a body.
    this.skip = type === '5' || type === '2' || type === '1' || type === '3' || type === '4' || type === '6' ? 0 : Math.ceil(bodySize / BLOCK) * BLOCK;
  }
}

function kindOf(type: string): LayerEntryKind {
  if (type === '0' || type === '\0' || type === '7') return 'file';
  if (type === '5') return 'directory';
  if (type === '2') return 'symlink';
  if (type === '1') return 'link';
  return 'other';
}

function cString(block: Buffer, offset: number, length: number): string {
  const field = block.subarray(offset, offset + length);
  const end = field.indexOf(0);
  return field.toString('utf8', 0, end === -1 ? length : end);
}

/** An octal field, or GNU's base-256 (high bit set) for values too large for it. */
function numberField(block: Buffer, offset: number, length: number): number {
  const first = block[offset] ?? 0;
  if ((first & 0x80) !== 0) {
    let value = first & 0x7f;
    for (let index = 1; index < length; index++) value = value * 256 + (block[offset + index] ?? 0);
    return value;
  }
  const text = cString(block, offset, length).trim();
  const value = text === '' ? 0 : parseInt(text, 8);
  if (!Number.isFinite(value)) throw new TarHeaderError('a layer tar has a header with a number that is not octal');
  return value;
}

function checksumMatches(block: Buffer): boolean {
  let sum = 8 * 0x20;
  for (let index = 0; index < BLOCK; index++) if (index < 148 || index >= 156) sum += block[index] ?? 0;
  return sum === numberField(block, 148, 8);
}

/** Pax records: `<length> <key>=<value>\n`, one after another. */
function parsePax(text: string): Record<string, string> {
  const records: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const space = line.indexOf(' ');
    const equals = line.indexOf('=', space);
    if (space === -1 || equals === -1) continue;
    records[line.slice(space + 1, equals)] = line.slice(equals + 1);
  }
  return records;
}
