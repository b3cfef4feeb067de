/**
 * Open File on a layer's file row (its click): the file as that layer holds it, in a read-only editor. The read shows
 * its progress and can be cancelled; what it read is kept, so the editor then opens at once. A file the layer removes
 * has no content there: the click says so plainly, naming the layer, instead of reporting a failed open.
 */
import * as vscode from 'vscode';
import { isLayerFileRemoved, layerPathOf } from '../engine';
import { shortId } from '../common/format';
import { command, type CommandEntry } from '../workbench/commandTable';
import { withCancellableProgress } from '../workbench/feedback';
import type { ImagesCommandDeps } from './deps';
import type { LayerFileSystem } from './layerFileSystem';
import { layerFileUri } from './layerFileSystem';
import type { LayerFileAddress } from './layerFileUri';
import { layerFileAddress, layerFileOf, OPEN_LAYER_FILE_COMMAND, type LayerFileRow } from './layerRows';

function isLayerFileRow(value: unknown): value is LayerFileRow {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'layerFile';
}

/** A row, or (automation, tests) `{ engine, imageId, layerIndex, layerNumber, tarPath, path, imageName? }`. */
function addressOf(arg: unknown): LayerFileAddress {
  if (isLayerFileRow(arg)) {
    const address = layerFileAddress(arg);
    if (address !== undefined) return address;
  }
  const bag = (typeof arg === 'object' && arg !== null ? arg : {}) as Record<string, unknown>;
  const { engine, imageId, layerIndex, layerNumber, tarPath, path, imageName } = bag;
  if (typeof engine !== 'string' || typeof imageId !== 'string' || typeof layerIndex !== 'number' || typeof layerNumber !== 'number' || typeof tarPath !== 'string' || typeof path !== 'string') {
    throw new Error(vscode.l10n.t('Choose a file under a layer of an image\'s Layers row'));
  }
  return { engine, imageId, layerIndex, layerNumber, tarPath, path, imageName: typeof imageName === 'string' ? imageName : shortId(imageId) };
}

function rejects(arg: unknown): boolean {
  return typeof arg === 'object' && arg !== null && (arg as { rejects?: unknown }).rejects === true;
}

/** What a click on a removed file says: which layer removed it and where its content is. */
export function removedMessage(address: LayerFileAddress): string {
  const shown = `/${layerPathOf(address.path)}`;
  return vscode.l10n.t('{0} was removed by layer {1} from the top of {2}: that layer holds no content for it. Open it from a lower layer to see what it held', shown, address.layerNumber, address.imageName);
}

export function layerFileCommands(files: LayerFileSystem): ReadonlyArray<CommandEntry<ImagesCommandDeps>> {
  return [
    command(OPEN_LAYER_FILE_COMMAND, 'Opening the file of the layer', () => async (arg?: unknown) => {
      const address = addressOf(arg);
      // The row already knows the layer removes the file: nothing to read.
      if (isLayerFileRow(arg) && layerFileOf(arg)?.change === 'removed') {
        void vscode.window.showInformationMessage(removedMessage(address));
        return undefined;
      }
      const shown = `/${layerPathOf(address.path)}`;
      try {
        await withCancellableProgress(vscode.l10n.t('Reading {0} from layer {1} from the top of {2}', shown, address.layerNumber, address.imageName), (signal) => files.read(address, { signal }));
      } catch (error) {
        if (!isLayerFileRemoved(error) || rejects(arg)) throw error;
        void vscode.window.showInformationMessage(removedMessage(address));
        return undefined;
      }
      const uri = layerFileUri(address);
      await vscode.commands.executeCommand('vscode.open', uri, { preview: true });
      return uri.toString();
    }, { rejectsWhen: rejects }),
  ];
}
