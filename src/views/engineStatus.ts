/**
 * The current engine's state in the UI: the status bar item (engine, version, negotiated API version; the
 * engine's name too when there are several) and the context keys the welcome content and menus use
 * (`berth.engineState`, `berth.unreachableReason`, `berth.multipleEngines`, `berth.containers.showAll`).
 */
import * as vscode from 'vscode';
import { Disposable, DisposableStore } from '../common/lifecycle';
import { describe } from '../model/engineModel';
import type { EngineSession } from '../model/session';
import { classifyUnreachable } from '../model/unreachable';
import type { Ctx } from '../ctx';

export class EngineStatus extends Disposable {
  private readonly item: vscode.StatusBarItem;
  private readonly sessionListeners = this._register(new DisposableStore());
  private binding: DisposableStore | undefined;

  constructor(private readonly ctx: Ctx) {
    super();
    this.item = this._register(vscode.window.createStatusBarItem('berth.engine', vscode.StatusBarAlignment.Left, 10));
    this.item.name = 'Berth Engine';
    this.bind(ctx.session);
    this._register(ctx.onDidChangeSession((session) => this.bind(session)));
    this._register(
      ctx.onDidChangeEngines(() => {
        this.setMultipleContext();
        this.show(this.ctx.session);
      }),
    );
    this.setMultipleContext();
    this.setShowAllContext(ctx.settings.showAll);
    this._register(ctx.onDidChangeSettings((settings) => this.setShowAllContext(settings.showAll)));
  }

  private bind(session: EngineSession): void {
    if (this.binding) this.sessionListeners.delete(this.binding);
    const binding = this.sessionListeners.add(new DisposableStore());
    this.binding = binding;
    binding.add(session.onDidChangeStatus(() => this.show(session)));
    this.show(session);
  }

  private show(session: EngineSession): void {
    const state = session.state;
    void vscode.commands.executeCommand('setContext', 'berth.engineState', state);
    const endpoint = session.endpointDisplay;
    // With several engines the item says which one palette commands act on.
    const multi = this.ctx.engines.isMulti;
    const name = multi ? `${session.name}: ` : '';
    const switchHint = multi ? '\n\nClick to switch the current engine.' : '';
    switch (state) {
      case 'connecting':
        this.item.text = `$(sync~spin) ${multi ? `Berth ${session.name}` : 'Berth'}`;
        this.item.tooltip = `Connecting to ${endpoint}…`;
        this.item.command = multi ? { command: 'berth.switchContext', title: 'Switch Context' } : undefined;
        this.item.backgroundColor = undefined;
        break;
      case 'unreachable': {
        const reason = describe(session.model.lastError);
        void vscode.commands.executeCommand('setContext', 'berth.unreachableReason', classifyUnreachable(session.model.lastError));
        this.item.text = `$(debug-disconnect) Berth: ${multi ? `${session.name} unreachable` : 'engine unreachable'}`;
        this.item.tooltip = `Cannot reach the engine at ${endpoint}: ${reason}\n\nClick to retry.`;
        this.item.command = { command: 'berth.retry', title: 'Retry' };
        this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
        break;
      }
      case 'connected': {
        const info = session.info;
        this.item.text = info ? `$(vm) ${name}${info.product} ${info.version} · API ${info.apiVersion}` : `$(vm) ${multi ? session.name : 'Berth'}`;
        this.item.tooltip = info
          ? `${info.product} ${info.version}, API ${info.apiVersion}, at ${endpoint}${switchHint}`
          : `Connected to ${endpoint}${switchHint}`;
        this.item.command = multi
          ? { command: 'berth.switchContext', title: 'Switch Context' }
          : { command: 'berth.containers.focus', title: 'Show Containers' };
        this.item.backgroundColor = undefined;
        break;
      }
    }
    if (state !== 'unreachable') void vscode.commands.executeCommand('setContext', 'berth.unreachableReason', undefined);
    this.item.show();
  }

  private setMultipleContext(): void {
    void vscode.commands.executeCommand('setContext', 'berth.multipleEngines', this.ctx.engines.isMulti);
  }

  private setShowAllContext(showAll: boolean): void {
    void vscode.commands.executeCommand('setContext', 'berth.containers.showAll', showAll);
  }
}
