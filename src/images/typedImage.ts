/**
 * What the image pick of Run Container… offers for the text typed into it, vscode-free: a local tag, a reference to
 * pull if missing, or a refusal with the reason. Checked as it is typed, so a reference no engine can pull
 * (`Ünïcode/ímage`) is never offered as "pull if missing".
 */
import { validateImageReference } from '../engine';

export type TypedImageOffer =
  | { readonly kind: 'nothing' }
  | { readonly kind: 'local' }
  | { readonly kind: 'pull'; readonly reference: string }
  | { readonly kind: 'invalid'; readonly reference: string; readonly reason: string };

export function offerForTyped(value: string, localTags: readonly string[]): TypedImageOffer {
  const typed = value.trim();
  if (typed === '') return { kind: 'nothing' };
  if (localTags.includes(typed)) return { kind: 'local' };
  const reason = validateImageReference(typed);
  return reason === undefined ? { kind: 'pull', reference: typed } : { kind: 'invalid', reference: typed, reason };
}
