/**
 * The Images feature: the Images view and the image commands (pull, remove, run, run in background, commit), and
 * the berth-image: file system that opens any file of any layer read-only.
 * extension.ts calls `registerImages` once. Tag and Push belong to the Registries feature.
 */
import * as vscode from 'vscode';
import { ImageLayersCache } from '../engine';
import type { DisposableStore } from '../common/lifecycle';
import { registerCommandTable } from '../workbench/commandTable';
import { extendDeps } from '../workbench/deps';
import { imageCommands } from './commands';
import { commitCommands } from './commit';
import type { ImagesDeps } from './deps';
import { layerFileCommands } from './layerFileCommands';
import { LayerFileSystem, readOnlyMessage } from './layerFileSystem';
import { IMAGE_LAYER_SCHEME } from './layerFileUri';
import { runCommands } from './run';
import { ImagesView } from './view';

export type { ImagesDeps } from './deps';

export interface ImagesFeature {
  readonly view: ImagesView;
}

export function registerImages(deps: ImagesDeps, owner: DisposableStore): ImagesFeature {
  // One cache of what was read of images' layers, for the Layers rows and the files opened from them.
  const layerCache = new ImageLayersCache();
  const view = owner.add(new ImagesView(deps, layerCache));
  // Any file of any layer, read-only: berth-image: URIs (layerFileUri.ts).
  const layerFiles = owner.add(new LayerFileSystem((engine) => deps.sessionFor(engine).client, layerCache));
  owner.add(vscode.workspace.registerFileSystemProvider(IMAGE_LAYER_SCHEME, layerFiles, { isCaseSensitive: true, isReadonly: new vscode.MarkdownString(readOnlyMessage()) }));
  registerCommandTable([...imageCommands, ...commitCommands, ...runCommands, ...layerFileCommands(layerFiles)], extendDeps(deps, { imagesView: view }), owner);
  return { view };
}
