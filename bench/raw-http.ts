/**
 * The floor the benchmarks compare against: a minimal HTTP/1.1 client on one kept-alive Unix socket, written with
 * `net` and nothing else. It sends a request line and a Host header, reads the status, Content-Length or chunked
 * framing, and hands body bytes over as views into the socket's chunks. No redirects, no pipelining, no timeouts:
 * just the least work a client must do, so the gap to it is what a real client costs.
 */
import { connect, type Socket } from 'node:net';

export interface RawResponse {
  status: number;
  body: Buffer;
}

type BodyMode = { kind: 'length'; remaining: number } | { kind: 'chunked' } | { kind: 'none' };

interface PendingRequest {
  onBody(slice: Buffer): void;
  finish(status: number): void;
  fail(error: Error): void;
}

export class RawHttpConnection {
  private readonly socket: Socket;
  private pending: PendingRequest | undefined;
  private head: Buffer = Buffer.alloc(0);
  private status = 0;
  private mode: BodyMode | undefined;
  /** Chunked framing state: bytes left in the current chunk, and a partial size line. */
  private chunkRemaining = 0;
  private chunkLine = '';
  private chunkSkip = 0;

  private constructor(socketPath: string) {
    this.socket = connect(socketPath);
    this.socket.on('data', (data: Buffer) => this.onData(data));
    this.socket.on('error', (error) => this.pending?.fail(error));
    this.socket.on('close', () => this.pending?.fail(new Error('connection closed')));
  }

  static async open(socketPath: string): Promise<RawHttpConnection> {
    const connection = new RawHttpConnection(socketPath);
    await new Promise<void>((resolve, reject) => {
      connection.socket.once('connect', resolve);
      connection.socket.once('error', reject);
    });
    return connection;
  }

  /** One request, body buffered. */
  async request(method: string, path: string): Promise<RawResponse> {
    const parts: Buffer[] = [];
    const status = await this.send(method, path, (slice) => parts.push(slice));
    return { status, body: parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts) };
  }

  /** One request whose body is handed over slice by slice, as it arrives. */
  send(method: string, path: string, onBody: (slice: Buffer) => void): Promise<number> {
    if (this.pending) return Promise.reject(new Error('one request at a time'));
    return new Promise<number>((resolve, reject) => {
      this.pending = {
        onBody,
        finish: (status) => {
          this.pending = undefined;
          resolve(status);
        },
        fail: (error) => {
          this.pending = undefined;
          reject(error);
        },
      };
      this.socket.write(`${method} ${path} HTTP/1.1\r\nHost: docker\r\n\r\n`);
    });
  }

  close(): void {
    this.socket.destroy();
  }

  private onData(data: Buffer): void {
    let chunk = data;
    if (this.mode === undefined) {
      // The CRLF ending a chunked body may arrive after its last chunk; a response never starts with one.
      if (this.head.length === 0) chunk = skipLeadingCrLf(chunk);
      this.head = this.head.length === 0 ? chunk : Buffer.concat([this.head, chunk]);
      const end = this.head.indexOf('\r\n\r\n');
      if (end === -1) return;
      this.parseHead(this.head.toString('latin1', 0, end));
      chunk = this.head.subarray(end + 4);
      this.head = Buffer.alloc(0);
    }
    this.onBodyBytes(chunk);
  }

  private parseHead(text: string): void {
    const lines = text.split('\r\n');
    this.status = Number((lines[0] ?? '').split(' ')[1]);
    let mode: BodyMode = { kind: 'none' };
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).toLowerCase();
      const value = line.slice(colon + 1).trim();
      if (name === 'content-length') mode = { kind: 'length', remaining: Number(value) };
      else if (name === 'transfer-encoding' && value.toLowerCase() === 'chunked') mode = { kind: 'chunked' };
    }
    this.mode = mode;
    this.chunkRemaining = 0;
    this.chunkLine = '';
    this.chunkSkip = 0;
    if (mode.kind === 'none' || (mode.kind === 'length' && mode.remaining === 0)) this.complete();
  }

  private onBodyBytes(chunk: Buffer): void {
    const mode = this.mode;
    if (mode === undefined || chunk.length === 0) return;
    if (mode.kind === 'length') {
      const take = Math.min(mode.remaining, chunk.length);
      this.pending?.onBody(take === chunk.length ? chunk : chunk.subarray(0, take));
      mode.remaining -= take;
      if (mode.remaining === 0) this.complete();
      return;
    }
    if (mode.kind === 'chunked') this.onChunkedBytes(chunk);
  }

  /** `size-hex CRLF data CRLF ... 0 CRLF CRLF`: passes `data` on, skips the rest. */
  private onChunkedBytes(chunk: Buffer): void {
    let offset = 0;
    while (offset < chunk.length) {
      if (this.chunkSkip > 0) {
        const skip = Math.min(this.chunkSkip, chunk.length - offset);
        this.chunkSkip -= skip;
        offset += skip;
        continue;
      }
      if (this.chunkRemaining > 0) {
        const end = Math.min(chunk.length, offset + this.chunkRemaining);
        this.pending?.onBody(offset === 0 && end === chunk.length ? chunk : chunk.subarray(offset, end));
        this.chunkRemaining -= end - offset;
        offset = end;
        if (this.chunkRemaining === 0) this.chunkSkip = 2;
        continue;
      }
      const lineEnd = chunk.indexOf(10, offset);
      if (lineEnd === -1) {
        this.chunkLine += chunk.toString('latin1', offset);
        return;
      }
      const sizeLine = this.chunkLine + chunk.toString('latin1', offset, lineEnd);
      this.chunkLine = '';
      offset = lineEnd + 1;
      const size = parseInt(sizeLine.trim(), 16);
      if (size === 0) {
        // The last chunk: a CRLF follows (no trailers from the engine).
        this.complete();
        return;
      }
      this.chunkRemaining = size;
    }
  }

  private complete(): void {
    this.mode = undefined;
    this.pending?.finish(this.status);
  }
}

function skipLeadingCrLf(chunk: Buffer): Buffer {
  let start = 0;
  while (start < chunk.length && (chunk[start] === 13 || chunk[start] === 10)) start++;
  return start === 0 ? chunk : chunk.subarray(start);
}
