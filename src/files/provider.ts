/**
 * The `berth-container` file system: files of any container (running, stopped, or without a shell) through the
 * archive API; delete and rename through exec where the container can run `rm`/`mv`. Errors are FileSystemErrors,
 * so VS Code shows its own flows (missing file, save conflict by mtime, read-only).
 */
import * as vscode from 'vscode';
import { Disposable } from '../common/lifecycle';
import { errorMessage } from '../common/errors';
import { EngineError, type EngineClient } from '../engine';
import {
  kindOfStat,
  listByArchive,
  listByExec,
  makeContainerDirectory,
  readContainerFile,
  resolveLink,
  runFileCommand,
  statFollowing,
  writeContainerFile,
  type EntryKind,
  type FileEntry,
} from '../engine/files';
import type { LogDeps, SessionsDeps } from '../workbench/deps';
import { LargeFileGate } from './largeFiles';
import { ListingSessions } from './listingSessions';
import { locationOf, type ContainerLocation } from './uri';

export type FilesProviderDeps = LogDeps & Pick<SessionsDeps, 'sessionFor'>;

type ListingWay = 'exec' | 'archive';

/** What Berth remembers of a container: whether its root is read-only (fixed at create) and how it lists best. */
interface ContainerFacts {
  readonly readonly: boolean;
  way: ListingWay | undefined;
  /** Milliseconds the last listing took each way: the faster one is used next. */
  readonly took: Partial<Record<ListingWay, number>>;
}

export class ContainerFileSystemProvider extends Disposable implements vscode.FileSystemProvider {
  private readonly _onDidChangeFile = this._register(new vscode.EventEmitter<vscode.FileChangeEvent[]>());
  readonly onDidChangeFile = this._onDidChangeFile.event;
  private readonly facts = new Map<string, Promise<ContainerFacts>>();
  private readonly largeFiles = new LargeFileGate();
  private readonly listingHelpers = this._register(new ListingSessions());

  constructor(private readonly deps: FilesProviderDeps) {
    super();
  }

  watch(): vscode.Disposable {
    // The engine has no file events; Berth reports its own writes, and VS Code re-reads on focus.
    return new vscode.Disposable(() => undefined);
  }

  async stat(uri: vscode.Uri): Promise<vscode.FileStat> {
    const { client, location, facts } = await this.open(uri);
    return this.guard(uri, client, location, async () => {
      const own = await client.containers.statPath(location.containerId, location.path);
      const kind = kindOfStat(own);
      let target = own;
      if (kind === 'symlink') {
        target = (await statFollowing(client, location.containerId, resolveLink(location.path, own.linkTarget)).catch(() => ({ stat: own }))).stat;
      }
      const targetKind = kindOfStat(target);
      const mtime = Date.parse(target.mtime);
      return {
        type: fileType(targetKind === 'symlink' ? 'other' : targetKind) | (kind === 'symlink' ? vscode.FileType.SymbolicLink : 0),
        size: target.size,
        mtime: Number.isNaN(mtime) ? 0 : mtime,
        ctime: Number.isNaN(mtime) ? 0 : mtime,
        ...(facts.readonly ? { permissions: vscode.FilePermission.Readonly } : {}),
      };
    });
  }

