/**
 * A listing helper that stays in a running container while its files are browsed: one exec of `sh` that reads
 * directory paths from its stdin, one per line, and answers each with the three one-level `find` walks of
 * `listByExec`, then an end record with their status.
 *
 * Why: every exec makes the runtime start a process in the container (runc: tens of ms idle, 100+ ms under load).
 * That is the floor `docker exec ls` pays on every listing, and the one-shot `listByExec` too. A session pays it once;
 * each listing after that is a few forks inside the container.
 *
 * The path is data read by `read -r`, never part of the script. Paths that are not absolute or hold a newline are
 * refused here, and the caller lists them the one-shot way. No `vscode` here.
 */
import type { Duplex } from 'node:stream';
import type { EngineClient } from '../api';
import { FrameJoiner, EngineError } from '../connection';
import { FIND_WALKS, parseFindListing, type FileEntry } from './containerFiles';

const SESSION_SCRIPT = [
  'while IFS= read -r dir; do',
  '  if cd -- "$dir" 2>/dev/null; then',
  `    ${FIND_WALKS}`,
  '    printf "/end %s\\0" "$?"',
  '  else',
  '    printf "/end 3\\0"',
  '  fi',
  'done',
].join('\n');

/** Every entry record starts with `./`, so a record that starts with `/` can only be the end record. */
const END_RECORD = Buffer.from('/end ');
const END_AFTER_RECORD = Buffer.concat([Buffer.from([0]), END_RECORD]);

interface Request {
  readonly dir: string;
  readonly resolve: (entries: FileEntry[]) => void;
  readonly reject: (error: unknown) => void;
}

export class ListingSession {
  private readonly queue: Request[] = [];
  private pending: Buffer = Buffer.alloc(0);
  private _closed = false;
  private stderr = '';

  private constructor(private readonly socket: Duplex) {
    const frames = new FrameJoiner();
    socket.on('data', (data: Buffer) => {
      try {
        frames.push(data);
        for (const chunk of frames.take()) {
          if (chunk.stream === 'stdout') this.onStdout(chunk.data);
          else if (this.stderr.length < 4096) this.stderr += chunk.data.toString('utf8');
        }
      } catch (error) {
        this.fail(error);
      }
    });
    socket.on('error', (error) => this.fail(error));
    socket.on('close', () => this.fail(new EngineError('server', `The listing helper in the container ended${this.stderr ? `: ${this.stderr.trim()}` : ''}`, { hint: 'Berth lists the one-shot way instead' })));
  }

  /** Starts the helper: an exec of `sh` with stdin attached and no TTY (multiplexed output). */
  static async open(client: EngineClient, containerId: string, signal?: AbortSignal): Promise<ListingSession> {
    const { Id } = await client.exec.create(containerId, { cmd: ['sh', '-c', SESSION_SCRIPT], attachStdin: true, signal });
    const socket = await client.exec.startAttached(Id, { tty: false, signal });
    return new ListingSession(socket);
  }

  get closed(): boolean {
    return this._closed;
  }

  /** Busy with a listing, or with more queued. */
  get busy(): boolean {
    return this.queue.length > 0;
  }

  /** One level of `dir`, in the order the requests came. */
  list(dir: string): Promise<FileEntry[]> {
    if (this._closed) return Promise.reject(new EngineError('server', 'The listing helper has ended', { hint: 'Berth lists the one-shot way instead' }));
    if (!dir.startsWith('/') || dir.includes('\n')) {
      return Promise.reject(new EngineError('bad-request', `The listing helper takes absolute paths without a newline, not ${JSON.stringify(dir)}`, { hint: 'Berth lists the one-shot way instead' }));
    }
    return new Promise((resolve, reject) => {
      this.queue.push({ dir, resolve, reject });
      this.socket.write(`${dir}\n`);
    });
  }

  /** Ends the helper and fails what is still queued. */
  close(): void {
    if (this._closed) return;
    this.fail(new EngineError('server', 'The listing helper was closed', { hint: 'Berth lists the one-shot way instead' }));
  }

  private onStdout(data: Buffer): void {
    this.pending = this.pending.length === 0 ? data : Buffer.concat([this.pending, data]);
    for (;;) {
      const end = endRecordAt(this.pending);
      if (end === undefined) return;
      const terminator = this.pending.indexOf(0, end.start);
      if (terminator < 0) return;
      const status = Number(this.pending.subarray(end.start + END_RECORD.length, terminator).toString('latin1'));
      const listing = this.pending.subarray(0, end.start);
      this.pending = this.pending.subarray(terminator + 1);
      const request = this.queue.shift();
      if (!request) {
        this.fail(new EngineError('protocol', 'The listing helper answered a question nobody asked', { hint: 'Berth lists the one-shot way instead' }));
        return;
      }
      if (status !== 0) {
        // The one-shot way reports the container's own words (permission denied, no such directory).
        request.reject(new EngineError('server', `find in the container failed (exit ${status}) for ${request.dir}`, { hint: 'Berth lists the one-shot way instead' }));
        continue;
      }
      try {
        request.resolve(parseFindListing(listing.toString('utf8')));
      } catch (error) {
        request.reject(error);
      }
    }
  }

  private fail(error: unknown): void {
    if (!this._closed) {
      this._closed = true;
      // The connection going closes the helper's stdin: `sh` reads the end and exits.
      this.socket.destroy();
    }
    for (const request of this.queue.splice(0)) request.reject(error);
  }
}

/** Where the end record starts: at the very beginning (nothing listed) or right after a record's terminator. */
function endRecordAt(buffer: Buffer): { start: number } | undefined {
  if (buffer.subarray(0, END_RECORD.length).equals(END_RECORD)) return { start: 0 };
  const at = buffer.indexOf(END_AFTER_RECORD);
  return at < 0 ? undefined : { start: at + 1 };
}
