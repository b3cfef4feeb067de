// Issue 20, item 9 and the smaller row defects, in the real extension host: a Remove the engine refuses because the
// container runs offers Remove with Force (by name, confirmed; declined, the container runs on); the tooltip says a
// state once and keeps a quoted argument's spaces; an image tag row counts the containers created from that tag.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { containerSpec } from '../../support/containerSpec';
import { rowPattern } from '../../engine/engine/bad-input-workbench-cases';
import { engineSummaries, inspectOrUndefined, removeImageQuietly, uniqueName, useConnectedSuite, viewShows, type TreeRow } from '../support/fixtures';

interface RemoveResult {
  removed: string[];
  refused: Array<{ id: string; name: string; message: string; forced: boolean }>;
}

describe('first hour: Remove with Force, tooltips, image usage', function () {
  this.timeout(120_000);
  const { engines, engine, client, containers } = useConnectedSuite();
  let engineId: string;

  before(async () => {
    const current = (await engineSummaries()).find((summary) => summary.current);
    assert.ok(current, 'a current engine');
    engineId = current.id;
  });

  /** A Containers row drawn while the container was stopped: what the view hands Remove before its next update. */
  function staleRow(container: { id: string; name: string }): unknown {
    return { kind: 'container', engine: engineId, record: { id: container.id, name: container.name, state: 'exited' } };
  }

  it('a Remove refused because the container runs: declining Remove with Force leaves it running', async () => {
    const running = await containers.create({ cmd: ['sleep', '300'] });
    const result = await vscode.commands.executeCommand<RemoveResult | undefined>('berth.remove', staleRow(running), { confirmed: false });
    assert.deepEqual(result?.removed, [], 'the plain remove was refused');
    const [refusal] = result.refused;
    assert.ok(refusal, 'the refusal is offered force, not only reported');
    assert.equal(refusal.name, running.name, 'named by its name');
    assert.match(refusal.message, rowPattern('remove-running-refused'));
    assert.ok(refusal.message.startsWith(`Removing ${running.name} failed: `), refusal.message);
    assert.equal(refusal.forced, false);
    assert.equal((await client.containers.inspect(running.id)).State.Running, true, 'declined: it runs on');
  });

  it('Remove with Force, confirmed, removes the running container', async () => {
    const running = await containers.create({ cmd: ['sleep', '300'] });
    const result = await vscode.commands.executeCommand<RemoveResult | undefined>('berth.remove', staleRow(running), { confirmed: true });
    assert.equal(result?.refused[0]?.forced, true);
    assert.equal(result.refused[0].name, running.name);
    assert.equal(await inspectOrUndefined(client, running.id), undefined, 'gone');
  });

  it('a row known to run is still removed after the existing question, with no refusal', async () => {
    const running = await containers.create({ cmd: ['sleep', '300'] });
    const row = { kind: 'container', engine: engineId, record: { id: running.id, name: running.name, state: 'running' } };
    const result = await vscode.commands.executeCommand<RemoveResult | undefined>('berth.remove', row, { confirmed: true });
    assert.deepEqual(result?.removed, [running.id]);
    assert.deepEqual(result.refused, []);
  });

  /** The row of a container in the Containers view (not grouped: these containers have no Compose labels). */
  function containerRow(name: string, what: string, test: (row: TreeRow) => boolean): Promise<TreeRow> {
    return viewShows('containers', [], what, (rows) => rows.find((row) => row.label === name && test(row)));
  }

  it('the tooltip says "Created" once, and keeps the spaces inside a quoted argument', async () => {
    const fresh = await containers.create({ cmd: ['sh', '-c', 'sleep 300 &&   true'], start: false });
    const row = await containerRow(fresh.name, `the row of ${fresh.name}`, (candidate) => candidate.tooltip !== undefined);
    const firstLine = row.tooltip?.split('\n')[0] ?? '';
    assert.match(firstLine, / — Created$/, firstLine);
    assert.doesNotMatch(row.tooltip ?? '', /created, Created/i);
    // Three spaces stay three: one plain, two that Markdown cannot collapse.
    assert.ok(row.tooltip?.includes('300 && \u00a0\u00a0true'), row.tooltip);
    if (engine.kind === 'docker') assert.ok(row.tooltip?.includes("sh \\-c 'sleep 300 && \u00a0\u00a0true'"), 'quoted as docker ps shows it');
  });

  it('a tag that shares an image id counts only the containers created from it: "used by N containers"', async () => {
    const repo = 'berth-it/used-by';
    const tag = `t${Date.now()}`;
    const reference = `${repo}:${tag}`;
    await client.images.tag(engines.image, { repo, tag });
    try {
      // The test image itself is in use (this container), so the image id has containers; the new tag has none yet.
      await containers.create({ cmd: ['sleep', '300'] });
      const mine = (rows: TreeRow[]): TreeRow | undefined => rows.find((row) => engine.sameReference(row.label, reference));
      const unused = await viewShows('images', [], `the row of ${reference}`, mine);
      assert.doesNotMatch(unused.description ?? '', /used by|containers?$/, 'nothing when no container was created from the tag');

      const name = uniqueName('berth-it-used-by');
      const { Id } = await client.containers.create(containerSpec(reference, ['sleep', '300']), { name });
      containers.track(Id);
      const used = await viewShows('images', [], `${reference} used by 1 container`, (rows) => {
        const row = mine(rows);
        return row?.description?.endsWith(' · used by 1 container') ? row : undefined;
      });
      assert.match(used.tooltip ?? '', /Used by: 1 container created from .* \(\d+ containers of this image in all\)/);
      await client.containers.remove(Id, { force: true });
      await viewShows('images', [], `${reference} used by nothing again`, (rows) => {
        const row = mine(rows);
        return row && !/used by/.test(row.description ?? '') ? row : undefined;
      });
    } finally {
      await removeImageQuietly(client, reference);
    }
  });
});
