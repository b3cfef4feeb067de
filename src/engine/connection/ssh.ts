/**
 * The ssh:// transport: like the docker CLI, run `ssh … -- <host> docker system dial-stdio` and speak HTTP over the
 * child's stdin/stdout. Each pooled connection is one ssh process. No shell is involved on this side: arguments go
 * to execFile-style spawn, and the host has been validated by parseHost.
 */
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import type { Socket } from 'node:net';
import { Duplex } from 'node:stream';
import type { Endpoint } from './endpoint';
import { childProcess } from './lazyModules';
import type { Connector } from './transportTypes';

/** The ssh command line the docker CLI uses for an ssh:// host. */
export function sshArguments(endpoint: Endpoint): string[] {
  const target = endpoint.ssh;
  if (!target) throw new Error(`${endpoint.display} is not an ssh endpoint`);
  const args: string[] = [];
  if (target.user !== undefined) args.push('-l', target.user);
  if (target.port !== undefined) args.push('-p', String(target.port));
  // BatchMode: a password prompt would hang an extension host with no terminal.
  args.push('-o', 'BatchMode=yes', '--', target.host, 'docker', 'system', 'dial-stdio');
  return args;
}

export function sshConnector(endpoint: Endpoint, command = 'ssh'): Connector {
  const args = sshArguments(endpoint);
  return (_options, callback) => {
    const child = childProcess().spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    const stream = new ChildProcessStream(child);
    let settled = false;
    child.once('error', (error) => {
      if (settled) return;
      settled = true;
      callback(error, null);
    });
    child.once('spawn', () => {
      if (settled) return;
      settled = true;
      // undici drives any Duplex the way it drives a net.Socket.
      callback(null, stream as unknown as Socket);
    });
  };
}

/**
 * A Duplex over a child's stdout (readable side) and stdin (writable side). The readable side ends only once both
 * stdout has ended and ssh has exited (and its stderr is read): ssh closes stdout before it exits, and a failure (a refused key, an unknown
 * host, no docker on the far side) must surface as ssh's own words, not as "the engine closed the connection".
 */
class ChildProcessStream extends Duplex {
  private stderr = '';
  private stdoutEnded = false;
  private exitCode: number | null | undefined;

  constructor(private readonly child: ChildProcessWithoutNullStreams) {
    super();
    child.stdout.on('data', (chunk: Buffer) => {
      if (!this.push(chunk)) child.stdout.pause();
    });
    child.stdout.on('end', () => {
      this.stdoutEnded = true;
      this.finish();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      // Kept for the error message; ssh's stderr never carries the HTTP traffic.
      if (this.stderr.length < 4096) this.stderr += chunk.toString('utf8');
    });
    // An ssh that exits at once (a refused connection, an unknown host) closes its stdin under a pending write. The
    // broken pipe says nothing: finish() reports ssh's exit status and its own words instead.
    child.stdin.on('error', () => undefined);
    // 'close', not 'exit': by then stderr has been read to its end, so the message is complete.
    child.on('close', (code) => {
      this.exitCode = code;
      this.finish();
    });
  }

  private finish(): void {
    if (!this.stdoutEnded || this.exitCode === undefined || this.destroyed) return;
    // null: ended by a signal, which is how _destroy stops it.
    if (this.exitCode === 0 || this.exitCode === null) {
      this.push(null);
      return;
    }
    const said = this.stderr
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter((line) => line !== '' && !line.startsWith('Warning: Permanently added'))
      .join('; ')
      .replace(/\.$/, '');
    this.destroy(new Error(`ssh exited with status ${this.exitCode}: ${said || 'no message'}`));
  }

  override _read(): void {
    this.child.stdout.resume();
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.child.stdin.write(chunk, (error) => callback(isBrokenPipe(error) ? null : error));
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.child.stdin.end(callback);
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.child.kill();
    callback(error);
  }

  ref(): this {
    this.child.ref();
    return this;
  }

  unref(): this {
    this.child.unref();
    return this;
  }
}

function isBrokenPipe(error: Error | null | undefined): boolean {
  return error !== null && error !== undefined && 'code' in error && error.code === 'EPIPE';
}
