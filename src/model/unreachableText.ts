/**
 * What the Containers and Images views say when their one engine is unreachable: the reason, as the walkthrough
 * words it, then the endpoint itself (the view's title description is cut off in a normal side bar). It goes in the
 * view's message (one paragraph: VS Code joins its lines), as welcome content is static text and cannot carry an
 * endpoint. No `vscode` here.
 */
import * as l10n from '@vscode/l10n';
import type { UnreachableReason } from './unreachable';

/** The first sentences of the walkthrough's step for each reason (package.nls.json keeps the same words). */
export const UNREACHABLE_REASONS: Record<UnreachableReason, string> = {
  missing: 'No container engine answers at the configured endpoint: its socket or host does not exist. Start Docker or Podman, or set the endpoint in the settings.',
  refused: 'The container engine refused the connection. Is Docker or Podman running?',
  denied: "Permission denied on the container engine's socket. Add your user to the docker group, or use rootless Podman.",
  version: 'The container engine speaks an API version Berth does not support.',
  other: "Berth cannot reach the container engine. The log has the engine's message.",
};

/** UNREACHABLE_REASONS in the display language (the German bundle has the German walkthrough's words). */
function reasonText(reason: UnreachableReason): string {
  switch (reason) {
    case 'missing':
      return l10n.t('No container engine answers at the configured endpoint: its socket or host does not exist. Start Docker or Podman, or set the endpoint in the settings.');
    case 'refused':
      return l10n.t('The container engine refused the connection. Is Docker or Podman running?');
    case 'denied':
      return l10n.t("Permission denied on the container engine's socket. Add your user to the docker group, or use rootless Podman.");
    case 'version':
      return l10n.t('The container engine speaks an API version Berth does not support.');
    case 'other':
      return l10n.t("Berth cannot reach the container engine. The log has the engine's message.");
  }
}

export function unreachableViewMessage(reason: UnreachableReason, endpoint: string): string {
  return [reasonText(reason), l10n.t('Endpoint: {0}', endpoint), l10n.t("Retry Connection is in this view's title bar; Open Settings and Show Log are in its … menu.")].join(' · ');
}

/**
 * What a pick that lists the engine's objects (Run Container's images) shows while the engine is unreachable, in
 * place of an empty list that reads as "no images": the engine's state, the reason, and what to do.
 */
export function unreachablePickNotice(engineName: string, reason: UnreachableReason, endpoint: string): { label: string; detail: string } {
  return {
    label: l10n.t('{0} is not reachable, so no local image is listed', engineName),
    detail: [reasonText(reason), l10n.t('Endpoint: {0}', endpoint), l10n.t('Retry Connection is in the Containers view\'s title bar.')].join(' · '),
  };
}
