/**
 * EngineClient: the typed Engine API over one transport. It is built in layers, one file per endpoint group of the
 * Engine API, each extending the one below: api/connection.ts (negotiation and plumbing), api/system.ts,
 * api/containers.ts, api/images.ts, api/exec.ts, api/archive.ts, api/volumes.ts (with disk usage and prune),
 * api/networks.ts, api/stats.ts (stats and top), api/build.ts. The API version is negotiated lazily from the first ping (min of the client's highest and the
 * daemon's), or fixed. Every path carries the version prefix; JSON bodies carry their content type; query booleans
 * are 1/0 and `filters` is JSON.
 */
import { resolveEndpoint, type LogFunction } from '../connection';
import { BuildEndpoints } from './build';

export type { PruneTarget } from './volumes';
export type { ArchiveStream, ContainerPathStat, PutArchiveOptions } from './archive';
export { decodePathStat } from './archive';
export { BuildError, type BuildImageOptions, type BuildMessage } from './build';
export { CLIENT_MAX_API_VERSION, compareVersions, type EngineClientOptions, type LogFunction } from '../connection';

export interface FromEnvironmentOptions {
  readonly host?: string | undefined;
  readonly env?: NodeJS.ProcessEnv | undefined;
  readonly homeDir?: string | undefined;
  readonly apiVersion?: string | undefined;
  readonly log?: LogFunction | undefined;
}

export class EngineClient extends BuildEndpoints {
  /** Resolves the engine like the docker CLI (explicit host, DOCKER_HOST, contexts, default sockets). */
  static fromEnvironment(options: FromEnvironmentOptions = {}): EngineClient {
    const endpoint = resolveEndpoint({ host: options.host, env: options.env, homeDir: options.homeDir });
    return new EngineClient({ endpoint, apiVersion: options.apiVersion, log: options.log });
  }
}
