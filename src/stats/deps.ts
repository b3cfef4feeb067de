import type * as vscode from 'vscode';
import type { ContainersView } from '../containers';
import type { CoreDeps } from '../workbench/deps';

export interface StatsDeps extends CoreDeps {
  readonly containersView: Pick<ContainersView, 'rowsOnScreen' | 'onDidChangeRows' | 'setDecorator' | 'redraw' | 'node'>;
  readonly extensionUri: vscode.Uri;
}

/** What tests and benchmarks may read. */
export interface StatsFeature {
  /** Stats streams open for the tree right now, over every engine. */
  openTreeStreams(): number;
}
