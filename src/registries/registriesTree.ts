/**
 * The Registries view (`berth.registries`): registries from Berth's sign-ins and from the docker configuration;
 * under each its repositories (`/v2/_catalog`; Docker Hub's and GHCR's own APIs for those two, which serve no catalog
 * to users), under each repository its tags. Where a listing is refused, a "Type a Repository…" row takes its place,
 * and the repositories typed there are remembered per registry.
 */
import { errorMessage } from '../common/errors';
import * as vscode from 'vscode';
import { repositoryCatalogFor, type RepositoryCatalog } from '../engine/registry';
import { isRegistryError } from '../engine/registry';
import { toRegistryAuth, type CredentialChain, type CredentialSourceName } from './credentialChain';

export interface RegistryNode {
  readonly kind: 'registry';
  /** host[:port], `docker.io` for Docker Hub. */
  readonly registry: string;
  /** Where the registry was found: signed in with Berth and/or named in the docker configuration. */
  readonly origins: readonly CredentialSourceName[];
}

export interface RepositoryNode {
  readonly kind: 'repository';
  readonly registry: string;
  readonly repository: string;
  /** Typed by the user ("Type a Repository…") rather than listed by the registry. */
  readonly typed?: boolean | undefined;
}

/** The row that asks for a repository name, where the registry does not list its repositories. */
export interface TypeRepositoryNode {
  readonly kind: 'type-repository';
  readonly registry: string;
}

export interface TagNode {
  readonly kind: 'tag';
  readonly registry: string;
  readonly repository: string;
  readonly tag: string;
}

/** A row standing for a failed listing or an empty one, inside a registry or repository. */
export interface NoticeNode {
  readonly kind: 'notice';
  readonly parentId: string;
  readonly text: string;
  readonly detail?: string | undefined;
  readonly isError: boolean;
  /** The registry refused the listing (rather than being unreachable): naming a repository may still work. */
  readonly refused?: boolean | undefined;
}

export type RegistryTreeNode = RegistryNode | RepositoryNode | TagNode | NoticeNode | TypeRepositoryNode;

/** `registry/repository:tag` as the engine pulls it (Docker Hub keeps its `docker.io/` prefix: unambiguous). */
export function referenceOf(node: TagNode | RepositoryNode): string {
  const name = `${node.registry}/${node.repository}`;
  return node.kind === 'tag' ? `${name}:${node.tag}` : name;
}

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });
/** Catalogs can be huge; the view lists this many entries at most and says so. */
const LIST_LIMIT = 1000;

export interface RegistriesTreeSources {
  readonly chain: CredentialChain;
  /** Registry keys with a Berth sign-in. */
  readonly signedIn: () => Promise<string[]>;
  /** Registry keys named in the docker configuration. */
  readonly fromDockerConfig: () => Promise<string[]>;
  readonly log: vscode.LogOutputChannel;
  /** Repositories the user typed, per registry key (kept in the extension's global state). */
  readonly typed: { get(registry: string): readonly string[] };
}

export class RegistriesTreeProvider implements vscode.TreeDataProvider<RegistryTreeNode>, vscode.Disposable {
  readonly #sources: RegistriesTreeSources;
  readonly #changed = new vscode.EventEmitter<RegistryTreeNode | undefined>();
  readonly onDidChangeTreeData = this.#changed.event;
  /** Fires the number of registries after each root listing, for the view's empty-state message. */
  readonly #rootListed = new vscode.EventEmitter<number>();
  readonly onDidListRoot = this.#rootListed.event;

  /** Aborts the listings in flight when the whole view is refreshed or disposed: their answers would be thrown away. */
  #listings = new AbortController();

  constructor(sources: RegistriesTreeSources) {
    this.#sources = sources;
  }

  refresh(node?: RegistryTreeNode): void {
    if (!node) this.#renewListings();
    this.#changed.fire(node);
  }

