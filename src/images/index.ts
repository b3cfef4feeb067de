/**
 * The Images feature: the Images view and the image commands (pull, remove, run, run in background, commit).
 * extension.ts calls `registerImages` once. Tag and Push belong to the Registries feature.
 */
import type { DisposableStore } from '../common/lifecycle';
import { registerCommandTable } from '../workbench/commandTable';
import { extendDeps } from '../workbench/deps';
import { imageCommands } from './commands';
import { commitCommands } from './commit';
import type { ImagesDeps } from './deps';
import { runCommands } from './run';
import { ImagesView } from './view';

export type { ImagesDeps } from './deps';

export interface ImagesFeature {
  readonly view: ImagesView;
}

export function registerImages(deps: ImagesDeps, owner: DisposableStore): ImagesFeature {
  const view = owner.add(new ImagesView(deps));
  registerCommandTable([...imageCommands, ...commitCommands, ...runCommands], extendDeps(deps, { imagesView: view }), owner);
  return { view };
}
