/** What live stats and health add to a container row: the short figures, the tooltip lines. No `vscode` here. */
import { binarySize, compactFigures, decimalSize, type StatsFigures } from '../engine';
import { escapeMarkdown } from '../views/presentation';

export function statsDescription(figures: StatsFigures | undefined): string | undefined {
  return figures?.running === true ? compactFigures(figures) : undefined;
}

const percent = (value: number | undefined): string => (value === undefined ? 'n/a' : `${value.toFixed(2)} %`);

export function statsTooltip(figures: StatsFigures | undefined): string | undefined {
  if (figures?.running !== true) return undefined;
  return [
    `CPU: ${percent(figures.cpuPercent)}`,
    `Memory: ${binarySize(figures.memoryUsage)} of ${binarySize(figures.memoryLimit)} limit (${percent(figures.memoryPercent)})`,
    `Network I/O: ${decimalSize(figures.networkRx)} received / ${decimalSize(figures.networkTx)} sent`,
    `Block I/O: ${decimalSize(figures.blockRead)} read / ${decimalSize(figures.blockWrite)} written`,
    `PIDs: ${figures.pids ?? 'n/a'}`,
  ].join('\n\n');
}

/** The last health check's output (container output: untrusted, so shown as escaped text, cut to 1000 characters). */
export function healthTooltip(output: string | undefined, exitCode: number | undefined): string {
  const text = (output ?? '').trim();
  const shown = text.length > 1000 ? `${text.slice(0, 1000)}…` : text;
  const code = exitCode === undefined ? '' : ` (exit code ${exitCode})`;
  return `Last health check${code}: ${shown ? escapeMarkdown(shown) : 'no output'}`;
}
