// The Layers row under an image row in the real extension host: an image built here in three known steps (add two
// files, overwrite one, remove the other, with an ENV step between that makes no layer) is expanded, and its rows
// are read: one per history entry with the empty step marked, the wasted bytes and efficiency on the Layers row, and a
// layer's files marked A/C/D. A lower layer's file opens read-only through berth-image: (its OLD content, which a later
// layer overwrote; its tab says so and names the layer from the top, as the rows list them), saving it is refused, and
// a file the top layer removes says so plainly instead of opening.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { layerNumberOf, readImageLayers } from '../../../src/engine';
import { A_FIRST, C_SIZE, buildThreeSteps } from '../../support/layeredImage';
import { expectedMessage } from '../../engine/engine/bad-input-cases';
import { eventually, useConnectedSuite, viewRows, viewShows } from '../support/fixtures';

describe('layers under an image row', () => {
  const folder = mkdtempSync(join(tmpdir(), 'berth-it-layers-'));
  const tag = `localhost/berth-it-layers-${Date.now().toString(36)}:1`;
  const { engine, client } = useConnectedSuite(async () => {
    rmSync(folder, { recursive: true, force: true });
    await client.images.remove(tag, { force: true }).catch(() => undefined);
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

  it('a file of a lower layer opens read-only with the content that layer holds; saving it is refused', async () => {
    const rows = await viewRows('images', [imageLabel, 'Layers']);
    const lowerLayer = rows[3]?.label ?? '';
    const files = await vscode.commands.executeCommand<Array<{ label: string; node: unknown }>>('berth.internal.viewRowNodes', 'images', [imageLabel, 'Layers', lowerLayer]);
    const fileRow = files.find((row) => row.label === '/data/a.bin');
    assert.ok(fileRow, files.map((row) => row.label).join(', '));
    // What a click on the row runs (TreeItem.command), with the row VS Code hands it.
    const opened = await vscode.commands.executeCommand<string | undefined>('berth.images.openLayerFile', fileRow.node);
    assert.ok(opened, 'the command opened a document');
    const uri = vscode.Uri.parse(opened);
    assert.equal(uri.scheme, 'berth-image');
    const editor = await eventually('the editor of /data/a.bin', () => vscode.window.visibleTextEditors.find((each) => each.document.uri.toString() === uri.toString()));
    assert.equal(editor.document.getText(), 'a'.repeat(A_FIRST), 'the lower layer\'s version, not the image\'s b.bin');
    // The tab names the file; its full label ("layer N of IMAGE: /data/a.bin", from package.json's resource label
    // formatter, which reads the URI's query) ends in the file, so the tab is its last part whatever the image's name.
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
    assert.equal(tab?.label, 'a.bin', `the tab reads ${JSON.stringify(tab?.label)}`);
    // The layer is numbered as its row stands under Layers (the fourth row from the top), and the next layer's
    // overwrite is named in the label's note.
    const query = JSON.parse(uri.query) as { layer: string; note: string };
    assert.equal(query.layer, '4');
    assert.equal(query.note, ' (overwritten by layer 2)');

    // The workbench refuses writes to a read-only file system before they reach it; its editor shows our reason.
    assert.equal(vscode.workspace.fs.isWritableFileSystem('berth-image'), false);
    await assert.rejects(Promise.resolve(vscode.workspace.fs.writeFile(uri, Buffer.from('changed'))), (error: Error) => {
      assert.match(error.message, /^Unable to modify read-only file 'berth-image:/);
      return true;
    });
    // Typing into the editor and saving changes nothing in the layer.
    await Promise.resolve(editor.edit((builder) => builder.insert(new vscode.Position(0, 0), 'x'))).then(undefined, () => false);
    assert.equal(editor.document.isDirty, false, 'the read-only editor took no edit');
    assert.equal(editor.document.getText(), 'a'.repeat(A_FIRST));
    const saved = await Promise.resolve(editor.document.save()).then((result) => result, () => false);
    assert.equal(saved, false, 'the save was refused');
    const after = Buffer.from(await vscode.workspace.fs.readFile(uri)).toString('latin1');
    assert.equal(after, 'a'.repeat(A_FIRST));
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('a file the top layer removes opens to the refusal that says so, naming the layer from the top', async () => {
    const engineId = (await vscode.commands.executeCommand<{ engine: string }>('berth.internal.modelSnapshot'))?.engine ?? 'local';
    const analysis = await readImageLayers(client, tag);
    const top = analysis.layers[3];
    assert.ok(top);
    const layerNumber = layerNumberOf(analysis, 3);
    assert.equal(layerNumber, 1, 'the top row');
    const failure = await Promise.resolve(
      vscode.commands.executeCommand('berth.images.openLayerFile', { engine: engineId, imageId: analysis.imageId, layerIndex: 3, layerNumber, tarPath: top.tarPath, path: 'data/c.bin', rejects: true }),
    ).then(() => undefined, (error: Error) => error);
    assert.ok(failure, 'the open was refused');
    const image = analysis.imageId.replace(/^sha256:/, '').slice(0, 12);
    assert.ok(failure.message.includes(expectedMessage('layer-file-whiteout', { path: '/data/c.bin', layer: '1', image })), failure.message);
  });

  it('a click on the row of a file the layer removes opens nothing and reports no failed open', async () => {
    const rows = await viewRows('images', [imageLabel, 'Layers']);
    const files = await vscode.commands.executeCommand<Array<{ label: string; node: unknown }>>('berth.internal.viewRowNodes', 'images', [imageLabel, 'Layers', rows[0]?.label ?? '']);
    const removedRow = files.find((row) => row.label === '/data/c.bin');
    assert.ok(removedRow, files.map((row) => row.label).join(', '));
    const editors = vscode.window.visibleTextEditors.length;
    const opened = await vscode.commands.executeCommand<string | undefined>('berth.images.openLayerFile', removedRow.node);
    assert.equal(opened, undefined, 'no editor for a file the layer holds no content for');
    assert.equal(vscode.window.visibleTextEditors.length, editors);
  });
});
