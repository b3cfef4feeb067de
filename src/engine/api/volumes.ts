/** The Engine API's Volume endpoints (`client.volumes`); a route the engine lacks is named as such (`endpointJson`). */
import { buildQuery, type CallOptions, type EngineConnection, JSON_HEADERS } from '../connection';
import type { CreateVolumeBody, FilterOptions, RemoveVolumeOptions, Volume, VolumeList } from './storageTypes';

export class VolumeEndpoints {
  constructor(private readonly connection: EngineConnection) {}

  async list(options: FilterOptions = {}): Promise<Volume[]> {
    const query = buildQuery({ filters: options.filters });
    const list = await this.connection.endpointJson<VolumeList>({ method: 'GET', path: `/volumes${query}`, subject: 'volume', signal: options.signal });
    return list.Volumes ?? [];
  }

  inspect(name: string, options: CallOptions = {}): Promise<Volume> {
    return this.connection.endpointJson({ method: 'GET', path: `/volumes/${encodeURIComponent(name)}`, subject: 'volume', signal: options.signal });
  }

  create(body: CreateVolumeBody, options: CallOptions = {}): Promise<Volume> {
    return this.connection.endpointJson({
      method: 'POST',
      path: '/volumes/create',
      subject: 'volume',
      headers: JSON_HEADERS,
      body: JSON.stringify(body),
      signal: options.signal,
    });
  }

  async remove(name: string, options: RemoveVolumeOptions = {}): Promise<void> {
    const query = buildQuery({ force: options.force });
    await this.connection.endpointCall({ method: 'DELETE', path: `/volumes/${encodeURIComponent(name)}${query}`, subject: 'volume', signal: options.signal });
  }
}
