import { command, type CommandEntry } from '../workbench/commandTable';
import type { LanguageDeps } from './deps';
import type { LazyLanguageFeatures } from './lazyLanguageFeatures';

/** The internal command tests read the language servers' states through. */
export function languageCommands(features: LazyLanguageFeatures): ReadonlyArray<CommandEntry<LanguageDeps>> {
  return [command('berth.internal.languageServers', 'Listing the language servers', () => () => features.states())];
}
