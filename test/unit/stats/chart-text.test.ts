// Issue 31 item 13, the stats page's words: time labels that never touch ("3:47am3:48am"), and legends that show each
// series' latest figure while the pointer is elsewhere, not "n/a" until hovered.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { latestFigure, legendText, timeAxisSpace, timeTickLabel } from '../../../src/stats/chartText';
import type { StatsFrame } from '../../../src/stats/frames';

/** A monospace-like measure: 7 px a character, 4 for a colon. */
const measure = (text: string): number => [...text].reduce((width, char) => width + (char === ':' ? 4 : 7), 0);

void test('time ticks at least the widest label plus a gap apart, so neighbouring labels never touch', () => {
  const space = timeAxisSpace(measure);
  const start = new Date(2026, 0, 1, 23, 59, 0).getTime() / 1000;
  for (const increment of [1, 5, 10, 15, 30, 60, 120, 300]) {
    const labels = [0, 1, 2, 3].map((step) => timeTickLabel(start + step * increment, increment));
    for (const label of labels) assert.ok(measure(label) + 8 <= space, `${label} fits in ${space} px with room to spare`);
  }
  assert.equal(timeTickLabel(start + 30, 10), '23:59:30');
  assert.equal(timeTickLabel(start + 60, 60), '00:00');
});

void test('a legend shows the latest figure while the pointer is off the chart, the pointed one on it', () => {
  const frame = (t: number, cpu: Array<number | null>): StatsFrame => ({ t, cpu, memory: [], network: [], block: [] });
  const frames = [frame(1, [5, null]), frame(2, [7.25, null]), frame(3, [null, null])];
  const format = (value: number): string => `${value.toFixed(1)} %`;
  assert.equal(latestFigure(frames, 'cpu', 0), 7.25, 'a gap at the end keeps the last figure');
  assert.equal(latestFigure(frames, 'cpu', 1), null);
  assert.equal(legendText(null, null, latestFigure(frames, 'cpu', 0), format), '7.3 %');
  assert.equal(legendText(5, 0, latestFigure(frames, 'cpu', 0), format), '5.0 %');
  assert.equal(legendText(null, 2, latestFigure(frames, 'cpu', 0), format), 'n/a', 'a gap under the pointer is a gap');
  assert.equal(legendText(null, null, latestFigure(frames, 'cpu', 1), format), 'n/a', 'no figure yet');
});
