/**
 * An in-memory engine implementing the slice of the client the model needs (ModelSource). It is a
 * unit-level seam for the model's logic, not a model of the wire protocol: engine-level behaviour is
 * covered by the engine and integration suites against real engines.
 */
import { EngineError, type ContainerInspect, type ContainerSummary, type EngineEvent, type ImageInspect, type ImageSummary, type ListFilters } from '../../../src/engine';
import type { ModelSource } from '../../../src/model/source';
import { until as waitUntil } from '../../support/wait';

class EventQueue implements AsyncIterableIterator<EngineEvent> {
  private readonly buffered: EngineEvent[] = [];
  private waiting: { resolve: (r: IteratorResult<EngineEvent>) => void; reject: (e: unknown) => void } | undefined;
  private ended: { error?: Error } | undefined;

  push(event: EngineEvent): void {
    if (this.waiting) {
      const { resolve } = this.waiting;
      this.waiting = undefined;
      resolve({ value: event, done: false });
    } else this.buffered.push(event);
  }

  end(error?: Error): void {
    this.ended = error === undefined ? {} : { error };
    if (this.waiting) {
      const waiting = this.waiting;
      this.waiting = undefined;
      if (error === undefined) waiting.resolve({ value: undefined, done: true });
      else waiting.reject(error);
    }
  }

  next(): Promise<IteratorResult<EngineEvent>> {
    const event = this.buffered.shift();
    if (event) return Promise.resolve({ value: event, done: false });
    if (this.ended) {
      return this.ended.error === undefined ? Promise.resolve({ value: undefined, done: true }) : Promise.reject(this.ended.error);
    }
    return new Promise((resolve, reject) => (this.waiting = { resolve, reject }));
  }

  return(): Promise<IteratorResult<EngineEvent>> {
    this.end();
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<EngineEvent> {
    return this;
  }
}

export class MemoryEngine implements ModelSource {
  readonly containers = new Map<string, ContainerSummary>();
  readonly images = new Map<string, ImageSummary>();
  /** Every call, e.g. `listContainers:all`, `listContainers:id=abc`, `inspectImage:x`, `events:since=…`. */
  readonly calls: string[] = [];
  /** When set, every call fails with it (the engine is down). */
  down: Error | undefined;
  private streams: EventQueue[] = [];
  private clock = 1_700_000_000_000_000_000;

  addContainer(id: string, name: string, state: ContainerSummary['State'] = 'running', extra: Partial<ContainerSummary> = {}): ContainerSummary {
    const status = state === 'running' ? 'Up 1 second' : 'Exited (0) 1 second ago';
    const summary = containerSummary(id, name, { ImageID: 'sha256:img1', State: state, Status: status, ...extra });
    this.containers.set(id, summary);
    return summary;
  }

  addImage(id: string, tags: string[]): ImageSummary {
    const summary: ImageSummary = { Id: `sha256:${id}`, ParentId: '', RepoTags: tags, RepoDigests: [], Created: 1_700_000_000, Size: 1_000_000, Labels: null, Containers: -1 };
    this.images.set(summary.Id, summary);
    return summary;
  }

  /** Sends an event to every open event stream. */
  emit(Type: string, Action: string, ID: string, Attributes: Record<string, string> = {}): EngineEvent {
    this.clock += 1_000_123;
    const event: EngineEvent = { Type, Action, Actor: { ID, Attributes }, time: Math.floor(this.clock / 1e9), timeNano: this.clock };
    for (const stream of this.streams) stream.push(event);
    return event;
  }

  /** Ends the open event streams, normally or with an error. */
  endStreams(error?: Error): void {
    for (const stream of this.streams.splice(0)) stream.end(error);
  }

  get openStreams(): number {
    return this.streams.length;
  }

  async listContainers(options: { all?: boolean; filters?: ListFilters }): Promise<ContainerSummary[]> {
    const ids = options.filters?.['id'];
    this.calls.push(ids ? `listContainers:id=${ids.join(',')}` : 'listContainers:all');
    await Promise.resolve();
    if (this.down) throw this.down;
    const all = [...this.containers.values()];
    return ids ? all.filter((summary) => ids.some((id) => summary.Id.startsWith(id))) : all;
  }

