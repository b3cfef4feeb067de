/**
 * Where a port forward's connections enter a container's network namespace. Each connection is one exec of
 * `nc 127.0.0.1 PORT` (its output piped through `dd`, see RelayProgram; stdin attached, no TTY) over a connection the
 * engine hijacks, so nothing is published and nothing is made on the host's network: it works for `--network none`,
 * over ssh and TLS, and on Podman. A container without `nc` gets a helper container that joins its namespace
 * (`NetworkMode: container:<id>`), made from an image already on the engine (never pulled) and removed when the relay
 * closes. The relay also watches the engine's events
 * for the container's end, so every forward over it ends when the container stops.
 */
import type { Duplex } from 'node:stream';
import { type EngineClient, FORWARD_HELPER_LABEL, lastingEvents } from '../api';
import { execCapture } from '../files';
import { EngineError, isEngineError, type EngineEvent } from '../connection';


/** Exit statuses of an exec whose program does not exist (dockerd 126, Podman 127). */
const NOT_FOUND_STATUSES = new Set([126, 127]);
/**
 * How a relay's `nc` runs. busybox `nc` copies 1 KiB per read and write, so its output reaches the engine as 1 KiB
 * writes, each its own read, frame and write in the runtime's shim and the daemon. `piped` puts `dd bs=64k` after it:
 * dd takes whatever has piled up in the pipe (up to 64 KiB) in one read, and never waits to fill a block, so small
 * answers pass at once. The client-to-port direction stays on `nc`, which turns the end of its stdin into a FIN.
 */
export type RelayProgram = 'piped' | 'nc';
/** Exit statuses of the probe below: `nc` missing, or `dd` missing (plain `nc` then). */
const PROBE_NO_NC = 3;
const PROBE_NO_DD = 4;
const RELAY_PROBE = `command -v nc >/dev/null || exit ${PROBE_NO_NC}; command -v dd >/dev/null || exit ${PROBE_NO_DD}`;
/** The piped relay; the port is `$1`, so nothing from outside is parsed by the shell. dd's record counts are dropped. */
const PIPED_RELAY = 'nc 127.0.0.1 "$1" | dd bs=65536 2>/dev/null';
/** Actions after which the container's processes, and so every relay in it, are gone. Podman says `died`. */
const END_ACTIONS = new Set(['die', 'died', 'stop', 'destroy', 'remove', 'exited']);
/** Enough of a relay's stderr to quote `nc`'s own words; more is not read into memory. */
const MAX_STDERR_BYTES = 4096;

export interface RelayEnd {
  readonly reason: 'container-stopped' | 'engine-lost' | 'closed';
  readonly message: string;
}

export interface RelayOptions {
  /** The image for a helper when the container has no `nc`; absent: the smallest tagged image on the engine. */
  readonly helperImage?: string | undefined;
  readonly signal?: AbortSignal | undefined;
  /** Debug notes (the helper made and removed). */
  readonly log?: ((line: string) => void) | undefined;
  /** Run `nc` alone even where `dd` is there: the relay of containers without dd, for tests and the bench. */
  readonly plainNc?: boolean | undefined;
}

/** The smallest tagged image on the engine, or undefined when it has none. */
export async function smallestTaggedImage(client: EngineClient, signal?: AbortSignal): Promise<string | undefined> {
  const images = (await client.images.list({ signal })).filter((image) => (image.RepoTags ?? []).some((tag) => tag !== '<none>:<none>'));
  images.sort((a, b) => a.Size - b.Size);
  return images[0]?.RepoTags?.find((each) => each !== '<none>:<none>');
}

export class ForwardRelay {
  private readonly watch = new AbortController();
  private endReason: RelayEnd | undefined;
  private readonly listeners = new Set<(end: RelayEnd) => void>();
  /** Resolves once, when the container stops, the engine is lost, or close() is called. */
  readonly ended: Promise<RelayEnd>;

  private constructor(
    private readonly client: EngineClient,
    /** The container as inspected: its full id and name without the leading `/`. */
    readonly containerId: string,
    readonly containerName: string,
    /** Where the `nc` execs run: the container itself, or the helper in its namespace. */
    private readonly execTarget: string,
    readonly helperId: string | undefined,
    /** What each connection's exec runs there. */
    readonly program: RelayProgram,
    private readonly log: ((line: string) => void) | undefined,
  ) {
    this.ended = new Promise((resolve) => this.listeners.add(resolve));
  }

  /** Whether the connections go through a helper container (the container has no `nc`). */
  get throughHelper(): boolean {
    return this.helperId !== undefined;
  }

