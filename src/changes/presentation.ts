/** The words of the Changes rows (vscode-free): the counts on the row and the letter and tooltip of each path. */
import * as l10n from '@vscode/l10n';
import { CHANGE_LETTERS, type ChangeCounts, type ChangeKind } from '../engine';

/** "3 added, 1 changed, 1 deleted", leaving out kinds with none; "no changes" when there are none. */
export function changesSummary(counts: ChangeCounts): string {
  const parts: string[] = [];
  if (counts.added > 0) parts.push(l10n.t('{0} added', counts.added));
  if (counts.changed > 0) parts.push(l10n.t('{0} changed', counts.changed));
  if (counts.deleted > 0) parts.push(l10n.t('{0} deleted', counts.deleted));
  return parts.length === 0 ? l10n.t('no changes') : parts.join(', ');
}

/** A path's tooltip: the path and what happened to it. */
export function changeTooltip(path: string, kind: ChangeKind | undefined): string {
  if (kind === 1) return l10n.t('{0}: added by the container', path);
  if (kind === 2) return l10n.t('{0}: deleted by the container (the image has it)', path);
  if (kind === 0) return l10n.t('{0}: changed by the container', path);
  return path;
}

export function changeLetter(kind: ChangeKind | undefined): string | undefined {
  return kind === undefined ? undefined : CHANGE_LETTERS[kind];
}

/** The Changes row's tooltip, saying how it is kept current. */
export function changesRowTooltip(leftOut: number): string {
  const base = l10n.t('What the container changed against its image, as the engine reports it (docker diff). Updated while the view is shown, when the container is touched.');
  return leftOut > 0 ? `${base}\n\n${l10n.t('{0} more paths are counted but not listed.', leftOut)}` : base;
}