  async listImages(): Promise<ImageSummary[]> {
    this.calls.push('listImages:all');
    await Promise.resolve();
    if (this.down) throw this.down;
    return [...this.images.values()];
  }

  /** Podman 4.3 answers an image inspect by bare 64-hex id with a 500 (the `sha256:` form gets a proper 404). */
  podmanImageIds = false;

  async inspectImage(name: string): Promise<ImageInspect> {
    this.calls.push(`inspectImage:${name}`);
    await Promise.resolve();
    if (this.down) throw this.down;
    if (this.podmanImageIds && /^[0-9a-f]{64}$/.test(name)) {
      throw new EngineError('server', 'cannot specify 64-byte hexadecimal strings', { status: 500 });
    }
    const image = [...this.images.values()].find((candidate) => candidate.Id === name || candidate.Id === `sha256:${name}` || (candidate.RepoTags ?? []).includes(name));
    if (!image) throw new EngineError('not-found', `No such image: ${name}`, { status: 404 });
    return { Id: image.Id, RepoTags: image.RepoTags, Created: new Date(image.Created * 1000).toISOString(), Size: image.Size };
  }

  async inspectContainer(id: string): Promise<ContainerInspect> {
    this.calls.push(`inspectContainer:${id}`);
    await Promise.resolve();
    if (this.down) throw this.down;
    const container = this.containers.get(id);
    if (!container) throw new EngineError('not-found', `No such container: ${id}`, { status: 404 });
    return inspectOf(container);
  }

  events(options: { since?: string; signal?: AbortSignal }): AsyncIterable<EngineEvent> {
    this.calls.push(`events:since=${options.since ?? ''}`);
    if (this.down) {
      const error = this.down;
      return { [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(error) }) };
    }
    const queue = new EventQueue();
    this.streams.push(queue);
    options.signal?.addEventListener('abort', () => {
      this.streams = this.streams.filter((stream) => stream !== queue);
      queue.end(new EngineError('cancelled', 'Cancelled'));
    });
    return queue;
  }
}

/** Waits for CONDITION, checking again each time the queued callbacks have run (the model's work is all in-process). */
export function until(condition: () => boolean, what: string): Promise<void> {
  return waitUntil(what, condition, { intervalMs: 0, timeoutMs: 10_000 });
}

export function hex(n: number): string {
  return n.toString(16).padStart(64, '0');
}

/** The inspect an engine gives for a listed container: what the model maps back to the listing's fields. */
function inspectOf(container: ContainerSummary): ContainerInspect {
  const created = new Date(container.Created * 1000).toISOString();
  const [path = '', ...args] = container.Command.split(' ');
  const exitCode = /^Exited \((\d+)\)/.exec(container.Status)?.[1];
  return {
    Id: container.Id,
    Name: container.Names[0] ?? '',
    Created: created,
    Image: container.ImageID,
    Path: path,
    Args: args,
    State: {
      Status: container.State,
      Running: ['running', 'paused', 'restarting'].includes(container.State),
      Paused: container.State === 'paused',
      ExitCode: exitCode === undefined ? 0 : Number(exitCode),
      StartedAt: container.State === 'created' ? '0001-01-01T00:00:00Z' : created,
      FinishedAt: container.State === 'exited' ? created : '0001-01-01T00:00:00Z',
    },
    Config: { Tty: false, Cmd: [path, ...args], Env: null, Labels: container.Labels, Image: container.Image },
    HostConfig: {},
    NetworkSettings: { Ports: {} },
    Mounts: [],
  };
}

/** A container as the engine lists it: a running busybox `sh`, unless OVERRIDES say otherwise. */
export function containerSummary(id: string, name: string, overrides: Partial<ContainerSummary> = {}): ContainerSummary {
  return {
    Id: id,
    Names: [`/${name}`],
    Image: 'busybox',
    ImageID: 'sha256:i',
    Command: 'sh',
    Created: 1_700_000_000,
    Ports: [],
    Labels: {},
    State: 'running',
    Status: 'Up 1 second',
    ...overrides,
  };
}
