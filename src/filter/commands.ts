/** Filter… and Clear Filter on the four explorer views, and the Containers view's "this workspace only" toggle. */
import * as vscode from 'vscode';
import { command } from '../workbench/commandTable';
import type { FiltersDeps } from './deps';
import { VIEW_NAMES, type ViewFilters } from './viewFilters';
import type { FilterableViewName } from '../views/filterRows';

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

export function filterCommands(filters: ViewFilters): ReturnType<typeof command<FiltersDeps>>[] {
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
