/**
 * EngineClient: the typed Engine API over one transport, composed by concern as the Python docker SDK shapes its
 * client: `client.containers` (api/containers.ts, with stats.ts and archive.ts), `client.images` (api/images.ts, with
 * build.ts), `client.exec`, `client.volumes`, `client.networks` and `client.system` (ping, version, info, events,
 * df, prune). Each group is a small class holding the one EngineConnection (connection/engineConnection.ts) they
 * share: negotiation, the request helpers and close live there only. The API version is negotiated lazily from the
 * first ping (min of the client's highest and the daemon's), or fixed. Every path carries the version prefix; JSON
 * bodies carry their content type; query booleans are 1/0 and `filters` is JSON.
 */
import { EngineConnection, resolveEndpoint, type CallOptions, type EngineClientOptions, type Endpoint, type LogFunction, type PingInfo } from '../connection';
import { ContainerEndpoints } from './containers';
import { ExecEndpoints } from './exec';
import { ImageEndpoints } from './images';
import { NetworkEndpoints } from './networks';
import { RegistryCredentialGate } from './registryCredentials';
import { SystemEndpoints } from './system';
import { VolumeEndpoints } from './volumes';

export type { PruneTarget } from './system';
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

export class EngineClient {
  readonly containers: ContainerEndpoints;
  readonly images: ImageEndpoints;
  readonly exec: ExecEndpoints;
  readonly volumes: VolumeEndpoints;
  readonly networks: NetworkEndpoints;
  readonly system: SystemEndpoints;
  private readonly connection: EngineConnection;

  constructor(options: EngineClientOptions) {
    this.connection = new EngineConnection(options);
    this.containers = new ContainerEndpoints(this.connection);
    this.images = new ImageEndpoints(this.connection, new RegistryCredentialGate(this.connection));
    this.exec = new ExecEndpoints(this.connection);
    this.volumes = new VolumeEndpoints(this.connection);
    this.networks = new NetworkEndpoints(this.connection);
    this.system = new SystemEndpoints(this.connection);
  }

  /** Resolves the engine like the docker CLI (explicit host, DOCKER_HOST, contexts, default sockets). */
  static fromEnvironment(options: FromEnvironmentOptions = {}): EngineClient {
    const endpoint = resolveEndpoint({ host: options.host, env: options.env, homeDir: options.homeDir });
    return new EngineClient({ endpoint, apiVersion: options.apiVersion, log: options.log });
  }

  /** Where the engine is; `endpoint.display` is safe to show (no credentials). */
  get endpoint(): Endpoint {
    return this.connection.endpoint;
  }

  /** The last successful ping (engine kind, highest API version), if any. */
  get pingInfo(): PingInfo | undefined {
    return this.connection.pingInfo;
  }

  /** The API version in use; pings once to negotiate it. A failed ping is retried on the next call. */
  negotiatedVersion(options: CallOptions = {}): Promise<string> {
    return this.connection.negotiatedVersion(options);
  }

  /** The engine as a user knows it: `Podman` or `Docker`, with the API version spoken. */
  engineName(): string {
    return this.connection.engineName();
  }

  /** Closes kept-alive connections once requests in flight are done. */
  close(): Promise<void> {
    return this.connection.close();
  }
}
