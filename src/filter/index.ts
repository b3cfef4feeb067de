/**
 * The explorer's filters: Filter… on the Containers, Images, Volumes and Networks views (an input box that filters as
 * it is typed), Clear Filter, and the Containers view's "this workspace only" toggle. What each view shows is saved
 * per workspace and applied again when the window opens. The matching itself is vscode-free (views/rowFilter.ts).
 * extension.ts calls `registerFilters` once, handing over the four views.
 */
import * as vscode from 'vscode';
import type { DisposableStore } from '../common/lifecycle';
import type { FilterableView, FilterableViewName } from '../views/filterRows';
import { NO_FILTER, textFilter } from '../views/rowFilter';
import { command, registerCommandTable } from '../workbench/commandTable';
import { ContextKey } from '../workbench/contextKey';
import type { LogDeps, SessionsDeps } from '../workbench/deps';

export interface FiltersDeps extends LogDeps, Pick<SessionsDeps, 'engines'> {
  readonly workspaceState: vscode.Memento;
  readonly views: Readonly<Record<FilterableViewName, FilterableView>>;
}

/** What is saved per workspace: each view's text, and the Containers view's scope. */
interface SavedFilters {
  readonly text: Partial<Record<FilterableViewName, string>>;
  readonly workspaceOnly: boolean;
}

const STATE_KEY = 'berth.viewFilters';
const VIEW_NAMES: readonly FilterableViewName[] = ['containers', 'images', 'volumes', 'networks'];
const workspaceOnlyContext = new ContextKey<boolean>('berth.containers.workspaceOnly');
const filteredContext = (view: FilterableViewName): ContextKey<boolean> => new ContextKey<boolean>(`berth.${view}.filtered`);

function readSaved(state: vscode.Memento): SavedFilters {
  const saved = state.get<unknown>(STATE_KEY);
  if (typeof saved !== 'object' || saved === null) return { text: {}, workspaceOnly: false };
  const { text, workspaceOnly } = saved as { text?: unknown; workspaceOnly?: unknown };
  const texts: Partial<Record<FilterableViewName, string>> = {};
  if (typeof text === 'object' && text !== null) {
    for (const view of VIEW_NAMES) {
      const value = (text as Record<string, unknown>)[view];
      if (typeof value === 'string') texts[view] = value;
    }
  }
  return { text: texts, workspaceOnly: workspaceOnly === true };
}

function workspaceFolderPaths(): string[] {
  return (vscode.workspace.workspaceFolders ?? []).filter((folder) => folder.uri.scheme === 'file').map((folder) => folder.uri.fsPath);
}

/** The filters of the four views, as they are and as they are saved. */
class ViewFilters {
  private saved: SavedFilters;

  constructor(private readonly deps: FiltersDeps) {
    this.saved = readSaved(deps.workspaceState);
    for (const view of VIEW_NAMES) this.apply(view);
  }

  text(view: FilterableViewName): string {
    return this.saved.text[view] ?? '';
  }

  get workspaceOnly(): boolean {
    return this.saved.workspaceOnly;
  }

  set(view: FilterableViewName, text: string, workspaceOnly = this.saved.workspaceOnly): Thenable<void> {
    this.saved = { text: { ...this.saved.text, [view]: text }, workspaceOnly };
    this.apply(view);
    return this.deps.workspaceState.update(STATE_KEY, this.saved);
  }

  /** The workspace folders changed: the Containers view's scope follows them. */
  foldersChanged(): void {
    if (this.saved.workspaceOnly) this.apply('containers');
  }

  private apply(view: FilterableViewName): void {
    const text = this.text(view);
    const scoped = view === 'containers' && this.saved.workspaceOnly;
    this.deps.views[view].setFilter(text.trim().length === 0 && !scoped ? NO_FILTER : textFilter(text, scoped ? workspaceFolderPaths() : undefined));
    filteredContext(view).set(text.trim().length > 0 || scoped);
    if (view === 'containers') workspaceOnlyContext.set(this.saved.workspaceOnly);
  }
}

const PROMPTS: Readonly<Record<FilterableViewName, () => string>> = {
  containers: () => vscode.l10n.t('Filter containers by name, image, id, status, Compose project or service, port or label'),
  images: () => vscode.l10n.t('Filter images by tag, id or label'),
  volumes: () => vscode.l10n.t('Filter volumes by name, driver or label'),
  networks: () => vscode.l10n.t('Filter networks by name, id, driver or label'),
};

/** An input box that filters VIEW as the user types; Escape puts back the filter it started with. */
async function askFilter(filters: ViewFilters, view: FilterableViewName): Promise<void> {
  const before = filters.text(view);
  const box = vscode.window.createInputBox();
  box.title = vscode.l10n.t('Filter');
  box.prompt = PROMPTS[view]();
  box.placeholder = vscode.l10n.t('Text to look for (empty: every row)');
  box.value = before;
  let accepted = false;
  const done = new Promise<void>((resolve) => {
    box.onDidChangeValue((value) => void filters.set(view, value));
    box.onDidAccept(() => {
      accepted = true;
      box.hide();
    });
    box.onDidHide(() => {
      box.dispose();
      resolve();
    });
  });
  box.show();
  await done;
  if (!accepted) await filters.set(view, before);
}

function filterCommands(filters: ViewFilters): ReturnType<typeof command<FiltersDeps>>[] {
  return [
    ...VIEW_NAMES.flatMap((view) => [
      // A string argument sets the filter without asking (tests, keybindings); filtering a view changes nothing else.
      command<FiltersDeps>(`berth.${view}.filter`, 'Filtering', () => (text?: unknown) =>
        typeof text === 'string' ? filters.set(view, text) : askFilter(filters, view)),
      command<FiltersDeps>(`berth.${view}.clearFilter`, 'Clearing the filter', () => () => filters.set(view, '', view === 'containers' ? false : filters.workspaceOnly)),
    ]),
    command<FiltersDeps>('berth.containers.workspaceOnly', 'Showing this workspace\'s containers', () => () => filters.set('containers', filters.text('containers'), true)),
    command<FiltersDeps>('berth.containers.allWorkspaces', 'Showing every container', () => () => filters.set('containers', filters.text('containers'), false)),
  ];
}

export function registerFilters(deps: FiltersDeps, owner: DisposableStore): void {
  const filters = new ViewFilters(deps);
  owner.add(vscode.workspace.onDidChangeWorkspaceFolders(() => filters.foldersChanged()));
  registerCommandTable(filterCommands(filters), deps, owner);
}
