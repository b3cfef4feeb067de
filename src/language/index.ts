/**
 * The language feature: Dockerfile and Compose support from bundled language servers, loaded only when the first
 * such document opens (see lazyLanguageFeatures.ts).
 */
import type { DisposableStore } from '../common/lifecycle';
import { registerCommandTable } from '../workbench/commandTable';
import { languageCommands } from './commands';
import type { LanguageDeps } from './deps';
import { LazyLanguageFeatures } from './lazyLanguageFeatures';

export type { LanguageDeps } from './deps';

export function registerLanguage(deps: LanguageDeps, owner: DisposableStore): void {
  const features = owner.add(new LazyLanguageFeatures(deps.extensionUri, deps.log));
  registerCommandTable(languageCommands(features), deps, owner);
}
