/// <reference lib="dom" />
/**
 * The Container Stats page (runs in the webview, bundled with uPlot into dist/stats-webview.js). It draws what the
 * extension posts: the history on load, a frame a second, the processes every 2 s. Colours come from the theme's
 * CSS variables and are read again when the theme changes. Process rows are container output: set as text only.
 */
import uPlot from 'uplot';
import { latestFigure, legendText, timeAxisSpace, timeTickLabel, type ChartKey } from '../chartText';
import type { ProcessTable, StatsFrame } from '../frames';
import { HISTORY_SECONDS } from '../frames';

declare function acquireVsCodeApi(): { postMessage(message: unknown): void };

interface ChartSpec {
  readonly key: ChartKey;
  readonly title: string;
  readonly format: (value: number) => string;
}

const SPECS: readonly ChartSpec[] = [
  { key: 'cpu', title: 'CPU %', format: (value) => `${value.toFixed(1)} %` },
  { key: 'memory', title: 'Memory', format: (value) => bytes(value) },
  { key: 'network', title: 'Network I/O', format: (value) => `${bytes(value)}/s` },
  { key: 'block', title: 'Block I/O', format: (value) => `${bytes(value)}/s` },
];
const SERIES_COLOURS = ['--vscode-charts-blue', '--vscode-charts-orange', '--vscode-charts-green', '--vscode-charts-purple', '--vscode-charts-red', '--vscode-charts-yellow'];

function bytes(value: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let scaled = value;
  let unit = 0;
  while (Math.abs(scaled) >= 1024 && unit < units.length - 1) {
    scaled /= 1024;
    unit++;
  }
  return `${scaled.toFixed(scaled >= 100 || unit === 0 ? 0 : 1)} ${units[unit] ?? ''}`;
}

/** The axes' font: uPlot's own size, in the theme's font, so the labels are measured as they are drawn. */
function axisFont(): string {
  return `12px ${getComputedStyle(document.body).fontFamily || 'sans-serif'}`;
}

function textMeasurer(font: string): (text: string) => number {
  const context = document.createElement('canvas').getContext('2d');
  if (!context) return (text) => text.length * 8;
  context.font = font;
  return (text) => context.measureText(text).width;
}

function themeColour(variable: string, fallback: string): string {
  return getComputedStyle(document.body).getPropertyValue(variable).trim() || fallback;
}

let names: readonly string[] = [];
const frames: StatsFrame[] = [];
let charts: uPlot[] = [];

function chartData(spec: ChartSpec): uPlot.AlignedData {
  const columns: Array<Array<number | null>> = [frames.map((frame) => frame.t)];
  names.forEach((_name, index) => columns.push(frames.map((frame) => frame[spec.key][index] ?? null)));
  return columns as uPlot.AlignedData;
}

function build(): void {
  for (const chart of charts) chart.destroy();
  const host = document.getElementById('charts') as HTMLElement;
  host.textContent = '';
  const foreground = themeColour('--vscode-foreground', '#888');
  const grid = themeColour('--vscode-editorWidget-border', 'rgba(128,128,128,0.3)');
  const font = axisFont();
  const timeSpace = timeAxisSpace(textMeasurer(font));
  // Every cell first, then the charts: the grid's columns (auto-fit) are known only once all cells are in it, and a
  // chart measured alone in the grid would take the whole row and overlap its neighbour.
  const boxes = SPECS.map((spec) => {
    const box = document.createElement('section');
    box.className = 'chart';
    box.dataset['chart'] = spec.key;
    host.appendChild(box);
    return box;
  });
  charts = SPECS.map((spec, index) => {
    const box = boxes[index] as HTMLElement;
    // As wide as its grid cell, less the cell's padding.
    const width = Math.max(300, box.clientWidth - 10);
    const options: uPlot.Options = {
      title: spec.title,
      width,
      height: 180,
      scales: { x: { time: true }, y: { range: (_self, min, max) => [Math.min(0, min), Math.max(max, spec.key === 'cpu' ? 1 : 1024)] } },
      axes: [
        {
          stroke: foreground,
          font,
          grid: { stroke: grid },
          ticks: { stroke: grid },
          space: timeSpace,
          values: (_self, ticks, _axis, _space, increment) => ticks.map((tick) => timeTickLabel(tick, increment)),
        },
        { stroke: foreground, font, grid: { stroke: grid }, ticks: { stroke: grid }, size: 80, values: (_self, ticks) => ticks.map(spec.format) },
      ],
      series: [
        {},
        ...names.map((name, index) => ({
          label: name,
          stroke: themeColour(SERIES_COLOURS[index % SERIES_COLOURS.length] as string, '#3794ff'),
          width: 1.5,
          spanGaps: false,
          // uPlot asks again after every frame (pointedIndex null while the pointer is elsewhere).
          value: (_self: uPlot, value: number | null, _series: number, pointedIndex: number | null) =>
            legendText(value, pointedIndex, latestFigure(frames, spec.key, index), spec.format),
        })),
      ],
    };
    return new uPlot(options, chartData(spec), box);
  });
}

function redraw(): void {
  charts.forEach((chart, index) => chart.setData(chartData(SPECS[index] as ChartSpec)));
}

function showProcesses(tables: readonly ProcessTable[]): void {
  const host = document.getElementById('processes') as HTMLElement;
  host.textContent = '';
  for (const table of tables) {
    if (tables.length > 1) {
      const heading = document.createElement('h3');
      heading.textContent = table.name;
      host.appendChild(heading);
    }
    if (table.error !== undefined) {
      const note = document.createElement('p');
      note.className = 'note';
      note.textContent = table.error;
      host.appendChild(note);
      continue;
    }
    const element = document.createElement('table');
    const head = element.createTHead().insertRow();
    for (const title of table.titles) head.appendChild(document.createElement('th')).textContent = title;
    const body = element.createTBody();
    for (const process of table.processes) {
      const row = body.insertRow();
      for (const cell of process) row.insertCell().textContent = cell;
    }
    host.appendChild(element);
  }
}

/** One line per container that stopped or was removed since the panel opened; hidden while they all run. */
function showStates(notes: readonly string[]): void {
  const host = document.getElementById('states') as HTMLElement;
  host.textContent = '';
  for (const note of notes) host.appendChild(document.createElement('p')).textContent = note;
  host.hidden = notes.length === 0;
}

window.addEventListener('message', (event: MessageEvent<{ type: string; names?: string[]; frames?: StatsFrame[]; frame?: StatsFrame; tables?: ProcessTable[]; notes?: string[] }>) => {
  const message = event.data;
  if (message.type === 'init') {
    names = message.names ?? [];
    frames.splice(0, frames.length, ...(message.frames ?? []));
    build();
  } else if (message.type === 'frame' && message.frame) {
    frames.push(message.frame);
    if (frames.length > HISTORY_SECONDS) frames.splice(0, frames.length - HISTORY_SECONDS);
    redraw();
  } else if (message.type === 'top' && message.tables) {
    showProcesses(message.tables);
  } else if (message.type === 'states' && message.notes) {
    showStates(message.notes);
  }
});

// VS Code swaps the body's theme class (vscode-light, vscode-dark, vscode-high-contrast): draw again in the new colours.
new MutationObserver(() => build()).observe(document.body, { attributes: true, attributeFilter: ['class'] });
window.addEventListener('resize', () => build());
acquireVsCodeApi().postMessage({ type: 'ready' });
