/** Entry point: one Ctx per activation. Activation makes no engine call; the first listing starts in the background. */
import type * as vscode from 'vscode';
import { Ctx, type BerthApi } from './ctx';

export function activate(context: vscode.ExtensionContext): BerthApi {
  const ctx = new Ctx(context);
  context.subscriptions.push(ctx);
  return ctx.api;
}

export function deactivate(): void {
  // The Ctx is in context.subscriptions; VS Code disposes it.
}
