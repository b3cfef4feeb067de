/**
 * The Networks view of the current engine: one row per network (driver, scope, internal, subnets, how many
 * containers), each expanding to the containers attached to it (from the network's inspect; a click reveals the
 * container). It follows the engine's network events only while it is visible.
 */
import * as vscode from 'vscode';
import { Disposable, DisposableStore, MutableDisposable } from '../common/lifecycle';
import type { EngineSession } from '../model/session';
import type { RowSummary } from '../views/engineTreeView';
import { filteredTopRows, filterNoticeItem, type FilterableView } from '../views/filterRows';
import { filterApplies, networkMatches, NO_FILTER, type FilterNoticeRow, type RowFilter } from '../views/rowFilter';
import { rowSummariesUnder, sessionTreeView, toTreeItem } from '../views/treeItems';
import { showViewHeader } from '../views/viewHeader';
import type { LogDeps, SessionsDeps } from '../workbench/deps';
import { attachmentsOf, presentAttachment, presentNetwork } from './presentation';
import { NetworkStore } from './store';

export type NetworkTreeNode =
  | FilterNoticeRow
  | { readonly kind: 'network'; readonly id: string; readonly name: string }
  | { readonly kind: 'networkContainer'; readonly network: string; readonly id: string; readonly name: string };

type NetworkNode = Extract<NetworkTreeNode, { kind: 'network' }>;

class Binding extends Disposable {
  readonly networks: NetworkStore;
  constructor(readonly session: EngineSession, log: vscode.LogOutputChannel, onDidChange: () => void) {
    super();
    // The client is asked for on each call: an engine with an invalid configuration throws from `client`, and that
    // must surface in the view's own work, not in the session switch that made this binding.
    this.networks = this._register(
      new NetworkStore(
        {
          listNetworks: (options) => session.client.networks.list(options),
          inspectNetwork: (id, options) => session.client.networks.inspect(id, options),
          events: (options) => session.client.system.events(options),
        },
        (level, message) => log[level](message),
      ),
    );
    this._register(this.networks.onDidChange(onDidChange));
  }
}

export class NetworksView extends Disposable implements vscode.TreeDataProvider<NetworkTreeNode>, FilterableView {
  private filter: RowFilter = NO_FILTER;
  private readonly notice: FilterNoticeRow = { kind: 'filterNotice', engine: '' };
  private readonly binding = this._register(new MutableDisposable<Binding>());
  private readonly _onDidChangeTreeData = this._register(new vscode.EventEmitter<NetworkTreeNode | undefined>());
  readonly onDidChangeTreeData = this._onDidChangeTreeData.event;
  readonly view: vscode.TreeView<NetworkTreeNode>;
  private nodes = new Map<string, NetworkNode>();

  constructor(private readonly deps: SessionsDeps & LogDeps) {
    super();
    const handlers = { bind: (session: EngineSession) => this.bind(session), visibilityChanged: () => this.followVisibility() };
    this.view = sessionTreeView('berth.networks', this, deps, handlers, this._register(new DisposableStore()));
    handlers.bind(deps.session);
  }

  get networks(): NetworkStore | undefined {
    return this.binding.value?.networks;
  }

  /** Shows only the networks that pass FILTER (NO_FILTER: all); new rows from events respect it. */
  setFilter(filter: RowFilter): void {
    this.filter = filter;
    if (!filterApplies(filter)) showViewHeader(this.view, { description: undefined });
    this._onDidChangeTreeData.fire(undefined);
  }

  getTreeItem(node: NetworkTreeNode): vscode.TreeItem {
    if (node.kind === 'filterNotice') return filterNoticeItem('networks', this.filter, this.binding.value?.session.id ?? '');
    if (node.kind === 'networkContainer') {
      const network = this.networks?.network(node.network);
      const attachment = network && attachmentsOf(network).find((candidate) => candidate.id === node.id);
      const item = toTreeItem(`network:${node.network}/container:${node.id}`, presentAttachment(network?.Name ?? node.network, attachment ?? { ...node, address: '' }));
      item.command = { command: 'berth.networks.revealContainer', title: vscode.l10n.t('Show Container'), arguments: [node] };
      return item;
    }
    const network = this.networks?.network(node.id);
    if (!network) return new vscode.TreeItem(node.name);
    const collapsible = attachmentsOf(network).length > 0 ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None;
    return toTreeItem(`network:${node.id}`, presentNetwork(network), collapsible);
  }

  getChildren(node?: NetworkTreeNode): NetworkTreeNode[] {
    const store = this.networks;
    if (!store) return [];
    if (node === undefined) {
      const { nodes, hiddenAll } = filteredTopRows(this.view, this.filter, store.networks(), networkMatches, (network): [string, NetworkNode] => [
        network.Id,
        { kind: 'network', id: network.Id, name: network.Name },
      ]);
      this.nodes = nodes;
      return hiddenAll ? [this.notice] : [...nodes.values()];
    }
    if (node.kind !== 'network') return [];
    const network = store.network(node.id);
    return network ? attachmentsOf(network).map((attachment) => ({ kind: 'networkContainer', network: node.id, id: attachment.id, name: attachment.name })) : [];
  }

  getParent(node: NetworkTreeNode): NetworkTreeNode | undefined {
    return node.kind === 'networkContainer' ? this.nodes.get(node.network) : undefined;
  }

  /** The rows under a path of labels (`[]` = the roots), for tests. */
  async rowsAt(path: readonly string[]): Promise<RowSummary[]> {
    return rowSummariesUnder(this, path, 'The Networks view');
  }

  private bind(session: EngineSession): void {
    if (this.binding.value?.session === session) return;
    this.binding.value = new Binding(session, this.deps.log, () => this._onDidChangeTreeData.fire(undefined));
    this._onDidChangeTreeData.fire(undefined);
    this.followVisibility();
  }

  /** Work only while visible: follow the engine when shown, stop when hidden. */
  private followVisibility(): void {
    const store = this.networks;
    if (!store) return;
    if (this.view.visible) store.start();
    else store.stop();
  }
}
