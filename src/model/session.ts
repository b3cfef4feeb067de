/**
 * One engine connection: the client for the configured endpoint and the model that follows it.
 * Replaced as a whole when the endpoint setting changes. No `vscode` here.
 */
import { EngineClient } from '../engine';
import { Disposable } from '../common/lifecycle';
import { EngineModel, type LogLevel } from './engineModel';
import type { ModelSource } from './source';

export interface EngineInfo {
  /** `Docker` or `Podman`. */
  readonly product: string;
  readonly version: string;
  /** The version the client negotiated and speaks. */
  readonly apiVersion: string;
}

export interface EngineSessionOptions {
  /** The `berth.engine.host` override; empty means the CLI's resolution (DOCKER_HOST, context, default sockets). */
  readonly host: string;
  readonly log: (level: LogLevel, message: string) => void;
}

export class EngineSession extends Disposable {
  readonly model: EngineModel;
  private readonly _client: EngineClient | undefined;
  /** Set when the endpoint setting itself is invalid; every engine call then fails with it. */
  readonly configError: unknown;
  readonly endpointDisplay: string;

  constructor(options: EngineSessionOptions) {
    super();
    let client: EngineClient | undefined;
    let configError: unknown;
    try {
      client = EngineClient.fromEnvironment({
        host: options.host || undefined,
        log: (line: string) => options.log('debug', line),
      });
    } catch (error) {
      configError = error;
    }
    this._client = client;
    this.configError = configError;
    this.endpointDisplay = client?.endpoint.display ?? (options.host || 'the default engine endpoint');
    const source: ModelSource = client ?? failingSource(configError);
    this.model = this._register(new EngineModel(source, { log: options.log }));
    if (client) {
      this._register({
        dispose: () => {
          client.close().catch((error: unknown) => options.log('warn', `Closing the engine client failed: ${String(error)}`));
        },
      });
    }
  }

  /** The client; throws the configuration error when the endpoint setting is invalid. */
  get client(): EngineClient {
    if (!this._client) throw this.configError;
    return this._client;
  }

  async engineInfo(signal?: AbortSignal): Promise<EngineInfo> {
    const client = this.client;
    const [ping, version, apiVersion] = await Promise.all([
      client.ping({ signal }),
      client.version({ signal }),
      client.negotiatedVersion({ signal }),
    ]);
    const isPodman =
      (ping.server ?? '').startsWith('Libpod') ||
      ping.libpodApiVersion !== undefined ||
      (version.Components ?? []).some((component) => /podman/i.test(component.Name));
    return { product: isPodman ? 'Podman' : 'Docker', version: version.Version, apiVersion };
  }
}

/** A source for an invalid endpoint setting: the model reports the setting's error as the reason. */
function failingSource(error: unknown): ModelSource {
  const reason = error instanceof Error ? error : new Error(String(error));
  const rejected = (): Promise<never> => Promise.reject(reason);
  return {
    listContainers: rejected,
    listImages: rejected,
    inspectImage: rejected,
    inspectContainer: rejected,
    events: () => ({
      [Symbol.asyncIterator]: () => ({ next: rejected }),
    }),
  };
}
