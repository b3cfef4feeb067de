/**
 * The "Layers" row under each image row and the rows below it: one per history entry, then a layer's files marked
 * A/C/D. Nothing is read until the Layers row is expanded (so never while the view is hidden); the read shows its
 * progress, can be cancelled, and its result is kept per image id (ImageLayersCache): an id names the same content
 * for ever. A failed or cancelled read is shown on the row and tried again when the row is expanded again.
 */
import * as vscode from 'vscode';
import { errorMessage } from '../common/errors';
import { formatBytes } from '../common/format';
import { laterChangeOf, layerNumberOf, type AnalyzedLayer, type ImageLayerAnalysis, type ImageLayersCache, type LayerFile } from '../engine';
import { markdownTooltip } from '../views/treeItems';
import type { SessionsDeps } from '../workbench/deps';
import { withCancellableProgress } from '../workbench/feedback';
import { layerDescription, layerFileMark, layersSummary, layersTooltip, layerTooltip, shortInstruction } from './layerPresentation';
import type { LayerFileAddress } from './layerFileUri';
import type { ImageNode } from './tree';

/** An image's analysis as last read, shared by every row of that image (all its tags). */
interface LayersState {
  readonly engine: string;
  readonly imageId: string;
  analysis: ImageLayerAnalysis | undefined;
  failure: string | undefined;
  reading: Promise<void> | undefined;
}

export interface LayersRow {
  readonly kind: 'layers';
  readonly engine: string;
  readonly parent: ImageNode;
  readonly state: LayersState;
}

export interface LayerRow {
  readonly kind: 'layer';
  readonly engine: string;
  readonly parent: LayersRow;
  readonly historyIndex: number;
}

export interface LayerFileRow {
  readonly kind: 'layerFile';
  readonly engine: string;
  readonly parent: LayerRow;
  readonly fileIndex: number;
}

export type ImageChildRow = LayersRow | LayerRow | LayerFileRow;

export function isImageChildRow(value: { readonly kind: string }): value is ImageChildRow {
  return value.kind === 'layers' || value.kind === 'layer' || value.kind === 'layerFile';
}

export const OPEN_LAYER_FILE_COMMAND = 'berth.images.openLayerFile';

/** The file a layer's file row shows. */
export function layerFileOf(row: LayerFileRow): LayerFile | undefined {
  const analysis = row.parent.parent.state.analysis;
  const layerIndex = analysis?.layerOfHistory[row.parent.historyIndex];
  return layerIndex === undefined ? undefined : analysis?.layers[layerIndex]?.files[row.fileIndex];
}

/** Where a layer's file row points: its engine, image, layer and path. */
export function layerFileAddress(row: LayerFileRow): LayerFileAddress | undefined {
  const layersRow = row.parent.parent;
  const analysis = layersRow.state.analysis;
  const layerIndex = analysis?.layerOfHistory[row.parent.historyIndex];
  const layer = layerIndex === undefined ? undefined : analysis?.layers[layerIndex];
  const file = layer?.files[row.fileIndex];
  if (analysis === undefined || layer === undefined || file === undefined) return undefined;
  const later = laterChangeOf(analysis, layer.index, file.path);
  return {
    engine: row.engine,
    imageId: analysis.imageId,
    layerIndex: layer.index,
    layerNumber: layerNumberOf(analysis, layer.index),
    tarPath: layer.tarPath,
    path: file.path,
    imageName: layersRow.parent.label,
    ...(later === undefined ? {} : { later }),
  };
}

export class ImageLayerRows {
  private readonly states = new Map<string, LayersState>();
  /** One Layers row per image row, so that VS Code keeps it (and whether it is expanded) across refreshes. */
  private readonly rows = new WeakMap<ImageNode, LayersRow>();

  /** `changed` redraws a row and what is below it. */
  constructor(
    private readonly deps: SessionsDeps,
    private readonly cache: ImageLayersCache,
    private readonly changed: (row: LayersRow) => void,
  ) {}

  layersRowOf(image: ImageNode): LayersRow {
    let row = this.rows.get(image);
    if (row?.state.imageId !== image.record.id) {
      row = { kind: 'layers', engine: image.engine, parent: image, state: this.stateOf(image.engine, image.record.id) };
      this.rows.set(image, row);
    }
    return row;
  }

  /** The rows below one of ours; expanding the Layers row starts the read. */
  async children(row: ImageChildRow): Promise<ImageChildRow[]> {
    if (row.kind === 'layerFile') return [];
    if (row.kind === 'layer') {
      const layer = this.layerOf(row);
      return (layer?.files ?? []).map((_file, fileIndex): LayerFileRow => ({ kind: 'layerFile', engine: row.engine, parent: row, fileIndex }));
    }
    const state = row.state;
    // A failed read is not tried again by a mere redraw (that would loop): only when the row is expanded again.
    if (state.analysis === undefined && state.failure === undefined) {
      if (state.reading === undefined) state.reading = this.read(row).finally(() => (state.reading = undefined));
      await state.reading;
    }
    const analysis = state.analysis;
    if (analysis === undefined) return [];
    return analysis.history.map((_entry, historyIndex): LayerRow => ({ kind: 'layer', engine: row.engine, parent: row, historyIndex }));
  }

