/**
 * The Engine API's Volume, disk-usage and prune endpoints. A 404 without the engine's usual "No such …" text means
 * the route itself is missing (an older API version, or Podman's compat layer): that becomes an error naming the
 * engine and the endpoint, instead of "not found".
 */
import { EngineError, isEngineError, buildQuery, type CallOptions, JSON_HEADERS, type CallSpec } from '../connection';
import type { CreateVolumeBody, DiskUsage, FilterOptions, PruneReport, RemoveVolumeOptions, Volume, VolumeList } from './storageTypes';
import { ArchiveEndpoints } from './archive';

/** dockerd's answer for an unknown route is `page not found`; Podman's is the bare text `Not Found`. */
const MISSING_ROUTE = /^(404 )?(page )?not found$/i;

/** Which prune endpoint lists its removed objects under which key. */
const PRUNED_KEYS = {
  containers: 'ContainersDeleted',
  images: 'ImagesDeleted',
  volumes: 'VolumesDeleted',
  networks: 'NetworksDeleted',
  build: 'CachesDeleted',
} as const;
export type PruneTarget = keyof typeof PRUNED_KEYS;

export class VolumeEndpoints extends ArchiveEndpoints {
  async listVolumes(options: FilterOptions = {}): Promise<Volume[]> {
    const query = buildQuery({ filters: options.filters });
    const list = await this.endpointJson<VolumeList>({ method: 'GET', path: `/volumes${query}`, subject: 'volume', signal: options.signal });
    return list.Volumes ?? [];
  }

  inspectVolume(name: string, options: CallOptions = {}): Promise<Volume> {
    return this.endpointJson({ method: 'GET', path: `/volumes/${encodeURIComponent(name)}`, subject: 'volume', signal: options.signal });
  }

  createVolume(body: CreateVolumeBody, options: CallOptions = {}): Promise<Volume> {
    return this.endpointJson({
      method: 'POST',
      path: '/volumes/create',
      subject: 'volume',
      headers: JSON_HEADERS,
      body: JSON.stringify(body),
      signal: options.signal,
    });
  }

  async removeVolume(name: string, options: RemoveVolumeOptions = {}): Promise<void> {
    const query = buildQuery({ force: options.force });
    await this.endpointCall({ method: 'DELETE', path: `/volumes/${encodeURIComponent(name)}${query}`, subject: 'volume', signal: options.signal });
  }

  /** `GET /system/df`: costly on a busy engine, so only ever called on demand. */
  diskUsage(options: CallOptions = {}): Promise<DiskUsage> {
    return this.endpointJson({ method: 'GET', path: '/system/df', subject: 'engine', signal: options.signal, long: true });
  }

  /** One prune call; `filters` as the engine reads them (`label`, `label!`, `until`, `dangling`). */
  async prune(target: PruneTarget, options: FilterOptions = {}): Promise<PruneReport> {
    const query = buildQuery({ filters: options.filters });
    const path = target === 'build' ? `/build/prune${query}` : `/${target}/prune${query}`;
    const answer = await this.endpointJson<Record<string, unknown>>({ method: 'POST', path, subject: 'engine', signal: options.signal, long: true });
    return { removed: removedNames(answer[PRUNED_KEYS[target]]), spaceReclaimed: Number(answer['SpaceReclaimed'] ?? 0) || 0 };
  }

  protected async endpointJson<T>(spec: CallSpec): Promise<T> {
    try {
      return await this.json<T>(spec);
    } catch (error) {
      throw this.missingEndpointOr(error, spec);
    }
  }

  protected async endpointCall(spec: CallSpec): Promise<void> {
    try {
      await this.call(spec);
    } catch (error) {
      throw this.missingEndpointOr(error, spec);
    }
  }

  /** The engine as a user knows it: `Podman` or `Docker`, with the API version spoken. */
  engineName(): string {
    const ping = this.pingInfo;
    const product = ping?.server?.startsWith('Libpod/') === true || ping?.libpodApiVersion !== undefined ? 'Podman' : 'Docker Engine';
    return ping?.apiVersion !== undefined ? `${product} (API ${ping.apiVersion})` : product;
  }

  private missingEndpointOr(error: unknown, spec: CallSpec): unknown {
    if (!isEngineError(error, 'not-found') || !MISSING_ROUTE.test(error.engineMessage ?? '')) return error;
    const route = `${spec.method} ${spec.path.split('?')[0] ?? spec.path}`;
    return new EngineError('version', `${this.engineName()} at ${this.endpoint.display} has no ${route} endpoint`, {
      status: error.status,
      engineMessage: error.engineMessage,
      endpoint: this.endpoint.display,
      hint: 'This engine or its API version does not offer it; use a newer engine, or do it with the engine\'s own tools',
      cause: error,
    });
  }
}

/** Prune answers list objects as names (volumes, networks), ids (containers, caches) or `{Untagged|Deleted}` (images). */
function removedNames(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item: unknown): string[] => {
    if (typeof item === 'string') return [item];
    if (typeof item === 'object' && item !== null) {
      const entry = item as { Deleted?: unknown; Untagged?: unknown };
      const name = entry.Deleted ?? entry.Untagged;
      return typeof name === 'string' ? [name] : [];
    }
    return [];
  });
}
