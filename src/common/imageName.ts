/** Splitting `repo[:tag]`: the tag follows the last `:` after the last `/` (a registry port is not a tag). */
export function splitRepoTag(reference: string): { repo: string; tag: string | undefined } {
  const slash = reference.lastIndexOf('/');
  const colon = reference.lastIndexOf(':');
  if (colon > slash) return { repo: reference.slice(0, colon), tag: reference.slice(colon + 1) };
  return { repo: reference, tag: undefined };
}
