/**
 * What an EngineTreeView says about its engines rather than their rows: the root row of each engine (with several)
 * and the view's description and message (with one).
 */
import * as vscode from 'vscode';
import type { EngineSession } from '../model/session';
import { classifyUnreachable } from '../model/unreachable';
import { unreachableViewMessage } from '../model/unreachableText';
import type { EngineRootNode } from './engineForest';
import { presentEngine, savedListingMessage } from './presentation';
import { toTreeItem } from './treeItems';

/** An engine's root row: its name, state and status; folded while it is unreachable (it has no rows then). */
export function engineRootItem(node: EngineRootNode, session: EngineSession | undefined, current: boolean): vscode.TreeItem {
  if (!session) return new vscode.TreeItem(node.engine);
  const presentation = presentEngine({
    name: session.name,
    state: session.state,
    status: session.statusText(),
    reason: session.reason,
    endpoint: session.endpointDisplay,
    source: session.descriptor.sourceText,
    current,
  });
  const collapsible = session.state === 'unreachable' ? vscode.TreeItemCollapsibleState.None : vscode.TreeItemCollapsibleState.Expanded;
  return toTreeItem(`engine:${session.id}`, presentation, collapsible);
}

/**
 * The view's description and message. ONLY is the engine when the view shows just one (undefined with several).
 * With one engine an outage is explained in the view's message, endpoint included (welcome content is static
 * text, and the title's description is cut off in a normal side bar). A message hides the welcome content, so
 * Retry Connection is a title action while the engine is unreachable. With several, each root row says it.
 */
export function viewStatus(
  only: EngineSession | undefined,
  filterDescription: () => string | undefined,
  now: number,
): { description: string | undefined; message: string | undefined } {
  const unreachable = only?.state === 'unreachable' ? only : undefined;
  const description = unreachable ? `unreachable: ${unreachable.endpointDisplay}` : filterDescription();
  const savedAt = only?.model.state === 'connecting' ? only.model.savedListingAt : undefined;
  const message = unreachable
    ? unreachableViewMessage(classifyUnreachable(unreachable.model.lastError), unreachable.endpointDisplay)
    : savedAt !== undefined
      ? savedListingMessage(savedAt, now)
      : undefined;
  return { description, message };
}
