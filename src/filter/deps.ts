import type * as vscode from 'vscode';
import type { FilterableView, FilterableViewName } from '../views/filterRows';
import type { LogDeps, SessionsDeps } from '../workbench/deps';

export interface FiltersDeps extends LogDeps, Pick<SessionsDeps, 'engines'> {
  readonly workspaceState: vscode.Memento;
  readonly views: Readonly<Record<FilterableViewName, FilterableView>>;
}