  /**
   * Checks the container runs, finds `nc` in it or makes a helper, and starts watching for its end. Throws a clear
   * EngineError: no such container, not running, no relay and no helper image.
   */
  static async open(client: EngineClient, container: string, options: RelayOptions = {}): Promise<ForwardRelay> {
    const { signal } = options;
    const inspect = await client.containers.inspect(container, { signal });
    const name = inspect.Name.replace(/^\//, '');
    if (!inspect.State.Running || inspect.State.Paused === true) {
      throw new EngineError('conflict', `Container ${name} is not running (${inspect.State.Status})`, { hint: 'Start it, then forward the port again' });
    }
    let helperId: string | undefined;
    let program = await relayProgram(client, inspect.Id, signal);
    if (program === undefined) {
      ({ helperId, program } = await makeHelper(client, inspect.Id, name, options));
    }
    if (options.plainNc === true) program = 'nc';
    const relay = new ForwardRelay(client, inspect.Id, name, helperId ?? inspect.Id, helperId, program, options.log);
    // Open once the event stream is: from then on the forward makes no request until a connection comes.
    await new Promise<void>((resolve) => relay.watchForEnd(Date.parse(inspect.State.StartedAt), resolve));
    if (relay.endReason?.reason === 'engine-lost') {
      await relay.removeHelper();
      throw new EngineError('unreachable', relay.endReason.message, { hint: 'Check that the engine answers, then forward the port again' });
    }
    return relay;
  }

  /**
   * One connection to `127.0.0.1:PORT` inside the container: the hijacked stream of a fresh `nc` exec. What is written
   * goes to the port; what comes back is multiplexed (stdout the port's bytes, stderr `nc`'s complaints).
   */
  async connect(port: number, signal?: AbortSignal): Promise<Duplex> {
    if (this.endReason) throw new EngineError('conflict', this.endReason.message);
    const { Id } = await this.client.exec.create(this.execTarget, {
      cmd: this.program === 'piped' ? ['sh', '-c', PIPED_RELAY, 'sh', String(port)] : ['nc', '127.0.0.1', String(port)],
      attachStdin: true,
      attachStdout: true,
      attachStderr: true,
      signal,
    });
    return this.client.exec.startAttached(Id, { tty: false, signal });
  }

  /** Calls `listener` once when the relay ends (at once if it has). */
  onEnd(listener: (end: RelayEnd) => void): () => void {
    if (this.endReason) {
      listener(this.endReason);
      return () => undefined;
    }
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Stops watching and removes the helper, if one was made. */
  async close(): Promise<void> {
    this.finish({ reason: 'closed', message: `Stopped forwarding to ${this.containerName}` });
    await this.removeHelper();
  }

  /** The text a connection's refusal shows: `nc`'s own words, and what to check. */
  refusal(port: number, stderr: string): EngineError {
    const words = stderr.trim().slice(0, MAX_STDERR_BYTES);
    return new EngineError('server', `Nothing answered on port ${port} in container ${this.containerName}${words ? `: ${words}` : ''}`, {
      engineMessage: words || undefined,
      hint: `Check that the program in the container listens on port ${port} (on 127.0.0.1 or 0.0.0.0)`,
    });
  }

  private watchForEnd(startedAtMs: number, opened: () => void): void {
    // Events since the container started, so a stop between the inspect and the stream's opening is not missed; the
    // ends of earlier runs (before StartedAt) are not this run's. After a clean end of the stream (Podman's log
    // rotation), the engine is asked whether the container still runs before the stream opens again.
    const since = Number.isFinite(startedAtMs) ? Math.floor(startedAtMs / 1000) : undefined;
    const events = lastingEvents(this.client, {
      since,
      filters: { type: ['container'], container: [this.containerId] },
      signal: this.watch.signal,
      onOpen: opened,
      beforeReopen: async () => {
        const end = await this.runEnd();
        if (end) this.finish(end);
        return end === undefined && !this.watch.signal.aborted;
      },
    });
    void (async () => {
      try {
        for await (const event of events) {
          if (isEndOfRun(event, startedAtMs)) {
            this.finish({ reason: 'container-stopped', message: `Container ${this.containerName} stopped` });
            break;
          }
        }
        this.finish({ reason: 'engine-lost', message: `The engine stopped sending events for ${this.containerName}` });
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        this.finish({ reason: 'engine-lost', message: `Lost the engine while forwarding to ${this.containerName}: ${reason}` });
      }
      opened();
      await this.removeHelper();
    })();
  }

  /** Why this run is over, asked of the engine after its event stream ended; undefined while the container runs. */
  private async runEnd(): Promise<RelayEnd | undefined> {
    try {
      const inspect = await this.client.containers.inspect(this.containerId, { signal: this.watch.signal });
      return inspect.State.Running ? undefined : { reason: 'container-stopped', message: `Container ${this.containerName} stopped` };
    } catch (error) {
      if (this.watch.signal.aborted) return undefined;
      if (isEngineError(error, 'not-found')) return { reason: 'container-stopped', message: `Container ${this.containerName} is gone` };
      const reason = error instanceof Error ? error.message : String(error);
      return { reason: 'engine-lost', message: `Lost the engine while forwarding to ${this.containerName}: ${reason}` };
    }
  }

  private finish(end: RelayEnd): void {
    if (this.endReason) return;
    this.endReason = end;
    this.watch.abort();
    for (const listener of this.listeners) listener(end);
    this.listeners.clear();
  }

  private helperRemoval: Promise<void> | undefined;

  private removeHelper(): Promise<void> {
    if (this.helperId === undefined) return Promise.resolve();
    const id = this.helperId;
    this.helperRemoval ??= this.client.containers.remove(id, { force: true }).then(
      () => this.log?.(`Removed port-forward helper ${id.slice(0, 12)}`),
      (error: unknown) => {
        if (!isEngineError(error, 'not-found')) this.log?.(`Removing port-forward helper ${id.slice(0, 12)}: ${String(error)}`);
      },
    );
    return this.helperRemoval;
  }
}

function isEndOfRun(event: EngineEvent, startedAtMs: number): boolean {
  const action = event.Action.split(':')[0]?.trim() ?? '';
  if (!END_ACTIONS.has(action)) return false;
  const atMs = typeof event.timeNano === 'number' && event.timeNano > 0 ? event.timeNano / 1e6 : event.time * 1000;
  return !Number.isFinite(startedAtMs) || atMs >= startedAtMs;
}

/** How a relay runs in the container (see RelayProgram), or undefined when it has no `nc`. One exec when it has sh. */
async function relayProgram(client: EngineClient, id: string, signal?: AbortSignal): Promise<RelayProgram | undefined> {
  const probe = await execCapture(client, id, ['sh', '-c', RELAY_PROBE], signal);
  if (probe.exitCode === 0) return 'piped';
  if (probe.exitCode === PROBE_NO_NC) return undefined;
  if (probe.exitCode === PROBE_NO_DD) return 'nc';
  // No sh (or it failed): busybox nc with no arguments prints its usage and exits 1; a missing program is the
  // runtime's 126 or 127.
  const outcome = await execCapture(client, id, ['nc'], signal);
  return NOT_FOUND_STATUSES.has(outcome.exitCode) ? undefined : 'nc';
}

async function makeHelper(client: EngineClient, id: string, name: string, options: RelayOptions): Promise<{ helperId: string; program: RelayProgram }> {
  const { signal } = options;
  const configured = options.helperImage?.trim();
  const image = configured !== undefined && configured !== '' ? configured : await smallestTaggedImage(client, signal);
  if (image === undefined) {
    throw new EngineError('not-found', `Container ${name} has no nc to relay connections, and this engine has no image for a helper`, {
      hint: 'Berth never pulls one: load a small image with busybox (e.g. busybox) and set berth.files.helperImage to it',
    });
  }
  let helperId: string;
  try {
    ({ Id: helperId } = await client.containers.create(
      {
        Image: image,
        // Its only work is to hold a process in the namespace while the relays run beside it.
        Cmd: ['sleep', '2147483647'],
        Labels: { [FORWARD_HELPER_LABEL]: id },
        HostConfig: { NetworkMode: `container:${id}`, AutoRemove: true },
      },
      { signal },
    ));
  } catch (error) {
    if (isEngineError(error, 'not-found')) {
      throw new EngineError('not-found', `Container ${name} has no nc, and the helper image ${image} is not on this engine`, {
        engineMessage: error.engineMessage,
        hint: 'Berth never pulls it: load a small image with busybox nc and set berth.files.helperImage to it',
        cause: error,
      });
    }
    throw error;
  }
  let program: RelayProgram | undefined;
  try {
    await client.containers.start(helperId, { signal });
    program = await relayProgram(client, helperId, signal);
    if (program === undefined) {
      throw new EngineError('not-found', `Neither container ${name} nor the helper image ${image} has nc to relay connections`, {
        hint: 'Set berth.files.helperImage to an image with busybox nc',
      });
    }
  } catch (error) {
    await client.containers.remove(helperId, { force: true }).catch(() => undefined);
    if (isEngineError(error) && error.kind !== 'not-found' && error.kind !== 'cancelled') {
      throw new EngineError(error.kind, `The port-forward helper from ${image} could not run: ${error.message}`, {
        engineMessage: error.engineMessage,
        hint: 'Set berth.files.helperImage to an image with busybox (sleep and nc)',
        cause: error,
      });
    }
    throw error;
  }
  options.log?.(`Forwarding to ${name} through helper container ${helperId.slice(0, 12)} (${image}): the container has no nc`);
  return { helperId, program };
}