  item(row: ImageChildRow): vscode.TreeItem {
    if (row.kind === 'layers') return this.layersItem(row);
    const analysis = row.kind === 'layer' ? row.parent.state.analysis : row.parent.parent.state.analysis;
    if (analysis === undefined) return new vscode.TreeItem('');
    if (row.kind === 'layer') {
      const entry = analysis.history[row.historyIndex];
      if (entry === undefined) return new vscode.TreeItem('');
      const layer = this.layerOf(row);
      const item = new vscode.TreeItem(shortInstruction(entry.CreatedBy), layer && layer.files.length > 0 ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
      item.description = layerDescription(entry, layer !== undefined, Date.now());
      item.tooltip = markdownTooltip(layerTooltip(entry, layer));
      item.iconPath = new vscode.ThemeIcon(layer === undefined ? 'circle-outline' : 'layers');
      item.contextValue = layer === undefined ? 'berth:layer:empty' : 'berth:layer';
      return item;
    }
    const file = this.layerOf(row.parent)?.files[row.fileIndex];
    if (file === undefined) return new vscode.TreeItem('');
    const mark = layerFileMark(file.change);
    const item = new vscode.TreeItem(`/${file.path}`, vscode.TreeItemCollapsibleState.None);
    item.description = file.kind === 'directory' ? mark : `${mark} · ${formatBytes(file.size)}`;
    item.tooltip = `${mark} /${file.path}`;
    item.iconPath = new vscode.ThemeIcon(file.kind === 'directory' ? 'folder' : file.change === 'removed' ? 'trash' : 'file');
    item.contextValue = `berth:layerFile:${mark}`;
    if (file.kind !== 'directory') {
      // A removed file opens too: the refusal says which layer removed it and where to look instead.
      item.command = { command: OPEN_LAYER_FILE_COMMAND, title: vscode.l10n.t('Open File'), arguments: [row] };
    }
    return item;
  }

  private layersItem(row: LayersRow): vscode.TreeItem {
    const state = row.state;
    const item = new vscode.TreeItem(vscode.l10n.t('Layers'), vscode.TreeItemCollapsibleState.Collapsed);
    item.iconPath = new vscode.ThemeIcon('layers');
    item.contextValue = 'berth:layers';
    if (state.analysis !== undefined) {
      item.description = layersSummary(state.analysis);
      item.tooltip = markdownTooltip(layersTooltip(state.analysis));
    } else if (state.reading !== undefined) {
      item.description = vscode.l10n.t('reading…');
      item.tooltip = vscode.l10n.t('Reading the image\'s layers from the engine');
    } else {
      item.description = state.failure;
      item.tooltip = state.failure ?? vscode.l10n.t('Expand to read the image\'s layers from the engine');
    }
    return item;
  }

  /** The Layers row was expanded (again): a read that failed or was cancelled is tried once more. */
  expanded(row: ImageChildRow): void {
    if (row.kind !== 'layers' || row.state.failure === undefined || row.state.reading !== undefined) return;
    row.state.failure = undefined;
    this.changed(row);
  }

  private layerOf(row: LayerRow): AnalyzedLayer | undefined {
    const analysis = row.parent.state.analysis;
    const layerIndex = analysis?.layerOfHistory[row.historyIndex];
    return layerIndex === undefined ? undefined : analysis?.layers[layerIndex];
  }

  private stateOf(engine: string, imageId: string): LayersState {
    const key = `${engine}/${imageId}`;
    let state = this.states.get(key);
    if (state === undefined) {
      state = { engine, imageId, analysis: undefined, failure: undefined, reading: undefined };
      this.states.set(key, state);
    }
    return state;
  }

  private async read(row: LayersRow): Promise<void> {
    const state = row.state;
    const name = row.parent.label;
    this.changed(row);
    try {
      const client = this.deps.sessionFor(state.engine).client;
      state.analysis = await withCancellableProgress(vscode.l10n.t('Reading the layers of {0}', name), (signal, progress) =>
        this.cache.analysis(client, state.imageId, {
          signal,
          onProgress: (bytes) => progress.report({ message: vscode.l10n.t('{0} read', formatBytes(bytes)) }),
        }),
      );
    } catch (error) {
      state.failure = vscode.l10n.t('{0} (expand the row again to retry)', errorMessage(error));
    } finally {
      // The row's description says what the read did: the summary, or why it stopped.
      this.changed(row);
    }
  }
}
