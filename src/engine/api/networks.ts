/** The Engine API's Network endpoints (`client.networks`): list, inspect, create, remove, connect and disconnect a container. */
import { buildQuery, type CallOptions, type EngineConnection, JSON_HEADERS } from '../connection';
import type { ConnectNetworkOptions, CreateNetworkBody, FilterOptions, Network } from './storageTypes';

export class NetworkEndpoints {
  constructor(private readonly connection: EngineConnection) {}

  list(options: FilterOptions = {}): Promise<Network[]> {
    const query = buildQuery({ filters: options.filters });
    return this.connection.endpointJson({ method: 'GET', path: `/networks${query}`, subject: 'network', signal: options.signal });
  }

  inspect(idOrName: string, options: CallOptions = {}): Promise<Network> {
    return this.connection.endpointJson({ method: 'GET', path: `/networks/${encodeURIComponent(idOrName)}`, subject: 'network', signal: options.signal });
  }

  /** Creates a network; the caller must never do this on a dockerd whose bridge it may not touch (tests: Podman only). */
  create(body: CreateNetworkBody, options: CallOptions = {}): Promise<{ Id: string; Warning?: string }> {
    return this.connection.endpointJson({
      method: 'POST',
      path: '/networks/create',
      subject: 'network',
      headers: JSON_HEADERS,
      body: JSON.stringify({ CheckDuplicate: true, ...body }),
      signal: options.signal,
    });
  }

  async remove(idOrName: string, options: CallOptions = {}): Promise<void> {
    await this.connection.endpointCall({ method: 'DELETE', path: `/networks/${encodeURIComponent(idOrName)}`, subject: 'network', signal: options.signal });
  }

  async connect(network: string, container: string, options: CallOptions = {}): Promise<void> {
    await this.membership('connect', network, { Container: container }, options.signal);
  }

  async disconnect(network: string, container: string, options: ConnectNetworkOptions = {}): Promise<void> {
    await this.membership('disconnect', network, { Container: container, Force: options.force === true }, options.signal);
  }

  private async membership(action: 'connect' | 'disconnect', network: string, body: object, signal: AbortSignal | undefined): Promise<void> {
    await this.connection.endpointCall({
      method: 'POST',
      path: `/networks/${encodeURIComponent(network)}/${action}`,
      subject: 'network',
      headers: JSON_HEADERS,
      body: JSON.stringify(body),
      signal,
    });
  }
}
