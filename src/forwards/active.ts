/**
 * The port forwards the user started in this window, per engine and container. Each has its own relay (and helper
 * container, when the container has no `nc`): stopping one never touches another. A forward ends when the user
 * stops it, when its container stops (the relay's event stream says so, and Berth tells the user), and with the window.
 */
import * as vscode from 'vscode';
import { Disposable, toDisposable } from '../common/lifecycle';
import { errorMessage } from '../common/errors';
import { ForwardRelay, PortForward, type EngineClient, type PortForwardSpec, type RelayEnd } from '../engine';
import type { LogDeps } from '../workbench/deps';

export interface ActiveForward {
  readonly engine: string;
  readonly containerId: string;
  readonly containerName: string;
  readonly forward: PortForward;
  readonly relay: ForwardRelay;
}

/** What a forward's rows and commands hand out and return: plain values. */
export interface ForwardSummary {
  readonly container: string;
  readonly containerPort: number;
  readonly localPort: number;
  /** `127.0.0.1:LOCAL` */
  readonly address: string;
  readonly throughHelper: boolean;
}

export function summaryOf(active: ActiveForward): ForwardSummary {
  return {
    container: active.containerName,
    containerPort: active.forward.containerPort,
    localPort: active.forward.localPort,
    address: active.forward.address,
    throughHelper: active.relay.throughHelper,
  };
}

const keyOf = (engine: string, containerId: string): string => `${engine}\u0000${containerId}`;

export class ActiveForwards extends Disposable {
  private readonly byContainer = new Map<string, ActiveForward[]>();
  private readonly _onDidChange = this._register(new vscode.EventEmitter<{ engine: string; containerId: string }>());
  /** Fired with the container whose forwards changed. */
  readonly onDidChange = this._onDidChange.event;

  constructor(private readonly deps: LogDeps) {
    super();
    this._register(toDisposable(() => void this.stopAll()));
  }

  /** The forwards of one container, oldest first. */
  of(engine: string, containerId: string): readonly ActiveForward[] {
    return this.byContainer.get(keyOf(engine, containerId)) ?? [];
  }

  /** Every forward of this window. */
  all(): ActiveForward[] {
    return [...this.byContainer.values()].flat();
  }

  /** Opens a relay into CONTAINER and listens for SPEC; throws the engine client's clear errors. */
  async start(engine: string, client: EngineClient, container: string, spec: PortForwardSpec, signal?: AbortSignal): Promise<ActiveForward> {
    const helperImage = vscode.workspace.getConfiguration('berth').get<string>('files.helperImage', '');
    const relay = await ForwardRelay.open(client, container, { helperImage, signal, log: (line) => this.deps.log.info(line) });
    let forward: PortForward;
    try {
      forward = await PortForward.listen(relay, spec, {
        onConnectionError: (error, each) => this.deps.log.warn(`Forward ${each.address} -> ${each.containerPort} of ${relay.containerName}: ${errorMessage(error)}`),
      });
    } catch (error) {
      await relay.close();
      throw error;
    }
    const active: ActiveForward = { engine, containerId: relay.containerId, containerName: relay.containerName, forward, relay };
    const key = keyOf(engine, relay.containerId);
    this.byContainer.set(key, [...this.of(engine, relay.containerId), active]);
    forward.onEnd((end) => this.ended(active, end));
    this._onDidChange.fire({ engine, containerId: relay.containerId });
    return active;
  }

  /** Stops one forward (its relay and helper go with it). */
  async stop(active: ActiveForward): Promise<void> {
    active.forward.close();
    await active.relay.close();
  }

  /** Stops every forward: the window closes, or Berth is disabled. */
  async stopAll(): Promise<void> {
    await Promise.all(this.all().map((active) => this.stop(active).catch((error: unknown) => this.deps.log.warn(`Stopping a forward: ${errorMessage(error)}`))));
  }

  private ended(active: ActiveForward, end: RelayEnd): void {
    const key = keyOf(active.engine, active.containerId);
    const rest = this.of(active.engine, active.containerId).filter((each) => each !== active);
    if (rest.length > 0) this.byContainer.set(key, rest);
    else this.byContainer.delete(key);
    void active.relay.close();
    const what = `${active.forward.address} -> ${active.forward.containerPort}`;
    if (end.reason === 'closed') {
      this.deps.log.info(`Stopped forwarding ${what} of ${active.containerName}`);
    } else {
      this.deps.log.info(`Forwarding ${what} of ${active.containerName} ended: ${end.message}`);
      void vscode.window.showInformationMessage(vscode.l10n.t('Forwarding {0} to {1} ended: {2}', active.forward.address, `${active.containerName}:${active.forward.containerPort}`, end.message));
    }
    if (!this.isDisposed) this._onDidChange.fire({ engine: active.engine, containerId: active.containerId });
  }
}