  async readDirectory(uri: vscode.Uri): Promise<[string, vscode.FileType][]> {
    const { client, location, facts } = await this.open(uri);
    return this.guard(uri, client, location, async () => {
      const entries = await this.list(client, location, facts);
      // Symlinks are shown as links to what they name (a link to a directory expands).
      return Promise.all(
        entries.map(async (entry): Promise<[string, vscode.FileType]> => {
          if (entry.kind !== 'symlink') return [entry.name, fileType(entry.kind)];
          const path = location.path === '/' ? `/${entry.name}` : `${location.path}/${entry.name}`;
          const target = await statFollowing(client, location.containerId, path).catch(() => undefined);
          return [entry.name, vscode.FileType.SymbolicLink | (target ? fileType(kindOfStat(target.stat)) : vscode.FileType.Unknown)];
        }),
      );
    });
  }

  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    const { client, location } = await this.open(uri);
    return this.guard(uri, client, location, async () => {
      const { stat } = await statFollowing(client, location.containerId, location.path);
      await this.largeFiles.check(uri, location.path, stat.size, Date.parse(stat.mtime));
      return readContainerFile(client, location.containerId, location.path);
    });
  }

  async writeFile(uri: vscode.Uri, content: Uint8Array, options: { readonly create: boolean; readonly overwrite: boolean }): Promise<void> {
    const { client, location, facts } = await this.open(uri);
    this.refuseReadonly(uri, facts);
    await this.guard(uri, client, location, async () => {
      const exists = await this.exists(client, location);
      if (exists && !options.overwrite) throw vscode.FileSystemError.FileExists(uri);
      if (!exists && !options.create) throw vscode.FileSystemError.FileNotFound(uri);
      const warning = await writeContainerFile(client, location.containerId, location.path, Buffer.from(content.buffer, content.byteOffset, content.byteLength));
      if (warning !== undefined) this.deps.log.warn(warning);
    });
    this._onDidChangeFile.fire([{ type: vscode.FileChangeType.Changed, uri }]);
  }

  async createDirectory(uri: vscode.Uri): Promise<void> {
    const { client, location, facts } = await this.open(uri);
    this.refuseReadonly(uri, facts);
    await this.guard(uri, client, location, async () => {
      if (await this.exists(client, location)) throw vscode.FileSystemError.FileExists(uri);
      const warning = await makeContainerDirectory(client, location.containerId, location.path);
      if (warning !== undefined) this.deps.log.warn(warning);
    });
    this._onDidChangeFile.fire([{ type: vscode.FileChangeType.Created, uri }]);
  }

  async delete(uri: vscode.Uri, options: { readonly recursive: boolean }): Promise<void> {
    const { client, location, facts } = await this.open(uri);
    this.refuseReadonly(uri, facts);
    await this.guard(uri, client, location, async () => {
      await client.containers.statPath(location.containerId, location.path);
      const cmd = options.recursive ? ['rm', '-rf', '--', location.path] : ['rm', '-f', '--', location.path];
      await runFileCommand(client, location.containerId, cmd, 'delete');
    });
    this._onDidChangeFile.fire([{ type: vscode.FileChangeType.Deleted, uri }]);
  }

  async rename(oldUri: vscode.Uri, newUri: vscode.Uri, options: { readonly overwrite: boolean }): Promise<void> {
    const from = await this.open(oldUri);
    const to = locationOf(newUri);
    if (to.engine !== from.location.engine || to.containerId !== from.location.containerId) {
      throw vscode.FileSystemError.Unavailable('Berth renames only within one container; copy the file instead');
    }
    this.refuseReadonly(oldUri, from.facts);
    await this.guard(oldUri, from.client, from.location, async () => {
      await from.client.containers.statPath(from.location.containerId, from.location.path);
      if (!options.overwrite && (await this.exists(from.client, to))) throw vscode.FileSystemError.FileExists(newUri);
      await runFileCommand(from.client, to.containerId, ['mv', '-f', '--', from.location.path, to.path], 'rename');
    });
    this._onDidChangeFile.fire([
      { type: vscode.FileChangeType.Deleted, uri: oldUri },
      { type: vscode.FileChangeType.Created, uri: newUri },
    ]);
  }

  /** Lists one level, the faster way for this container once both were tried, falling back on failure. */
  private async list(client: EngineClient, location: ContainerLocation, facts: ContainerFacts): Promise<FileEntry[]> {
    const order: ListingWay[] = facts.way === 'archive' ? ['archive', 'exec'] : ['exec', 'archive'];
    let lastError: unknown;
    for (const way of order) {
      const started = performance.now();
      try {
        const entries = way === 'exec' ? await this.listByExec(client, location) : await listByArchive(client, location.containerId, location.path);
        facts.took[way] = performance.now() - started;
        const other = facts.took[way === 'exec' ? 'archive' : 'exec'];
        facts.way = other !== undefined && other < (facts.took[way] ?? 0) ? (way === 'exec' ? 'archive' : 'exec') : way;
        return entries;
      } catch (error) {
        lastError = error;
        if (way === 'exec') {
          // No find, or not running: the archive works on every container; try exec again only if it ever works.
          facts.way = 'archive';
          this.deps.log.debug(`Listing ${location.path} through exec failed, using the archive: ${errorMessage(error)}`);
          continue;
        }
        throw error;
      }
    }
    throw lastError;
  }

  /** Through the container's listing helper; where it cannot serve, one exec of its own, which names the failure. */
  private async listByExec(client: EngineClient, location: ContainerLocation): Promise<FileEntry[]> {
    try {
      return await this.listingHelpers.list(client, location.containerId, location.path);
    } catch (error) {
      this.deps.log.debug(`Listing ${location.path} through the listing helper failed, one exec instead: ${errorMessage(error)}`);
      return listByExec(client, location.containerId, location.path);
    }
  }

  private async exists(client: EngineClient, location: ContainerLocation): Promise<boolean> {
    try {
      await client.containers.statPath(location.containerId, location.path);
      return true;
    } catch (error) {
      if (error instanceof EngineError && error.kind === 'not-found') return false;
      throw error;
    }
  }

  private refuseReadonly(uri: vscode.Uri, facts: ContainerFacts): void {
    if (facts.readonly) {
      throw vscode.FileSystemError.NoPermissions(`${uri.path}: this container's root file system is read-only; Berth cannot change files in it`);
    }
  }

  private async open(uri: vscode.Uri): Promise<{ client: EngineClient; location: ContainerLocation; facts: ContainerFacts }> {
    const location = locationOf(uri);
    let client: EngineClient;
    try {
      client = this.deps.sessionFor(location.engine).client;
    } catch (error) {
      throw vscode.FileSystemError.Unavailable(`The engine ${location.engine} is not configured any more: ${errorMessage(error)}`);
    }
    let facts = this.facts.get(location.containerId);
    if (facts === undefined) {
      facts = client.containers.inspect(location.containerId).then((inspect) => ({ readonly: inspect.HostConfig['ReadonlyRootfs'] === true, way: undefined, took: {} }));
      this.facts.set(location.containerId, facts);
      facts.catch(() => this.facts.delete(location.containerId));
    }
    return { client, location, facts: await this.guard(uri, client, location, () => facts) };
  }

  /** Runs an engine call and turns its failure into the FileSystemError VS Code understands, keeping the engine's words. */
  private async guard<T>(uri: vscode.Uri, client: EngineClient, location: ContainerLocation, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof vscode.FileSystemError) throw error;
      throw await this.toFileSystemError(error, uri, client, location);
    }
  }

  private async toFileSystemError(error: unknown, uri: vscode.Uri, client: EngineClient, location: ContainerLocation): Promise<vscode.FileSystemError> {
    const words = errorMessage(error);
    this.deps.log.debug(`${uri.toString()}: ${words}`);
    if (/permission denied/i.test(words)) return vscode.FileSystemError.NoPermissions(`${location.path}: permission denied in the container (the engine said "${words}")`);
    if (/read-only file system/i.test(words)) return vscode.FileSystemError.NoPermissions(`${location.path}: the container's file system is read-only`);
    if (error instanceof EngineError && error.kind === 'not-found') {
      const containerGone = await client.containers.inspect(location.containerId).then(
        () => false,
        (inspectError: unknown) => inspectError instanceof EngineError && inspectError.kind === 'not-found',
      );
      if (!containerGone) return vscode.FileSystemError.FileNotFound(uri);
      this.facts.delete(location.containerId);
      return vscode.FileSystemError.Unavailable(`The container ${location.containerId.slice(0, 12)} was removed; its files are gone (unsaved text stays in the editor: save it elsewhere)`);
    }
    return vscode.FileSystemError.Unavailable(words);
  }
}

function fileType(kind: EntryKind): vscode.FileType {
  if (kind === 'directory') return vscode.FileType.Directory;
  if (kind === 'file') return vscode.FileType.File;
  if (kind === 'symlink') return vscode.FileType.SymbolicLink;
  return vscode.FileType.Unknown;
}
