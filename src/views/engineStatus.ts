/**
 * The engine's state in the UI: the status bar item (engine, version, negotiated API version) and the
 * context keys the welcome content and menus use (`berth.engineState`, `berth.unreachableReason`,
 * `berth.containers.showAll`).
 */
import * as vscode from 'vscode';
import { Disposable, DisposableStore } from '../common/lifecycle';
import { describe, type EngineState } from '../model/engineModel';
import type { EngineSession } from '../model/session';
import { classifyUnreachable } from '../model/unreachable';
import type { Ctx } from '../ctx';

export class EngineStatus extends Disposable {
  private readonly item: vscode.StatusBarItem;
  private readonly sessionListeners = this._register(new DisposableStore());
  private binding: DisposableStore | undefined;
  /** Cancels a version lookup that a newer state made moot. */
  private infoRequest: AbortController | undefined;

  constructor(private readonly ctx: Ctx) {
    super();
    this.item = this._register(vscode.window.createStatusBarItem('berth.engine', vscode.StatusBarAlignment.Left, 10));
    this.item.name = 'Berth Engine';
    this._register({ dispose: () => this.infoRequest?.abort() });
    this.bind(ctx.session);
    this._register(ctx.onDidChangeSession((session) => this.bind(session)));
    this.setShowAllContext(ctx.settings.showAll);
    this._register(ctx.onDidChangeSettings((settings) => this.setShowAllContext(settings.showAll)));
  }

  private bind(session: EngineSession): void {
    if (this.binding) this.sessionListeners.delete(this.binding);
    const binding = this.sessionListeners.add(new DisposableStore());
    this.binding = binding;
    binding.add(session.model.onDidChangeState((state) => this.show(session, state)));
    this.show(session, session.model.state);
  }

  private show(session: EngineSession, state: EngineState): void {
    this.infoRequest?.abort();
    this.infoRequest = undefined;
    void vscode.commands.executeCommand('setContext', 'berth.engineState', state);
    const endpoint = session.endpointDisplay;
    switch (state) {
      case 'connecting':
        this.item.text = '$(sync~spin) Berth';
        this.item.tooltip = `Connecting to ${endpoint}…`;
        this.item.command = undefined;
        this.item.backgroundColor = undefined;
        break;
      case 'unreachable': {
        const reason = describe(session.model.lastError);
        void vscode.commands.executeCommand('setContext', 'berth.unreachableReason', classifyUnreachable(session.model.lastError));
        this.item.text = '$(debug-disconnect) Berth: engine unreachable';
        this.item.tooltip = `Cannot reach the engine at ${endpoint}: ${reason}\n\nClick to retry.`;
        this.item.command = { command: 'berth.retry', title: 'Retry' };
        this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
        break;
      }
      case 'connected':
        this.item.text = '$(vm) Berth';
        this.item.tooltip = `Connected to ${endpoint}`;
        this.item.command = { command: 'berth.containers.focus', title: 'Show Containers' };
        this.item.backgroundColor = undefined;
        void this.showEngineInfo(session, endpoint);
        break;
    }
    if (state !== 'unreachable') void vscode.commands.executeCommand('setContext', 'berth.unreachableReason', undefined);
    this.item.show();
  }

  /** Asks for the version off the activation path, once per connection. */
  private async showEngineInfo(session: EngineSession, endpoint: string): Promise<void> {
    const request = new AbortController();
    this.infoRequest = request;
    try {
      const info = await session.engineInfo(request.signal);
      if (request.signal.aborted) return;
      this.item.text = `$(vm) ${info.product} ${info.version} · API ${info.apiVersion}`;
      this.item.tooltip = `${info.product} ${info.version}, API ${info.apiVersion}, at ${endpoint}`;
    } catch (error) {
      if (!request.signal.aborted) this.ctx.log.warn(`Reading the engine version failed: ${describe(error)}`);
    }
  }

  private setShowAllContext(showAll: boolean): void {
    void vscode.commands.executeCommand('setContext', 'berth.containers.showAll', showAll);
  }
}
