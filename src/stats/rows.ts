/** What live stats and health add to a container row: the short figures, the tooltip lines. No `vscode` here. */
import * as l10n from '@vscode/l10n';
import { binarySize, compactFigures, decimalSize, type StatsFigures } from '../engine';
import { escapeMarkdown } from '../views/presentation';

export function statsDescription(figures: StatsFigures | undefined): string | undefined {
  return figures?.running === true ? compactFigures(figures) : undefined;
}

const percent = (value: number | undefined): string => (value === undefined ? 'n/a' : `${value.toFixed(2)} %`);

export function statsTooltip(figures: StatsFigures | undefined): string | undefined {
  if (figures?.running !== true) return undefined;
  return [
    l10n.t('CPU: {0}', percent(figures.cpuPercent)),
    l10n.t('Memory: {0} of {1} limit ({2})', binarySize(figures.memoryUsage), binarySize(figures.memoryLimit), percent(figures.memoryPercent)),
    l10n.t('Network I/O: {0} received / {1} sent', decimalSize(figures.networkRx), decimalSize(figures.networkTx)),
    l10n.t('Block I/O: {0} read / {1} written', decimalSize(figures.blockRead), decimalSize(figures.blockWrite)),
    l10n.t('PIDs: {0}', figures.pids ?? 'n/a'),
  ].join('\n\n');
}

/** The last health check's output (container output: untrusted, so shown as escaped text, cut to 1000 characters). */
export function healthTooltip(output: string | undefined, exitCode: number | undefined): string {
  const text = (output ?? '').trim();
  const shown = text.length > 1000 ? `${text.slice(0, 1000)}…` : text;
  const said = shown ? escapeMarkdown(shown) : l10n.t('no output');
  return exitCode === undefined ? l10n.t('Last health check: {0}', said) : l10n.t('Last health check (exit code {0}): {1}', exitCode, said);
}
