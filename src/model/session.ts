/**
 * One engine connection: the client for one engine's endpoint and the model that follows it, plus what the
 * engine says it is (product, version, API version), asked once per connection. Replaced as a whole when the
 * engine's endpoint changes. No `vscode` here.
 */
import { errorMessage, toError } from '../common/errors';
import { momentWords } from '../common/format';
import { EngineClient } from '../engine';
import { Disposable, toDisposable } from '../common/lifecycle';
import { Emitter } from '../common/emitter';
import { EngineModel, type EngineModelOptions, type EngineState, type LogLevel } from './engineModel';
import { refineClocksAfterListings } from './clockRefiner';
import { LOCAL_ENGINE_ID, type EngineDescriptor } from './engineList';
import { modelSourceOf, type ModelSource } from './source';
import type { SavedListingStore } from './savedListing';
import { SavedListingKeeper } from './savedListingKeeper';

export interface EngineInfo {
  /** `Docker` or `Podman`. */
  readonly product: string;
  readonly version: string;
  /** The version the client negotiated and speaks. */
  readonly apiVersion: string;
}

export interface EngineSessionOptions {
  readonly descriptor: EngineDescriptor;
  readonly log: (level: LogLevel, message: string) => void;
  /** For tests: a source other than a client over the descriptor's endpoint. */
  readonly source?: ModelSource | undefined;
  readonly model?: EngineModelOptions | undefined;
  /** Where this engine's last listing is kept for the next window, and whether to show it now (savedListing.ts). */
  readonly savedListing?: { readonly store: SavedListingStore; readonly show: boolean } | undefined;
}

export class EngineSession extends Disposable {
  readonly model: EngineModel;
  readonly descriptor: EngineDescriptor;
  private readonly _client: EngineClient | undefined;
  /** Set when the engine's configuration itself is invalid; every engine call then fails with it. */
  readonly configError: unknown;
  readonly endpointDisplay: string;
  private readonly log: (level: LogLevel, message: string) => void;
  private _info: EngineInfo | undefined;
  private infoRequest: AbortController | undefined;
  private readonly _onDidChangeStatus = this._register(new Emitter<void>());
  /** The state or the engine info changed: whatever shows this engine's status must redraw. */
  readonly onDidChangeStatus = this._onDidChangeStatus.event;

  constructor(options: EngineSessionOptions) {
    super();
    const { descriptor } = options;
    this.descriptor = descriptor;
    // Lines of engines other than the default one say which engine they are about.
    const prefix = descriptor.id === LOCAL_ENGINE_ID ? '' : `[${descriptor.name}] `;
    const log = (level: LogLevel, message: string): void => options.log(level, `${prefix}${message}`);
    this.log = log;
    let client: EngineClient | undefined;
    let configError: unknown = descriptor.configError;
    if (descriptor.endpoint && !options.source) {
      try {
        client = new EngineClient({ endpoint: descriptor.endpoint, log: (line: string) => log('debug', line) });
      } catch (error) {
        configError = error;
      }
    }
    this._client = client;
    this.configError = configError;
    this.endpointDisplay = descriptor.display;
    const source: ModelSource = options.source ?? (client ? modelSourceOf(client) : failingSource(configError));
    this.model = this._register(new EngineModel(source, { ...options.model, log }));
    this._register(this.model.onDidChangeState((state) => this.onState(state)));
    this._register(refineClocksAfterListings(this.model, log));
    if (options.savedListing) this._register(new SavedListingKeeper(this.model, { ...options.savedListing, log }));
    this._register(toDisposable(() => this.infoRequest?.abort()));
    if (client) {
      this._register(
        toDisposable(() => {
          client.close().catch((error: unknown) => log('warn', `Closing the engine client failed: ${errorMessage(error)}`));
        }),
      );
    }
  }

  get id(): string {
    return this.descriptor.id;
  }

  get name(): string {
    return this.descriptor.name;
  }

  get state(): EngineState {
    return this.model.state;
  }

  /** Product and versions of the connected engine; undefined until asked after connecting, and while unreachable. */
  get info(): EngineInfo | undefined {
    return this._info;
  }

  /** The client; throws the configuration error when the engine's configuration is invalid. */
  get client(): EngineClient {
    if (!this._client) throw this.configError;
    return this._client;
  }

  /**
   * One line for a status: `Docker 20.10.24 · API 1.41`, `connecting…`, `unreachable: <reason>` (the engine
   * message's first sentence; its advice is in `reason`).
   */
  statusText(): string {
    switch (this.model.state) {
      case 'connecting':
        // With several engines the root row is where a saved listing (savedListing.ts) says so.
        return this.model.savedListingAt === undefined ? 'connecting…' : `connecting… (the list as saved at ${momentWords(this.model.savedListingAt, Date.now())})`;
      case 'unreachable':
        return `unreachable: ${firstSentence(errorMessage(this.model.lastError))}`;
      case 'connected':
        return this._info ? `${this._info.product} ${this._info.version} · API ${this._info.apiVersion}` : 'connected';
    }
  }

  /** The whole engine message while unreachable. */
  get reason(): string | undefined {
    return this.model.state === 'unreachable' ? errorMessage(this.model.lastError) : undefined;
  }

  async engineInfo(signal?: AbortSignal): Promise<EngineInfo> {
    const client = this.client;
    const [ping, version, apiVersion] = await Promise.all([
      client.system.ping({ signal }),
      client.system.version({ signal }),
      client.negotiatedVersion({ signal }),
    ]);
    const isPodman =
      (ping.server ?? '').startsWith('Libpod') ||
      ping.libpodApiVersion !== undefined ||
      (version.Components ?? []).some((component) => /podman/i.test(component.Name));
    return { product: isPodman ? 'Podman' : 'Docker', version: version.Version, apiVersion };
  }

  private onState(state: EngineState): void {
    this.infoRequest?.abort();
    this.infoRequest = undefined;
    if (state !== 'connected') this._info = undefined;
    this._onDidChangeStatus.fire();
    if (state === 'connected' && this._client) void this.loadInfo();
  }

  /** Asks the engine what it is, once per connection (never on a timer). */
  private async loadInfo(): Promise<void> {
    const request = new AbortController();
    this.infoRequest = request;
    try {
      const info = await this.engineInfo(request.signal);
      if (request.signal.aborted || this.isDisposed) return;
      this._info = info;
      this._onDidChangeStatus.fire();
    } catch (error) {
      if (!request.signal.aborted) this.log('warn', `Reading the engine version failed: ${errorMessage(error)}`);
    } finally {
      if (this.infoRequest === request) this.infoRequest = undefined;
    }
  }
}

/** Up to the first `. ` that starts another sentence: engine messages put their advice after it. */
export function firstSentence(message: string): string {
  const match = /\.\s+(?=[A-Z])/.exec(message);
  return match ? message.slice(0, match.index) : message;
}

/** A source for an invalid configuration: the model reports the configuration's error as the reason. */
function failingSource(error: unknown): ModelSource {
  const reason = toError(error);
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
