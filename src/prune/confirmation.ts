/** The words of a prune's confirmation and of its outcome. No `vscode` here. */
import { formatBytes, plural } from '../common/format';
import { PRUNE_TITLES, keepsWhatRemovedContainersUse, planTotal, validatePruneFilters, type PruneKind, type PrunePlan, type PruneItem } from '../engine';

/** How many names a confirmation lists per part before "and N more". */
const LISTED = 25;

function names(items: readonly PruneItem[]): string {
  const shown = items.slice(0, LISTED).map((item) => (item.size !== undefined ? `${item.name} (${formatBytes(item.size)})` : item.name));
  if (items.length > LISTED) shown.push(`… and ${items.length - LISTED} more`);
  return shown.join('\n  ');
}

/** The modal's message and detail: exactly what goes (names, total size) and what stays because it is in use. */
export function confirmationText(plan: PrunePlan): { message: string; detail: string } {
  const going = plan.parts.reduce((sum, part) => sum + part.remove.length, 0);
  const total = planTotal(plan);
  const message = `Remove ${plural(going, 'object')}${total > 0 ? ` (${formatBytes(total)})` : ''}?`;
  const lines: string[] = [];
  for (const part of plan.parts) {
    if (part.remove.length > 0) lines.push(`Removes ${plural(part.remove.length, PRUNE_TITLES[part.kind].replace(/s$/, ''), PRUNE_TITLES[part.kind])}:\n  ${names(part.remove)}`);
    if (part.kept.length > 0) lines.push(`Keeps (in use):\n  ${names(part.kept)}`);
  }
  const semantics = keepsWhatRemovedContainersUse(plan);
  if (semantics !== undefined) lines.push(semantics);
  const filters = Object.entries(plan.filters).flatMap(([key, values]) => values.map((value) => `${key}=${value}`));
  if (filters.length > 0) lines.push(`Filters: ${filters.join(', ')}`);
  return { message, detail: lines.join('\n\n') };
}

/**
 * `label=a=b`, `label!=keep`, `until=24h` into the engine's filters; throws naming the entry that is not KEY=VALUE,
 * or (given the prune's kinds) the key that prune does not accept.
 */
export function parseFilterEntries(entries: readonly string[], kinds?: readonly PruneKind[]): Record<string, string[]> {
  const filters: Record<string, string[]> = {};
  for (const entry of entries) {
    const equals = entry.indexOf('=');
    if (equals <= 0 || equals === entry.length - 1) throw new Error(`The filter "${entry}" is not KEY=VALUE (e.g. label=team=a or until=24h)`);
    const key = entry.slice(0, equals);
    filters[key] = [...(filters[key] ?? []), entry.slice(equals + 1)];
  }
  if (kinds !== undefined) validatePruneFilters(kinds, filters);
  return filters;
}
