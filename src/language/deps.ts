import type * as vscode from 'vscode';
import type { ReportDeps } from '../workbench/feedback';

export interface LanguageDeps extends ReportDeps {
  /** Locates the bundled language client and servers (`context.extensionUri`). */
  readonly extensionUri: vscode.Uri;
}
