/**
 * What VS Code itself allows, built by the benchmark: two extension folders written to a temp dir.
 *   - floor: a view whose TreeDataProvider holds N prebuilt TreeItems (made at activation, before the view asks),
 *     and adds one item at the top, then fires a root refresh, when a line `add NAME` arrives on a unix socket.
 *     Nothing in it can be faster than VS Code's own tree: it is the floor Berth's figures are divided by. A line
 *     `age N` makes its first N rows age as Berth's exited containers do (their text redrawn each second, then each
 *     minute, while the view is visible): VS Code's cost of the refreshes Berth's visible idle window includes.
 *   - baseline: an extension with no code, so the extension host runs with nothing of ours in it (idle CPU).
 * Both are plain CommonJS with no dependency; the workbench loads them as extensionDevelopmentPath.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../test/vscode/codeServer';

export const FLOOR_CONTAINER_TITLE = 'Floor';
export const FLOOR_VIEW_TITLE = 'Items';
/** The floor's filter command, in the palette as `Floor: Filter Items`. */
export const FLOOR_FILTER_TITLE = 'Filter Items';

/**
 * `BERTH_FLOOR_SHAPE` in the floor's extension host: rows as the plain floor makes them, or with one part of a Berth
 * container row (`collapsed`: expandable, as Berth's rows are for Ports and Files; `ids`: a 74-character
 * `container:<id>`), or all of it (`berth`: those two, a coloured icon and Berth's context value).
 */
export type FloorShape = 'berth' | 'collapsed' | 'ids' | 'berth-menus' | 'berth-view' | 'berth-view-short';

/**
 * Berth's row menus (package.json `view/item/context`, with the commands they name), given to the floor's view: VS
 * Code works out each drawn row's menu on the page, so the `berth-menus` floor (`berth` rows, and these) tells
 * VS Code's cost of Berth's menus apart from Berth's own. `berth-view` adds the rest of what Berth's Containers view
 * asks of VS Code: several rows selected at once, Collapse All, drag and drop, and tooltips asked for on hover.
 */
function berthRowMenus(): Record<string, unknown> {
  const berth = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
    contributes: { commands: Array<{ command: string }>; menus: Record<string, Array<{ command: string; when?: string }>> };
  };
  const entries = (berth.contributes.menus['view/item/context'] ?? []).map((entry) => ({
    ...entry,
    ...(entry.when === undefined ? {} : { when: entry.when.replaceAll('berth.containers', 'floor.items') }),
  }));
  const named = new Set(entries.map((entry) => entry.command));
  return {
    commands: berth.contributes.commands.filter((declared) => named.has(declared.command)),
    menus: { 'view/item/context': entries },
  };
}

