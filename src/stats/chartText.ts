/**
 * The words of the stats page's charts, apart from the page (no DOM, no `vscode`): the time axis's labels and the
 * room each needs, and what a legend shows while the pointer is not on its chart.
 */
import type { StatsFrame } from './frames';

export type ChartKey = 'cpu' | 'memory' | 'network' | 'block';

/** Blank room between two time labels, in CSS pixels. */
const TIME_LABEL_GAP_PX = 16;

/** A tick on the time axis, local time on a 24-hour clock: seconds only when ticks are less than a minute apart. */
export function timeTickLabel(seconds: number, incrementSeconds: number): string {
  const at = new Date(seconds * 1000);
  const pad = (value: number): string => String(value).padStart(2, '0');
  const minutes = `${pad(at.getHours())}:${pad(at.getMinutes())}`;
  return incrementSeconds < 60 ? `${minutes}:${pad(at.getSeconds())}` : minutes;
}

/**
 * The least distance between two time ticks: the widest label the axis can show, as MEASURE (the axis's font)
 * gives it, plus a gap. uPlot picks the tick increment from this, so no two labels can touch.
 */
export function timeAxisSpace(measure: (text: string) => number): number {
  const widest = Math.max(...['88:88:88', '00:00:00', '23:59:59'].map(measure));
  return Math.ceil(widest) + TIME_LABEL_GAP_PX;
}

/** A series' last figure in FRAMES (null when it never had one). */
export function latestFigure(frames: readonly StatsFrame[], key: ChartKey, series: number): number | null {
  for (let index = frames.length - 1; index >= 0; index--) {
    const value = frames[index]?.[key][series];
    if (value !== undefined && value !== null) return value;
  }
  return null;
}

/**
 * A legend's value: the figure under the pointer when it is on the chart (`pointedIndex` set), else the series'
 * latest figure, so the legend reads as a live figure instead of "n/a" until hovered.
 */
export function legendText(value: number | null, pointedIndex: number | null, latest: number | null, format: (value: number) => string): string {
  const shown = pointedIndex === null ? latest : value;
  return shown === null ? 'n/a' : format(shown);
}
