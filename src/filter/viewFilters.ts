/** Each explorer view's filter, as it is and as it is saved per workspace, with the context keys the menus read. */
import * as vscode from 'vscode';
import type { FilterableViewName } from '../views/filterRows';
import { NO_FILTER, textFilter } from '../views/rowFilter';
import { ContextKey } from '../workbench/contextKey';
import type { FiltersDeps } from './deps';

/** What is saved per workspace: each view's text, and the Containers view's scope. */
interface SavedFilters {
  readonly text: Partial<Record<FilterableViewName, string>>;
  readonly workspaceOnly: boolean;
}

const STATE_KEY = 'berth.viewFilters';
export const VIEW_NAMES: readonly FilterableViewName[] = ['containers', 'images', 'volumes', 'networks'];
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
export class ViewFilters {
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
