/** The Engine API's Exec endpoints (`client.exec`): create an exec, start it attached over a hijacked connection, resize, inspect. */
import type { Duplex } from 'node:stream';
import {
  buildQuery,
  type CallOptions,
  type EngineConnection,
  type CreateExecOptions,
  type ExecInspect,
  type ResizeOptions,
  type StartExecOptions,
  JSON_HEADERS,
} from '../connection';

export class ExecEndpoints {
  constructor(private readonly connection: EngineConnection) {}

  create(id: string, options: CreateExecOptions): Promise<{ Id: string }> {
    const body = {
      Cmd: options.cmd,
      Tty: options.tty ?? false,
      AttachStdin: options.attachStdin ?? false,
      AttachStdout: options.attachStdout ?? true,
      AttachStderr: options.attachStderr ?? true,
      ...(options.env ? { Env: options.env } : {}),
      ...(options.workingDir !== undefined ? { WorkingDir: options.workingDir } : {}),
      ...(options.user !== undefined ? { User: options.user } : {}),
    };
    return this.connection.json({
      method: 'POST',
      path: `/containers/${encodeURIComponent(id)}/exec`,
      subject: 'container',
      headers: JSON_HEADERS,
      body: JSON.stringify(body),
      signal: options.signal,
    });
  }

  /**
   * Starts an exec attached, over the connection the engine hijacks (`Connection: Upgrade`, `Upgrade: tcp`). The Duplex
   * is the raw stream: with a TTY, the terminal's bytes both ways; without, multiplexed frames out (use demux()).
   */
  startAttached(execId: string, options: StartExecOptions): Promise<Duplex> {
    return this.connection.upgraded({
      method: 'POST',
      path: `/exec/${encodeURIComponent(execId)}/start`,
      subject: 'exec',
      headers: JSON_HEADERS,
      body: JSON.stringify({ Detach: false, Tty: options.tty }),
      signal: options.signal,
    });
  }

  async resize(execId: string, options: ResizeOptions): Promise<void> {
    const query = buildQuery({ h: options.rows, w: options.cols });
    await this.connection.call({ method: 'POST', path: `/exec/${encodeURIComponent(execId)}/resize${query}`, subject: 'exec', signal: options.signal });
  }

  inspect(execId: string, options: CallOptions = {}): Promise<ExecInspect> {
    return this.connection.json({ method: 'GET', path: `/exec/${encodeURIComponent(execId)}/json`, subject: 'exec', signal: options.signal });
  }
}