  #renewListings(): void {
    this.#listings.abort();
    this.#listings = new AbortController();
  }

  async getChildren(node?: RegistryTreeNode): Promise<RegistryTreeNode[]> {
    if (!node) return this.#registries();
    if (node.kind === 'registry') return this.#repositories(node);
    if (node.kind === 'repository') return this.#tags(node);
    return [];
  }

  getTreeItem(node: RegistryTreeNode): vscode.TreeItem {
    switch (node.kind) {
      case 'registry': {
        const item = new vscode.TreeItem(node.registry, vscode.TreeItemCollapsibleState.Collapsed);
        item.id = `registry:${node.registry}`;
        item.contextValue = 'berth:registry';
        item.iconPath = new vscode.ThemeIcon('database');
        item.description = node.origins.map((origin) => (origin === 'berth' ? 'signed in' : 'docker config')).join(' · ');
        item.tooltip = `${node.registry}\nCredentials: ${node.origins.map((origin) => (origin === 'berth' ? 'Berth sign-in (VS Code secret storage)' : 'docker configuration')).join(', then ')}`;
        return item;
      }
      case 'repository': {
        const item = new vscode.TreeItem(node.repository, vscode.TreeItemCollapsibleState.Collapsed);
        item.id = `registry:${node.registry}/${node.repository}`;
        item.contextValue = node.typed ? 'berth:registry:repository:typed' : 'berth:registry:repository';
        item.iconPath = new vscode.ThemeIcon('repo');
        item.tooltip = referenceOf(node);
        if (node.typed) item.description = vscode.l10n.t('typed');
        return item;
      }
      case 'type-repository': {
        const item = new vscode.TreeItem(vscode.l10n.t('Type a Repository…'), vscode.TreeItemCollapsibleState.None);
        item.id = `registry:${node.registry}:type-repository`;
        item.contextValue = 'berth:registry:type';
        item.iconPath = new vscode.ThemeIcon('edit');
        item.tooltip = vscode.l10n.t('Name a repository of {0} to list its tags', node.registry);
        item.command = { command: 'berth.registries.typeRepository', title: vscode.l10n.t('Type a Repository…'), arguments: [node] };
        return item;
      }
      case 'tag': {
        const item = new vscode.TreeItem(node.tag, vscode.TreeItemCollapsibleState.None);
        item.id = `registry:${referenceOf(node)}`;
        item.contextValue = 'berth:registry:tag';
        item.iconPath = new vscode.ThemeIcon('tag');
        item.tooltip = referenceOf(node);
        return item;
      }
      case 'notice': {
        const item = new vscode.TreeItem(node.text, vscode.TreeItemCollapsibleState.None);
        item.id = `${node.parentId}:notice`;
        item.contextValue = node.isError ? 'berth:registry:error' : 'berth:registry:empty';
        item.iconPath = new vscode.ThemeIcon(node.isError ? 'error' : 'info');
        item.tooltip = node.detail ?? node.text;
        if (node.detail) item.description = node.detail;
        return item;
      }
    }
  }

  async #registries(): Promise<RegistryNode[]> {
    const [signedIn, configured] = await Promise.all([
      this.#sources.signedIn(),
      this.#sources.fromDockerConfig().catch((error: unknown) => {
        this.#sources.log.warn(`Could not read the docker configuration: ${errorMessage(error)}`);
        return [];
      }),
    ]);
    const origins = new Map<string, CredentialSourceName[]>();
    for (const key of signedIn) origins.set(key, ['berth']);
    for (const key of configured) origins.set(key, [...(origins.get(key) ?? []), 'docker-config']);
    const nodes = [...origins]
      .sort(([a], [b]) => collator.compare(a, b))
      .map(([registry, from]): RegistryNode => ({ kind: 'registry', registry, origins: from }));
    this.#rootListed.fire(nodes.length);
    return nodes;
  }

  async #repositories(node: RegistryNode): Promise<RegistryTreeNode[]> {
    const parentId = `registry:${node.registry}`;
    const typed = this.#sources.typed.get(node.registry).map((repository): RepositoryNode => ({ kind: 'repository', registry: node.registry, repository, typed: true }));
    const listed = await this.#list(node.registry, parentId, 'repositories', async (client, signal) => {
      const repositories = await client.repositories({ limit: LIST_LIMIT, signal });
      return repositories.sort(collator.compare).map((repository): RepositoryNode => ({ kind: 'repository', registry: node.registry, repository }));
    });
    const known = new Set(listed.flatMap((row) => (row.kind === 'repository' ? [row.repository] : [])));
    const extra = typed.filter((row) => !known.has(row.repository));
    // A refused listing: the notice says why, and the user can still name a repository to browse.
    const refused = listed.some((row) => row.kind === 'notice' && row.refused === true);
    if (refused) return [...listed, ...extra, { kind: 'type-repository', registry: node.registry }];
    // "No repositories" gives way to the typed ones; "Showing the first N" stays.
    const empty = listed.length === 1 && listed[0]?.kind === 'notice' && !listed[0].isError && extra.length > 0;
    return empty ? extra : [...listed, ...extra];
  }

  async #tags(node: RepositoryNode): Promise<RegistryTreeNode[]> {
    const parentId = `registry:${referenceOf(node)}`;
    return this.#list(node.registry, parentId, 'tags', async (client, signal) => {
      const tags = await client.tags(node.repository, { limit: LIST_LIMIT, signal });
      // Newest-looking first: 2.0 before 1.10 before 1.9.
      return tags
        .sort((a, b) => collator.compare(b, a))
        .map((tag): TagNode => ({ kind: 'tag', registry: node.registry, repository: node.repository, tag }));
    });
  }

  async #list(
    registry: string,
    parentId: string,
    what: 'repositories' | 'tags',
    list: (client: RepositoryCatalog, signal: AbortSignal) => Promise<RegistryTreeNode[]>,
  ): Promise<RegistryTreeNode[]> {
    let client: RepositoryCatalog | undefined;
    const signal = this.#listings.signal;
    try {
      const found = await this.#sources.chain.find(registry, (source, error) =>
        this.#sources.log.warn(`Credential lookup in ${source} for ${registry} failed: ${errorMessage(error)}`),
      );
      client = repositoryCatalogFor(registry, { auth: found ? toRegistryAuth(found.credential) : undefined, log: (line) => this.#sources.log.debug(line) });
      const nodes = await list(client, signal);
      if (nodes.length === 0) return [{ kind: 'notice', parentId, text: what === 'tags' ? vscode.l10n.t('No tags') : vscode.l10n.t('No repositories'), isError: false }];
      if (nodes.length >= LIST_LIMIT) {
        nodes.push({ kind: 'notice', parentId, text: what === 'tags' ? vscode.l10n.t('Showing the first {0} tags', LIST_LIMIT) : vscode.l10n.t('Showing the first {0} repositories', LIST_LIMIT), isError: false });
      }
      return nodes;
    } catch (error) {
      const message = errorMessage(error);
      if (signal.aborted) {
        this.#sources.log.debug(`Listing ${what} of ${registry}: cancelled by a refresh`);
        return [];
      }
      this.#sources.log.error(`Listing ${what} of ${registry} failed: ${message}`);
      const refused = isRegistryError(error) && !['unreachable', 'cancelled', 'insecure', 'protocol'].includes(error.kind);
      return [{ kind: 'notice', parentId, text: what === 'tags' ? vscode.l10n.t('Cannot list tags') : vscode.l10n.t('Cannot list repositories'), detail: message, isError: true, refused }];
    } finally {
      await client?.close();
    }
  }

  dispose(): void {
    this.#listings.abort();
    this.#changed.dispose();
    this.#rootListed.dispose();
  }
}
