import type * as vscode from 'vscode';

/** Who owns what a feature registers: the extension context, or the Ctx (`registerDisposable`). */
export type DisposableOwner = vscode.ExtensionContext | { registerDisposable<T extends vscode.Disposable>(item: T): T };

export function own<T extends vscode.Disposable>(owner: DisposableOwner, disposable: T): T {
  if ('subscriptions' in owner) owner.subscriptions.push(disposable);
  else owner.registerDisposable(disposable);
  return disposable;
}
