/** Entry point: one Ctx per activation. Activation makes no engine call; the first listing starts in the background. */
import type * as vscode from 'vscode';
import { Ctx, type BerthApi } from './ctx';

export function activate(context: vscode.ExtensionContext): BerthApi {
  const started = performance.now();
  const ctx = new Ctx(context);
  context.subscriptions.push(ctx);
  // Both figures go to the log at info level: bench/ reads them from the real extension host.
  ctx.log.info(`Activated in ${(performance.now() - started).toFixed(2)} ms`);
  ctx.api.whenModelReady().then(
    () => ctx.log.info(`Views ready ${(performance.now() - started).toFixed(2)} ms after activation began`),
    () => undefined, // Unreachable engine: the model logs why and the welcome view says so.
  );
  return ctx.api;
}

export function deactivate(): void {
  // The Ctx is in context.subscriptions; VS Code disposes it.
}
