/**
 * An in-memory engine for the tree benchmark: the slice of the client the model needs (ModelSource), answering
 * from a Map on the next microtask, so what is timed is Berth's own model, tree and row rendering. Summaries are
 * replaced, never mutated, as fresh JSON from a real engine would be.
 */
import type { ContainerInspect, ContainerState, ContainerSummary, EngineEvent, ImageInspect, ImageSummary, ListFilters } from '../src/engine';
import type { ModelSource } from '../src/model/source';

const IMAGE_ID = `sha256:${'b'.repeat(64)}`;

/** An events stream: a queue that the model's `for await` drains. */
class EventStream implements AsyncIterableIterator<EngineEvent> {
  private readonly queued: EngineEvent[] = [];
  private waiting: ((result: IteratorResult<EngineEvent>) => void) | undefined;
  private ended = false;

  push(event: EngineEvent): void {
    const waiting = this.waiting;
    if (waiting) {
      this.waiting = undefined;
      waiting({ value: event, done: false });
    } else {
      this.queued.push(event);
    }
  }

  next(): Promise<IteratorResult<EngineEvent>> {
    const event = this.queued.shift();
    if (event) return Promise.resolve({ value: event, done: false });
    if (this.ended) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => (this.waiting = resolve));
  }

  return(): Promise<IteratorResult<EngineEvent>> {
    this.ended = true;
    this.waiting?.({ value: undefined, done: true });
    this.waiting = undefined;
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<EngineEvent> {
    return this;
  }
}

export function containerId(index: number): string {
  return `c${index.toString(16).padStart(63, '0')}`;
}

function summary(id: string, name: string, state: ContainerState): ContainerSummary {
  return {
    Id: id,
    Names: [`/${name}`],
    Image: 'berth-bench/busybox:latest',
    ImageID: IMAGE_ID,
    Command: 'sleep 3600',
    Created: 1_700_000_000,
    Ports: [],
    Labels: { 'berth.bench': '1' },
    State: state,
    Status: state === 'running' ? 'Up 1 second' : state === 'exited' ? 'Exited (137) 1 second ago' : 'Created',
  };
}

export class MemorySource implements ModelSource {
  private readonly containers = new Map<string, ContainerSummary>();
  private readonly streams = new Set<EventStream>();
  private clockNs = 1_700_000_000_000_000_000;

  /** `count` containers named bench-1 … bench-N, created and never started. */
  constructor(count: number) {
    for (let index = 1; index <= count; index++) {
      const id = containerId(index);
      this.containers.set(id, summary(id, `bench-${index}`, 'created'));
    }
  }

  /** Changes a container's state in the "engine" and sends the event that says so; returns the event. */
  change(id: string, action: 'create' | 'start' | 'die' | 'destroy', name = `bench-${id.slice(-6)}`): EngineEvent {
    if (action === 'destroy') this.containers.delete(id);
    else {
      const state = action === 'create' ? 'created' : action === 'start' ? 'running' : 'exited';
      const previous = this.containers.get(id);
      this.containers.set(id, summary(id, previous ? (previous.Names[0] ?? '').slice(1) : name, state));
    }
    this.clockNs += 1_000_123;
    const event: EngineEvent = { Type: 'container', Action: action, Actor: { ID: id, Attributes: {} }, time: Math.floor(this.clockNs / 1e9), timeNano: this.clockNs };
    for (const stream of this.streams) stream.push(event);
    return event;
  }

  async listContainers(options: { all?: boolean; filters?: ListFilters }): Promise<ContainerSummary[]> {
    await Promise.resolve();
    const ids = options.filters?.['id'];
    if (!ids) return [...this.containers.values()];
    return ids.map((id) => this.containers.get(id)).filter((found): found is ContainerSummary => found !== undefined);
  }

  async listImages(): Promise<ImageSummary[]> {
    await Promise.resolve();
    return [{ Id: IMAGE_ID, ParentId: '', RepoTags: ['berth-bench/busybox:latest'], RepoDigests: [], Created: 1_700_000_000, Size: 2_000_000, Labels: null, Containers: -1 }];
  }

  async inspectImage(name: string): Promise<ImageInspect> {
    await Promise.resolve();
    return { Id: IMAGE_ID, RepoTags: ['berth-bench/busybox:latest'], Created: new Date(1_700_000_000_000).toISOString(), Size: 2_000_000, RepoDigests: [name] };
  }

  async inspectContainer(id: string): Promise<ContainerInspect> {
    await Promise.resolve();
    const found = this.containers.get(id);
    const state = found?.State ?? 'exited';
    return {
      Id: id,
      Name: found?.Names[0] ?? '',
      Created: '',
      Image: IMAGE_ID,
      State: { Status: state, Running: state === 'running', ExitCode: 137, StartedAt: '', FinishedAt: '' },
      Config: { Tty: false, Cmd: null, Env: null, Labels: null, Image: 'berth-bench/busybox:latest' },
      HostConfig: {},
    };
  }

  events(options: { signal?: AbortSignal }): AsyncIterable<EngineEvent> {
    const stream = new EventStream();
    this.streams.add(stream);
    options.signal?.addEventListener('abort', () => {
      this.streams.delete(stream);
      void stream.return();
    });
    return stream;
  }
}
