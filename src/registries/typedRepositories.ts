/**
 * The repositories a user typed into "Type a Repository…", per registry key, for registries that do not list their
 * own. Kept in the extension's global state: names only, nothing secret, and the same in every window.
 */
import type * as vscode from 'vscode';

const STATE_KEY = 'berth.registries.typedRepositories';
/** A registry's typed list keeps the most recent this many. */
const KEEP = 50;

/** What is wrong with a repository name, or undefined: lower-case path components, as the distribution spec says. */
export function repositoryNameProblem(name: string): string | undefined {
  if (name === '') return 'Enter a repository name, such as team/app';
  if (!/^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:\/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*$/.test(name)) {
    return `"${name}" is not a repository name: use lower-case letters, digits and . _ - separated by /, without a tag (team/app, not team/app:1.0)`;
  }
  return undefined;
}

export class TypedRepositories {
  readonly #state: vscode.Memento;

  constructor(state: vscode.Memento) {
    this.#state = state;
  }

  get(registry: string): readonly string[] {
    return this.#all()[registry] ?? [];
  }

  async add(registry: string, repository: string): Promise<void> {
    const all = this.#all();
    const list = [repository, ...(all[registry] ?? []).filter((entry) => entry !== repository)].slice(0, KEEP);
    await this.#state.update(STATE_KEY, { ...all, [registry]: list });
  }

  async remove(registry: string, repository: string): Promise<void> {
    const all = this.#all();
    await this.#state.update(STATE_KEY, { ...all, [registry]: (all[registry] ?? []).filter((entry) => entry !== repository) });
  }

  #all(): Record<string, string[]> {
    const stored = this.#state.get<unknown>(STATE_KEY);
    if (typeof stored !== 'object' || stored === null) return {};
    const valid: Record<string, string[]> = {};
    for (const [key, value] of Object.entries(stored)) {
      if (Array.isArray(value)) valid[key] = value.filter((entry): entry is string => typeof entry === 'string' && repositoryNameProblem(entry) === undefined);
    }
    return valid;
  }
}
