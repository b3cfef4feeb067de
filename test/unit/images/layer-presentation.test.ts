// What the Layers rows show: instructions shortened, sizes and "empty", the wasted-space summary and tooltip.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ImageHistoryEntry, ImageLayerAnalysis } from '../../../src/engine';
import { INSTRUCTION_LABEL_MAX, WASTED_FILES_LISTED, layerDescription, layersSummary, layersTooltip, layerTooltip, shortInstruction } from '../../../src/images/layerPresentation';

const NOW = Date.UTC(2026, 0, 10);

function entry(createdBy: string, size: number, createdSeconds = NOW / 1000 - 300): ImageHistoryEntry {
  return { Id: '<missing>', Created: createdSeconds, CreatedBy: createdBy, Tags: null, Size: size, Comment: '' };
}

function analysis(wastedPaths: Array<{ path: string; bytes: number; versions: number }>): ImageLayerAnalysis {
  return { imageId: 'sha256:1', history: [], layers: [{ index: 0, tarPath: 'x', historyIndex: 0, bytes: 10, wastedBytes: 0, files: [] }], layerOfHistory: [], totalBytes: 10_000, wastedBytes: 3700, efficiency: 0.63, wastedPaths };
}

void describe('layer rows', () => {
  void it('shortens created_by: the builder wrapping goes, RUN is named, spaces collapse, long ones are cut', () => {
    assert.equal(shortInstruction('/bin/sh -c #(nop)  ENV STEP=two'), 'ENV STEP=two');
    assert.equal(shortInstruction('/bin/sh -c rm   /data/c.bin'), 'RUN rm /data/c.bin');
    assert.equal(shortInstruction('COPY b.bin /data/a.bin # buildkit'), 'COPY b.bin /data/a.bin # buildkit');
    const long = shortInstruction(`RUN ${'x'.repeat(200)}`);
    assert.equal(long.length, INSTRUCTION_LABEL_MAX);
    assert.ok(long.endsWith('…'));
    assert.equal(shortInstruction('   '), '(no instruction)');
  });

  void it('describes a layer by size and age, and a step that made none as empty', () => {
    assert.equal(layerDescription(entry('COPY', 5000), true, NOW), '5kB · 5 minutes ago');
    assert.equal(layerDescription(entry('ENV', 0), false, NOW), 'empty · 5 minutes ago');
    // A layer of only directories has no bytes but is a layer: its size, not "empty".
    assert.equal(layerDescription(entry('RUN mkdir', 0), true, NOW), '0B · 5 minutes ago');
    assert.equal(layerDescription(entry('ENV', 0, 0), false, NOW), 'empty');
  });

  void it('sums up the wasted bytes and efficiency, and lists the largest wasted files in the tooltip', () => {
    const paths = Array.from({ length: 8 }, (_unused, index) => ({ path: `data/f${index}`, bytes: 1000 - index, versions: 2 }));
    assert.equal(layersSummary(analysis(paths)), '1 layer · 3.7kB wasted · 63% efficient');
    const tooltip = layersTooltip(analysis(paths));
    assert.match(tooltip, /Wasted: 3\.7kB of 10kB/);
    assert.match(tooltip, /Efficiency: 63%/);
    assert.equal(tooltip.split('\n').filter((line) => line.startsWith('- ')).length, WASTED_FILES_LISTED);
    assert.ok(tooltip.includes('`/data/f0` 1kB (2 versions)'), tooltip);
    assert.ok(!layersTooltip(analysis([])).includes('Largest wasted files'));
  });

  void it("a layer's tooltip holds the whole instruction, fenced so markdown in it is shown as text", () => {
    const text = layerTooltip(entry('RUN echo ``` *bold*', 1), { bytes: 2000, wastedBytes: 700, files: [1, 2] });
    assert.match(text, /^```\nRUN echo ''' \*bold\*\n```/);
    assert.match(text, /2 files, 2kB; 700B of it wasted/);
    assert.match(layerTooltip(entry('ENV A=1', 0), undefined), /made no layer/);
  });
});
