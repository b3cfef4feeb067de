/**
 * The current engine's state in the UI: the status bar item (engine, version, negotiated API version; the
 * engine's name too when there are several) and the context keys the welcome content and menus use
 * (`berth.engineState`, `berth.unreachableReason`, `berth.multipleEngines`).
 */
import * as vscode from 'vscode';
import { errorMessage } from '../common/errors';
import { Disposable, DisposableStore, MutableDisposable } from '../common/lifecycle';
import type { EngineSession } from '../model/session';
import { classifyUnreachable, type UnreachableReason } from '../model/unreachable';
import { ContextKey } from '../workbench/contextKey';
import type { CoreDeps } from '../workbench/deps';
import { transportWarning } from './transport';

/** The context keys the welcome content, menus and the palette read. */
export const EngineContext = {
  state: new ContextKey<EngineSession['state']>('berth.engineState'),
  unreachableReason: new ContextKey<UnreachableReason>('berth.unreachableReason'),
  multipleEngines: new ContextKey<boolean>('berth.multipleEngines'),
} as const;

export class EngineStatus extends Disposable {
  private readonly item: vscode.StatusBarItem;
  /** The listeners on the current session: replaced when another session becomes current. */
  private readonly currentSessionBinding = this._register(new MutableDisposable<DisposableStore>());
  /** Engines whose transport warning is in the log already (once per engine and window). */
  private readonly warned = new Set<string>();

  constructor(private readonly deps: CoreDeps) {
    super();
    this.item = this._register(vscode.window.createStatusBarItem('berth.engine', vscode.StatusBarAlignment.Left, 10));
    this.item.name = vscode.l10n.t('Berth Engine');
    this.bind(deps.session);
    this._register(deps.onDidChangeSession((session) => this.bind(session)));
    this._register(
      deps.onDidChangeEngines(() => {
        this.setMultipleContext();
        this.show(this.deps.session);
      }),
    );
    this.setMultipleContext();
  }

  private bind(session: EngineSession): void {
    const binding = new DisposableStore();
    this.currentSessionBinding.value = binding;
    binding.add(session.onDidChangeStatus(() => this.show(session)));
    this.show(session);
  }

  private show(session: EngineSession): void {
    const state = session.state;
    EngineContext.state.set(state);
    const endpoint = session.endpointDisplay;
    // With several engines the item says which one palette commands act on.
    const multi = this.deps.engines.isMulti;
    const name = multi ? `${session.name}: ` : '';
    const switchHint = multi ? `\n\n${vscode.l10n.t('Click to switch the current engine.')}` : '';
    switch (state) {
      case 'connecting':
        this.item.text = `$(sync~spin) ${multi ? `Berth ${session.name}` : 'Berth'}`;
        this.item.tooltip = vscode.l10n.t('Connecting to {0}…', endpoint);
        this.item.command = multi ? { command: 'berth.switchContext', title: vscode.l10n.t('Switch Context') } : undefined;
        this.item.backgroundColor = undefined;
        break;
      case 'unreachable': {
        const reason = errorMessage(session.model.lastError);
        EngineContext.unreachableReason.set(classifyUnreachable(session.model.lastError));
        this.item.text = `$(debug-disconnect) Berth: ${multi ? vscode.l10n.t('{0} unreachable', session.name) : vscode.l10n.t('engine unreachable')}`;
        this.item.tooltip = `${vscode.l10n.t('Cannot reach the engine at {0}: {1}', endpoint, reason)}\n\n${vscode.l10n.t('Click to retry.')}`;
        this.item.command = { command: 'berth.retry', title: vscode.l10n.t('Retry') };
        this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
        break;
      }
      case 'connected': {
        const info = session.info;
        this.item.text = info ? `$(vm) ${name}${info.product} ${info.version} · API ${info.apiVersion}` : `$(vm) ${multi ? session.name : 'Berth'}`;
        this.item.tooltip = info
          ? `${vscode.l10n.t('{0} {1}, API {2}, at {3}', info.product, info.version, info.apiVersion, endpoint)}${switchHint}`
          : `${vscode.l10n.t('Connected to {0}', endpoint)}${switchHint}`;
        this.item.command = multi
          ? { command: 'berth.switchContext', title: vscode.l10n.t('Switch Context') }
          : { command: 'berth.containers.focus', title: vscode.l10n.t('Show Containers') };
        this.item.backgroundColor = undefined;
        break;
      }
    }
    if (state !== 'unreachable') EngineContext.unreachableReason.reset();
    const warning = transportWarning(session.descriptor.endpoint);
    if (warning !== undefined) {
      this.item.tooltip = `${typeof this.item.tooltip === 'string' ? this.item.tooltip : ''}\n\n${warning}`;
      if (!this.warned.has(session.id)) this.deps.log.warn(`Engine ${session.name}: ${warning}`);
      this.warned.add(session.id);
    }
    this.item.show();
  }

  private setMultipleContext(): void {
    EngineContext.multipleEngines.set(this.deps.engines.isMulti);
  }

}
