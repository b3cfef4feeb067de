/**
 * One engine's networks with their attached containers, kept current by the engine's network events while someone
 * looks (start/stop follow the view's visibility). The list endpoint leaves `Containers` empty on dockerd, so each
 * network is inspected; an event (create, destroy/remove, connect, disconnect) inspects only the network it names.
 * No `vscode` here.
 */
import { Emitter } from '../common/emitter';
import { isEngineError, type EngineEvent, type ListFilters, type Network } from '../engine';
import { FollowedStore, type StoreLog } from '../model/followedStore';

/** The slice of the engine client the store uses. */
export interface NetworkSource {
  listNetworks(options: { signal?: AbortSignal }): Promise<Network[]>;
  inspectNetwork(idOrName: string, options: { signal?: AbortSignal }): Promise<Network>;
  events(options: { since?: string; filters?: ListFilters; signal?: AbortSignal }): AsyncIterable<EngineEvent>;
}

export class NetworkStore extends FollowedStore {
  private readonly byId = new Map<string, Network>();
  private readonly _onDidChange = this._register(new Emitter<void>());
  /** Fired after the list or a network's inspect changed. */
  readonly onDidChange = this._onDidChange.event;

  constructor(
    private readonly source: NetworkSource,
    log: StoreLog,
  ) {
    super({ type: 'network', name: 'Networks', events: (options) => source.events(options) }, log);
  }

  /** Networks by name. */
  networks(): Network[] {
    return [...this.byId.values()].sort((a, b) => a.Name.localeCompare(b.Name));
  }

  network(id: string): Network | undefined {
    return this.byId.get(id);
  }

  /** Lists again now (after a command of ours, so the view does not wait for the event). */
  async refresh(signal?: AbortSignal): Promise<void> {
    await this.list(signal);
  }

  protected async list(signal?: AbortSignal): Promise<void> {
    const listed = await this.source.listNetworks({ signal });
    const inspected = await Promise.all(listed.map((network) => this.source.inspectNetwork(network.Id, { signal }).catch(() => network)));
    this.byId.clear();
    for (const network of inspected) this.byId.set(network.Id, network);
    this.log('debug', `Listed ${inspected.length} networks`);
    this._onDidChange.fire();
  }

  protected async answer(event: EngineEvent, signal: AbortSignal): Promise<void> {
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
