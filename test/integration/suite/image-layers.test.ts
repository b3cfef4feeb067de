// The Layers row under an image row in the real extension host: an image built here in three known steps (add two
// files, overwrite one, remove the other, with an ENV step between that makes no layer) is expanded, and its rows
// are read: one per history entry with the empty step marked, the wasted bytes and efficiency on the Layers row, and a
// layer's files marked A/C/D.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { A_FIRST, C_SIZE, buildThreeSteps } from '../../support/layeredImage';
import { useConnectedSuite, viewRows, viewShows } from '../support/fixtures';

describe('layers under an image row', () => {
  const folder = mkdtempSync(join(tmpdir(), 'berth-it-layers-'));
  const tag = `localhost/berth-it-layers-${Date.now().toString(36)}:1`;
  const { engine, client } = useConnectedSuite(async () => {
    rmSync(folder, { recursive: true, force: true });
    await client.removeImage(tag, { force: true }).catch(() => undefined);
  });
  let imageLabel = '';

  before(async () => {
    await buildThreeSteps(client, folder, tag);
    await vscode.commands.executeCommand('berth.refresh');
    await vscode.commands.executeCommand('berth.images.focus');
    imageLabel = await viewShows('images', [], `the row of ${tag}`, (rows) => rows.find((row) => engine.sameReference(row.label, tag))?.label);
  });

  it('the Layers row is read when expanded: one row per history entry, the ENV step marked empty', async () => {
    const [layersRow] = await viewRows('images', [imageLabel]);
    assert.equal(layersRow?.label, 'Layers');
    assert.equal(layersRow.contextValue, 'berth:layers');
    const rows = await viewRows('images', [imageLabel, 'Layers']);
    // Newest first, as the engine lists its history: RUN rm, COPY b.bin, ENV, COPY add/, then the base image's steps.
    assert.ok(rows.length >= 5, rows.map((row) => row.label).join(', '));
    assert.match(rows[0]?.label ?? '', /^RUN rm \/data\/c\.bin/);
    assert.match(rows[1]?.label ?? '', /COPY/);
    assert.match(rows[2]?.label ?? '', /ENV STEP=two/);
    assert.match(rows[2]?.description ?? '', /^empty · /);
    assert.equal(rows[2]?.contextValue, 'berth:layer:empty');
    assert.equal(rows[2]?.collapsible, false);
    for (const index of [0, 1, 3]) {
      assert.match(rows[index]?.description ?? '', /^\d+(\.\d+)?[kMG]?B · .+ ago$/, `row ${index}: ${rows[index]?.description}`);
      assert.equal(rows[index]?.contextValue, 'berth:layer');
    }
  });

  it('the Layers row shows the wasted bytes and efficiency, and its tooltip the largest wasted files', async () => {
    const wasted = `${(A_FIRST + C_SIZE) / 1000}kB wasted`;
    const row = await viewShows('images', [imageLabel], 'the Layers row with its summary', (rows) => rows.find((each) => each.label === 'Layers' && / efficient$/.test(each.description ?? '')));
    assert.match(row.description ?? '', new RegExp(`^\\d+ layers · ${wasted.replace('.', '\\.')} · \\d+(\\.\\d)?% efficient$`));
    const tooltip = row.tooltip ?? '';
    assert.ok(tooltip.includes('/data/a.bin') && tooltip.includes('/data/c.bin'), tooltip);
    assert.ok(tooltip.indexOf('/data/a.bin') < tooltip.indexOf('/data/c.bin'), `largest first: ${tooltip}`);
  });

  it("expanding a layer lists its files marked A, C or D", async () => {
    const rows = await viewRows('images', [imageLabel, 'Layers']);
    const files = (index: number): Promise<Array<[string, string | undefined]>> =>
      viewRows('images', [imageLabel, 'Layers', rows[index]?.label ?? '']).then((found) =>
        found.filter((file) => file.label.startsWith('/data/')).map((file) => [file.label, file.description]),
      );
    assert.deepEqual(await files(3), [['/data/a.bin', `A · ${A_FIRST / 1000}kB`], ['/data/c.bin', `A · ${C_SIZE}B`]]);
    assert.deepEqual(await files(1), [['/data/a.bin', 'C · 5kB']]);
    assert.deepEqual(await files(0), [['/data/c.bin', `D · ${C_SIZE}B`]]);
  });
});
