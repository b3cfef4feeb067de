/**
 * Open File on a layer's file row (its click): the file as that layer holds it, in a read-only editor. The read shows
 * its progress and can be cancelled; what it read is kept, so the editor then opens at once.
 */
import * as vscode from 'vscode';
import { layerPathOf } from '../engine';
import { shortId } from '../common/format';
import { command, type CommandEntry } from '../workbench/commandTable';
import { withCancellableProgress } from '../workbench/feedback';
import type { ImagesCommandDeps } from './deps';
import type { LayerFileSystem } from './layerFileSystem';
import { layerFileUri } from './layerFileSystem';
import type { LayerFileAddress } from './layerFileUri';
import { layerFileAddress, OPEN_LAYER_FILE_COMMAND, type LayerFileRow } from './layerRows';

function isLayerFileRow(value: unknown): value is LayerFileRow {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'layerFile';
}

/** A row, or (automation, tests) `{ engine, imageId, layerIndex, tarPath, path, imageName? }`. */
function addressOf(arg: unknown): LayerFileAddress {
  if (isLayerFileRow(arg)) {
    const address = layerFileAddress(arg);
    if (address !== undefined) return address;
  }
  const bag = (typeof arg === 'object' && arg !== null ? arg : {}) as Record<string, unknown>;
  const { engine, imageId, layerIndex, tarPath, path, imageName } = bag;
  if (typeof engine !== 'string' || typeof imageId !== 'string' || typeof layerIndex !== 'number' || typeof tarPath !== 'string' || typeof path !== 'string') {
    throw new Error(vscode.l10n.t('Choose a file under a layer of an image\'s Layers row'));
  }
  return { engine, imageId, layerIndex, tarPath, path, imageName: typeof imageName === 'string' ? imageName : shortId(imageId) };
}

export function layerFileCommands(files: LayerFileSystem): ReadonlyArray<CommandEntry<ImagesCommandDeps>> {
  return [
    command(OPEN_LAYER_FILE_COMMAND, 'Opening the file of the layer', () => async (arg?: unknown) => {
      const address = addressOf(arg);
      const shown = `/${layerPathOf(address.path)}`;
      await withCancellableProgress(vscode.l10n.t('Reading {0} from layer {1} of {2}', shown, address.layerIndex, address.imageName), (signal) => files.read(address, { signal }));
      const uri = layerFileUri(address);
      await vscode.commands.executeCommand('vscode.open', uri, { preview: true });
      return uri.toString();
    }, { rejectsWhen: (arg?: unknown) => typeof arg === 'object' && arg !== null && (arg as { rejects?: unknown }).rejects === true }),
  ];
}