const FLOOR_SOURCE = String.raw`
const vscode = require('vscode');
const net = require('net');
exports.activate = (context) => {
  const count = Number(process.env.BERTH_FLOOR_ITEMS || '1000');
  const shape = process.env.BERTH_FLOOR_SHAPE || '';
  const makeItem = (label) => {
    const berthRows = shape === 'berth' || shape === 'berth-menus' || shape === 'berth-view' || shape === 'berth-view-short';
    const digest = require('crypto').createHash('sha256').update(label).digest('hex');
    const expandable = berthRows || shape === 'collapsed';
    const item = new vscode.TreeItem(label, expandable ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
    item.id = shape === 'berth-view-short' ? 'c:' + digest.slice(0, 12) : berthRows || shape === 'ids' ? 'container:' + digest : label;
    item.description = 'berth-bench/busybox:latest · Created';
    item.iconPath = berthRows ? new vscode.ThemeIcon('vm-outline', new vscode.ThemeColor('charts.blue')) : new vscode.ThemeIcon('vm-outline');
    item.contextValue = berthRows ? 'berth:container:created' : 'floor:item';
    return item;
  };
  // BERTH_FLOOR_TYPED: items named as the filter bench names its containers (bench/extension-ui-filter.ts).
  const typed = process.env.BERTH_FLOOR_TYPED || '';
  const labelOf = (index) => {
    const padded = String(index).padStart(5, '0');
    if (!typed) return 'item-' + padded;
    const level = index % (typed.length + 1);
    return String(level + 1) + typed.slice(0, level) + '-floor-' + padded;
  };
  const items = Array.from({ length: count }, (_, index) => makeItem(labelOf(index)));
  let shown = items;
  const changed = new vscode.EventEmitter();
  const provider = { onDidChangeTreeData: changed.event, getTreeItem: (item) => item, getChildren: (item) => (item ? [] : shown) };
  const berthView = shape === 'berth-view' || shape === 'berth-view-short';
  if (berthView) provider.resolveTreeItem = (item) => Object.assign(item, { tooltip: new vscode.MarkdownString('**' + item.label + '**') });
  const dragAndDropController = { dropMimeTypes: ['text/uri-list'], dragMimeTypes: [], handleDrop: () => undefined };
  const view = vscode.window.createTreeView('floor.items', berthView
    ? { treeDataProvider: provider, canSelectMany: true, showCollapseAll: true, dragAndDropController }
    : { treeDataProvider: provider });
  context.subscriptions.push(changed, view);
  // The least a filter box can do: the items whose label contains what was typed, a root refresh per keystroke.
  context.subscriptions.push(vscode.commands.registerCommand('floor.filter', () => {
    const box = vscode.window.createInputBox();
    box.placeholder = 'Text to look for (empty: every row)';
    box.onDidChangeValue((value) => {
      const needle = value.trim().toLowerCase();
      shown = needle ? items.filter((item) => item.label.toLowerCase().includes(needle)) : items;
      changed.fire(undefined);
    });
    box.onDidHide(() => {
      box.dispose();
      shown = items;
      changed.fire(undefined);
    });
    box.show();
  }));
  // 'age N': the first N rows exited now and age as Berth's do (docker's words), drawn again when their text changes
  // and only while the view is visible: VS Code's cost of the refreshes the issue asks Berth for.
  let aging = [];
  let exitedAt = 0;
  let timer;
  const words = (ms) => {
    const seconds = Math.floor(ms / 1000);
    if (seconds < 1) return 'Less than a second';
    if (seconds < 60) return seconds + ' seconds';
    const minutes = Math.floor(seconds / 60);
    return minutes === 1 ? 'About a minute' : minutes + ' minutes';
  };
  const nextChangeIn = (ms) => (ms < 60000 ? 1000 - (ms % 1000) : 60000 - (ms % 60000));
  const tick = () => {
    clearTimeout(timer);
    timer = undefined;
    if (aging.length === 0 || !view.visible) return;
    const age = Date.now() - exitedAt;
    const text = 'berth-bench/busybox:latest · Exited (0) ' + words(age) + ' ago';
    for (const item of aging) item.description = text;
    changed.fire(aging);
    timer = setTimeout(tick, nextChangeIn(age) + 1);
  };
  context.subscriptions.push(view.onDidChangeVisibility(() => tick()), { dispose: () => clearTimeout(timer) });
  const server = net.createServer((socket) => {
    let buffered = '';
    socket.on('data', (data) => {
      buffered += data.toString('utf8');
      let newline;
      while ((newline = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        if (line.startsWith('add ')) {
          items.unshift(makeItem(line.slice(4)));
          if (shown !== items) shown.unshift(items[0]);
          changed.fire(undefined);
        }
        if (line.startsWith('age ')) {
          aging = items.slice(0, Number(line.slice(4)));
          exitedAt = Date.now();
          tick();
        }
        socket.write('ok\n');
      }
    });
    socket.on('error', () => undefined);
  });
  // A socket file left by an earlier launch's host would make listen fail.
  try { require('fs').unlinkSync(process.env.BERTH_FLOOR_SOCKET); } catch {}
  server.listen(process.env.BERTH_FLOOR_SOCKET);
  context.subscriptions.push({ dispose: () => server.close() });
};
exports.deactivate = () => undefined;
`;

function manifest(name: string, contributes: Record<string, unknown>, main: boolean): string {
  return JSON.stringify(
    {
      name,
      displayName: name,
      publisher: 'berthbench',
      version: '0.0.1',
      engines: { vscode: '^1.100.0' },
      ...(main ? { main: './extension.js' } : {}),
      activationEvents: [],
      contributes,
    },
    null,
    2,
  );
}

export interface FloorExtensions {
  readonly floorDir: string;
  /** The floor with Berth's row menus (for the `berth-menus` shape only: the plain floor has none). */
  readonly floorMenusDir: string;
  readonly baselineDir: string;
  dispose(): void;
}

export function writeFloorExtensions(): FloorExtensions {
  const root = mkdtempSync(join(tmpdir(), 'berth-bench-floor-'));
  const floorDir = join(root, 'floor');
  const baselineDir = join(root, 'baseline');
  mkdirSync(floorDir);
  mkdirSync(baselineDir);
  const floorMenusDir = join(root, 'floor-menus');
  mkdirSync(floorMenusDir);
  const floorView = {
    viewsContainers: { activitybar: [{ id: 'floor', title: FLOOR_CONTAINER_TITLE, icon: 'icon.svg' }] },
    views: { floor: [{ id: 'floor.items', name: FLOOR_VIEW_TITLE }] },
    commands: [{ command: 'floor.filter', title: FLOOR_FILTER_TITLE, category: FLOOR_CONTAINER_TITLE }],
  };
  for (const [dir, contributes] of [[floorDir, floorView], [floorMenusDir, { ...floorView, ...berthRowMenus() }]] as const) {
    writeFileSync(join(dir, 'extension.js'), FLOOR_SOURCE);
    copyFileSync(join(REPO_ROOT, 'media', 'berth.svg'), join(dir, 'icon.svg'));
    writeFileSync(join(dir, 'package.json'), manifest('floor', contributes, true));
  }
  writeFileSync(join(baselineDir, 'package.json'), manifest('baseline', {}, false));
  return { floorDir, floorMenusDir, baselineDir, dispose: () => rmSync(root, { recursive: true, force: true }) };
}
