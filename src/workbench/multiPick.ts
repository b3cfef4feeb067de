/**
 * The one multi-pick of Berth: a QuickPick with checkboxes where Enter with nothing ticked acts on the highlighted
 * item (what a user who typed a name and pressed Enter meant), instead of accepting an empty choice and doing nothing.
 */
import * as vscode from 'vscode';
import { DisposableStore } from '../common/lifecycle';
import { firstFilterMatch } from './pickFilter';

export interface MultiPickOptions {
  readonly placeHolder: string;
  readonly title?: string | undefined;
  /**
   * For switches (a run's TTY, Interactive, …) where ticking none is itself an answer: Enter then accepts the ticked
   * items, none included, and the placeholder says so.
   */
  readonly noneIsAnAnswer?: boolean;
}

/**
 * Resolves the ticked items, else the highlighted one (or none, with `noneIsAnAnswer`); undefined when dismissed.
 * Items with `picked` start ticked. Every multi-pick of Berth goes through here (eslint.config.mjs refuses others).
 */
export function pickMany<T extends vscode.QuickPickItem>(items: readonly T[], options: MultiPickOptions): Promise<T[] | undefined> {
  const quickPick = vscode.window.createQuickPick<T>();
  quickPick.canSelectMany = true;
  quickPick.placeholder = options.noneIsAnAnswer === true ? options.placeHolder : `${options.placeHolder} (Space ticks several; Enter alone takes the highlighted one)`;
  if (options.title !== undefined) quickPick.title = options.title;
  quickPick.items = items;
  const preTicked = items.filter((item) => item.picked === true);
  if (preTicked.length > 0) quickPick.selectedItems = preTicked;
  // Highlighted from the start, as in a single pick: Enter alone takes the first item.
  if (items[0] !== undefined) quickPick.activeItems = [items[0]];
  return new Promise<T[] | undefined>((resolve) => {
    const lifetime = new DisposableStore();
    lifetime.add(quickPick);
    lifetime.add(
      // Typing clears the highlight of a checkbox pick: put it on the first item the filter keeps.
      quickPick.onDidChangeValue((typed) => {
        const first = firstFilterMatch(items, typed);
        quickPick.activeItems = first === undefined ? [] : [first];
      }),
    );
    lifetime.add(
      quickPick.onDidAccept(() => {
        if (options.noneIsAnAnswer === true) {
          resolve([...quickPick.selectedItems]);
          quickPick.hide();
          return;
        }
        const highlighted = quickPick.activeItems.length > 0 ? [...quickPick.activeItems] : [firstFilterMatch(items, quickPick.value)].filter((item) => item !== undefined);
        const chosen = quickPick.selectedItems.length > 0 ? [...quickPick.selectedItems] : highlighted;
        // Nothing ticked and nothing highlighted (a filter that matches nothing): keep the picker open.
        if (chosen.length === 0) return;
        resolve(chosen);
        quickPick.hide();
      }),
    );
    lifetime.add(
      quickPick.onDidHide(() => {
        resolve(undefined);
        lifetime.dispose();
      }),
    );
    quickPick.show();
  });
}
