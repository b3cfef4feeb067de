/**
 * The language feature: Dockerfile and Compose support from bundled language servers, loaded only when the first
 * such document opens (see lazyLanguageFeatures.ts).
 */
import type * as vscode from 'vscode';
import type { DisposableStore } from '../common/lifecycle';
import { command, registerCommandTable } from '../workbench/commandTable';
import type { ReportDeps } from '../workbench/feedback';
import { LazyLanguageFeatures } from './lazyLanguageFeatures';

export interface LanguageDeps extends ReportDeps {
  /** Locates the bundled language client and servers (`context.extensionUri`). */
  readonly extensionUri: vscode.Uri;
}

export function registerLanguage(deps: LanguageDeps, owner: DisposableStore): void {
  const features = owner.add(new LazyLanguageFeatures(deps.extensionUri, deps.log));
  registerCommandTable([command('berth.internal.languageServers', 'Listing the language servers', () => () => features.states())], deps, owner);
}
