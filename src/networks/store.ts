/**
 * One engine's networks with their attached containers, kept current by the engine's network events while someone
 * looks (start/stop follow the view's visibility). The list endpoint leaves `Containers` empty on dockerd, so each
 * network is inspected; an event (create, destroy/remove, connect, disconnect) inspects only the network it names.
 * No `vscode` here.
 */
import { Emitter } from '../common/emitter';
import { Disposable, toDisposable } from '../common/lifecycle';
import { errorMessage } from '../common/errors';
import { isEngineError, type EngineEvent, type ListFilters, type Network } from '../engine';
import { backoffDelay, sinceBefore, sinceFromEvent } from '../model/reconnect';

/** The slice of the engine client the store uses. */
export interface NetworkSource {
  listNetworks(options: { signal?: AbortSignal }): Promise<Network[]>;
  inspectNetwork(idOrName: string, options: { signal?: AbortSignal }): Promise<Network>;
  events(options: { since?: string; filters?: ListFilters; signal?: AbortSignal }): AsyncIterable<EngineEvent>;
}

export class NetworkStore extends Disposable {
  private readonly byId = new Map<string, Network>();
  private following: AbortController | undefined;
  private lastSince: string | undefined;
  private readonly _onDidChange = this._register(new Emitter<void>());
  /** Fired after the list or a network's inspect changed. */
  readonly onDidChange = this._onDidChange.event;

  constructor(
    private readonly source: NetworkSource,
    private readonly log: (level: 'debug' | 'warn', message: string) => void,
  ) {
    super();
    this._register(toDisposable(() => this.stop()));
  }

  /** Networks by name. */
  networks(): Network[] {
    return [...this.byId.values()].sort((a, b) => a.Name.localeCompare(b.Name));
  }

  network(id: string): Network | undefined {
    return this.byId.get(id);
  }

  /** Lists and follows the events; a second call while following does nothing. */
  start(): void {
    if (this.following || this.isDisposed) return;
    const controller = new AbortController();
    this.following = controller;
    void this.follow(controller.signal);
  }

  stop(): void {
    this.following?.abort();
    this.following = undefined;
  }

  /** Lists again now (after a command of ours, so the view does not wait for the event). */
  async refresh(signal?: AbortSignal): Promise<void> {
    await this.list(signal);
  }

  private async follow(signal: AbortSignal): Promise<void> {
    for (let failures = 0; !signal.aborted; ) {
      try {
        const since = this.lastSince ?? sinceBefore(Date.now(), 1000);
        const events = this.source.events({ since, filters: { type: ['network'] }, signal })[Symbol.asyncIterator]();
        const first = events.next();
        first.catch(() => undefined);
        await this.list(signal);
        failures = 0;
        for (let next = await first; !next.done; next = await events.next()) await this.onEvent(next.value, signal);
      } catch (error) {
        if (signal.aborted) return;
        failures++;
        if (!isEngineError(error, 'cancelled')) this.log('warn', `Networks: ${errorMessage(error)}; trying again`);
        await new Promise((resolve) => setTimeout(resolve, backoffDelay(failures - 1)));
      }
    }
  }

  private async list(signal?: AbortSignal): Promise<void> {
    const listed = await this.source.listNetworks({ signal });
    const inspected = await Promise.all(listed.map((network) => this.source.inspectNetwork(network.Id, { signal }).catch(() => network)));
    this.byId.clear();
    for (const network of inspected) this.byId.set(network.Id, network);
    this.log('debug', `Listed ${inspected.length} networks`);
    this._onDidChange.fire();
  }

  private async onEvent(event: EngineEvent, signal: AbortSignal): Promise<void> {
    const since = sinceFromEvent(event.timeNano, event.time);
    if (since) this.lastSince = since;
    if (event.Type !== 'network') return;
    const action = event.Action ?? '';
    // Podman's connect/disconnect events name the container, not the network (and Podman 4 sends none for create
    // or remove): an event about no network we know lists them all again, which is cheap for a handful of networks.
    const id = event.Actor?.ID ?? '';
    const known = this.byId.get(id) ?? [...this.byId.values()].find((network) => network.Name === event.Actor?.Attributes?.['name']);
    if (action === 'prune' || known === undefined) return this.list(signal);
    if (action === 'destroy' || action === 'remove') {
      this.byId.delete(known.Id);
    } else {
      try {
        this.byId.set(known.Id, await this.source.inspectNetwork(known.Id, { signal }));
      } catch (error) {
        // Removed again before we asked: its destroy event follows.
        if (!isEngineError(error, 'not-found')) throw error;
        return;
      }
    }
    this._onDidChange.fire();
  }
}
