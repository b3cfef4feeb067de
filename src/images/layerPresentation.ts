/**
 * What the Layers rows under an image row show, worded without `vscode` so it is unit-testable: one row per history
 * entry (the instruction shortened, its size or "empty", its age) and the Layers row's wasted space and efficiency.
 */
import * as l10n from '@vscode/l10n';
import { formatBytes } from '../common/format';
import type { ImageHistoryEntry, ImageLayerAnalysis, LayerFileChange } from '../engine';
import { createdClock, renderClock } from '../model/statusClock';

/** Instructions longer than this are cut (the whole one is in the row's tooltip). */
export const INSTRUCTION_LABEL_MAX = 60;
/** The largest wasted files listed in the Layers row's tooltip. */
export const WASTED_FILES_LISTED = 5;

/** `created_by` as a row label: the builder's `/bin/sh -c #(nop) ` wrapping removed, spaces collapsed, cut with `…`. */
export function shortInstruction(createdBy: string): string {
  const text = createdBy
    .replace(/^\/bin\/sh -c #\(nop\)\s*/, '')
    .replace(/^\/bin\/sh -c /, 'RUN ')
    .replace(/\s+/g, ' ')
    .trim();
  if (text === '') return l10n.t('(no instruction)');
  return text.length > INSTRUCTION_LABEL_MAX ? `${text.slice(0, INSTRUCTION_LABEL_MAX - 1)}…` : text;
}

/** `3kB · 5 minutes ago`, or `empty · 5 minutes ago` for a step that made no layer. */
export function layerDescription(entry: ImageHistoryEntry, makesLayer: boolean, nowMs: number): string {
  const size = makesLayer || entry.Size > 0 ? formatBytes(entry.Size) : l10n.t('empty');
  // The same words as the image row's age.
  const clock = createdClock(entry.Created);
  return clock ? `${size} · ${renderClock(clock, nowMs)}` : size;
}

/** `12 layers · 3kB wasted · 97% efficient` */
export function layersSummary(analysis: ImageLayerAnalysis): string {
  const layers = analysis.layers.length === 1 ? l10n.t('1 layer') : l10n.t('{0} layers', analysis.layers.length);
  return l10n.t('{0} · {1} wasted · {2} efficient', layers, formatBytes(analysis.wastedBytes), efficiencyText(analysis.efficiency));
}

export function efficiencyText(efficiency: number): string {
  return `${Math.floor(efficiency * 1000) / 10}%`;
}

/** The Layers row's tooltip (markdown): wasted bytes, efficiency and the largest wasted files. */
export function layersTooltip(analysis: ImageLayerAnalysis): string {
  const lines = [
    l10n.t('Wasted: {0} of {1} in all layers (bytes later overwritten or removed)', formatBytes(analysis.wastedBytes), formatBytes(analysis.totalBytes)),
    '',
    l10n.t('Efficiency: {0}', efficiencyText(analysis.efficiency)),
  ];
  const largest = analysis.wastedPaths.slice(0, WASTED_FILES_LISTED);
  if (largest.length > 0) {
    lines.push('', l10n.t('Largest wasted files:'), '');
    for (const wasted of largest) lines.push(`- \`/${wasted.path.replace(/`/g, "'")}\` ${formatBytes(wasted.bytes)} (${l10n.t('{0} versions', wasted.versions)})`);
  }
  return lines.join('\n');
}

/** A layer row's tooltip: the whole instruction, and what its layer holds. */
export function layerTooltip(entry: ImageHistoryEntry, layer: { bytes: number; wastedBytes: number; files: readonly unknown[] } | undefined): string {
  const lines = ['```', entry.CreatedBy.replace(/```/g, "'''"), '```'];
  if (layer !== undefined) {
    lines.push('', l10n.t('{0} files, {1}; {2} of it wasted by later layers', layer.files.length, formatBytes(layer.bytes), formatBytes(layer.wastedBytes)));
  } else {
    lines.push('', l10n.t('This step made no layer.'));
  }
  return lines.join('\n');
}

const CHANGE_MARKS: Readonly<Record<LayerFileChange, string>> = { added: 'A', changed: 'C', removed: 'D' };

/** The A/C/D mark of a file in a layer, as source control shows it. */
export function layerFileMark(change: LayerFileChange): string {
  return CHANGE_MARKS[change];
}
