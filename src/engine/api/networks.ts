/** The Engine API's Network endpoints: list, inspect, create, remove, connect and disconnect a container. */
import { buildQuery, type CallOptions, JSON_HEADERS } from '../connection';
import type { ConnectNetworkOptions, CreateNetworkBody, FilterOptions, Network } from './storageTypes';
import { VolumeEndpoints } from './volumes';

export class NetworkEndpoints extends VolumeEndpoints {
  listNetworks(options: FilterOptions = {}): Promise<Network[]> {
    const query = buildQuery({ filters: options.filters });
    return this.endpointJson({ method: 'GET', path: `/networks${query}`, subject: 'network', signal: options.signal });
  }

  inspectNetwork(idOrName: string, options: CallOptions = {}): Promise<Network> {
    return this.endpointJson({ method: 'GET', path: `/networks/${encodeURIComponent(idOrName)}`, subject: 'network', signal: options.signal });
  }

  /** Creates a network; the caller must never do this on a dockerd whose bridge it may not touch (tests: Podman only). */
  createNetwork(body: CreateNetworkBody, options: CallOptions = {}): Promise<{ Id: string; Warning?: string }> {
    return this.endpointJson({
      method: 'POST',
      path: '/networks/create',
      subject: 'network',
      headers: JSON_HEADERS,
      body: JSON.stringify({ CheckDuplicate: true, ...body }),
      signal: options.signal,
    });
  }

  async removeNetwork(idOrName: string, options: CallOptions = {}): Promise<void> {
    await this.endpointCall({ method: 'DELETE', path: `/networks/${encodeURIComponent(idOrName)}`, subject: 'network', signal: options.signal });
  }

  async connectNetwork(network: string, container: string, options: CallOptions = {}): Promise<void> {
    await this.endpointCall({
      method: 'POST',
      path: `/networks/${encodeURIComponent(network)}/connect`,
      subject: 'network',
      headers: JSON_HEADERS,
      body: JSON.stringify({ Container: container }),
      signal: options.signal,
    });
  }

  async disconnectNetwork(network: string, container: string, options: ConnectNetworkOptions = {}): Promise<void> {
    await this.endpointCall({
      method: 'POST',
      path: `/networks/${encodeURIComponent(network)}/disconnect`,
      subject: 'network',
      headers: JSON_HEADERS,
      body: JSON.stringify({ Container: container, Force: options.force === true }),
      signal: options.signal,
    });
  }
}
