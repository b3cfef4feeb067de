/**
 * The `berth-image:` file system: any file of any layer of an image, read-only (an image never changes). A read
 * streams the image's saved form once and stops at the file (engine/files/layerFiles.ts); what was read is kept per image
 * id (the Images feature's one ImageLayersCache), so the editor's stat and read, and a second open, cost one read. Every refusal carries the engine reader's
 * words: a file the layer removes, a folder, a path the layer does not hold, a file over the size cap.
 */
import * as vscode from 'vscode';
import { isEngineError, type EngineClient, type ImageLayersCache, type ReadLayerFileOptions } from '../engine';
import { errorMessage } from '../common/errors';
import { layerFileAddressOf, layerFileUriParts, type LayerFileAddress } from './layerFileUri';

export function layerFileUri(address: LayerFileAddress): vscode.Uri {
  return vscode.Uri.from(layerFileUriParts(address));
}

export function readOnlyMessage(): string {
  return vscode.l10n.t('Files in an image layer are read-only: an image never changes. Save a copy with Save As, or change the Dockerfile and build again');
}

export class LayerFileSystem implements vscode.FileSystemProvider {
  private readonly changes = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changes.event;
  constructor(
    private readonly clientFor: (engine: string) => EngineClient,
    private readonly cache: ImageLayersCache,
  ) {}

  /** The file's bytes, read once per image id (the open command reads through here with its progress's signal). */
  read(address: LayerFileAddress, options: ReadLayerFileOptions = {}): Promise<Buffer> {
    return this.cache.file(this.clientFor(address.engine), address, options);
  }

  async stat(uri: vscode.Uri): Promise<vscode.FileStat> {
    const address = this.addressOf(uri);
    // The layer's root and the image's folders are only there to hold the files.
    if (address.path === '') return { type: vscode.FileType.Directory, ctime: 0, mtime: 0, size: 0, permissions: vscode.FilePermission.Readonly };
    const bytes = await this.readOrRefuse(address);
    return { type: vscode.FileType.File, ctime: 0, mtime: 0, size: bytes.length, permissions: vscode.FilePermission.Readonly };
  }

  readFile(uri: vscode.Uri): Promise<Uint8Array> {
    return this.readOrRefuse(this.addressOf(uri));
  }

  readDirectory(): [string, vscode.FileType][] {
    return [];
  }

  watch(): vscode.Disposable {
    // An image id names the same content for ever: nothing to watch.
    return new vscode.Disposable(() => undefined);
  }

  writeFile(): never {
    throw vscode.FileSystemError.NoPermissions(readOnlyMessage());
  }

  createDirectory(): never {
    throw vscode.FileSystemError.NoPermissions(readOnlyMessage());
  }

  delete(): never {
    throw vscode.FileSystemError.NoPermissions(readOnlyMessage());
  }

  rename(): never {
    throw vscode.FileSystemError.NoPermissions(readOnlyMessage());
  }

  dispose(): void {
    this.changes.dispose();
  }

  private addressOf(uri: vscode.Uri): LayerFileAddress {
    const address = layerFileAddressOf({ scheme: uri.scheme, authority: uri.authority, path: uri.path, query: uri.query });
    if (address === undefined) throw vscode.FileSystemError.FileNotFound(uri);
    return address;
  }

  private async readOrRefuse(address: LayerFileAddress): Promise<Buffer> {
    try {
      return await this.read(address);
    } catch (error) {
      const message = errorMessage(error);
      if (isEngineError(error, 'not-found')) throw vscode.FileSystemError.FileNotFound(message);
      if (isEngineError(error, 'bad-request') && / is a folder in /.test(message)) throw vscode.FileSystemError.FileIsADirectory(message);
      throw vscode.FileSystemError.Unavailable(message);
    }
  }
}
