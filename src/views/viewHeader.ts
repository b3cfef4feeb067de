/**
 * Puts a view's description and message (those given) on its TreeView, each only when it changed. No `vscode`
 * import, so the rule is unit-tested with a plain object.
 */

/** The part of a TreeView this sets (VS Code's own TreeView fits it). */
export interface ViewHeader {
  description?: string | undefined;
  message?: unknown;
}

/**
 * VS Code debounces a view's refreshes and message changes together (200 ms, the first one at once): a message set
 * again unchanged just before a refresh would hold that refresh back 200 ms, and a description set again is one more
 * message to the window.
 */
export function showViewHeader(
  view: ViewHeader,
  header: { description?: string | undefined; message?: string | undefined },
): void {
  if ('description' in header && view.description !== header.description) view.description = header.description;
  if ('message' in header && view.message !== header.message) view.message = header.message;
}
