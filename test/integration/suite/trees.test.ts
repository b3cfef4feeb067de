// The Containers and Images trees themselves, row by row as VS Code renders them (`berth.internal.viewChildren`):
// labels, descriptions, context values by state, order, the running-only filter, compose grouping and the untagged
// image row. Containers are made OUTSIDE the extension, so the rows come from the events path.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import {
  useConnectedSuite, modelShowsContainer, removeImageQuietly, setBerthSetting, snapshot, uniqueName, viewRows, viewShows, type TreeRow,
} from '../support/fixtures';

/** `<image> · <Status>` split at the last separator (a Status never holds one). */
function splitDescription(row: TreeRow): { image: string; status: string } {
  const description = row.description ?? '';
  const at = description.lastIndexOf(' · ');
  assert.ok(at > 0, `the row ${row.label} has no "<image> · <status>" description: "${description}"`);
  return { image: description.slice(0, at), status: description.slice(at + ' · '.length) };
}

function rowLabelled(rows: TreeRow[], label: string): TreeRow | undefined {
  return rows.find((row) => row.label === label);
}

/** A size (the CLI's decimal units) and an age, then optionally how many containers use the image. */
// docker's CREATED wording (go-units HumanDuration + " ago").
const IMAGE_DESCRIPTION = /^\d+(?:\.\d+)?(?:B|kB|MB|GB) · (?:unknown age|(?:Less than a second|About a minute|About an hour|\d+ (?:second|minute|hour|day|week|month|year)s?) ago)(?: · used by (\d+) containers?)?$/;

describe('the trees as rendered', () => {
  const { engines, engine, client, containers } = useConnectedSuite(async () => {
    await setBerthSetting('containers.showAll', undefined);
    await setBerthSetting('containers.groupBy', undefined);
    await setBerthSetting('containers.showStats', undefined);
  });
  // Running rows append CPU and memory to their description while stats are on (stats.test.ts covers that); here the
  // description is the model's own `<image> · <Status>`.
  before(() => setBerthSetting('containers.showStats', false));

  it('container rows: label, "<image> · <Status>", context value by state, tooltip, id', async () => {
    const running = await containers.create({ cmd: ['sleep', '300'], labels: { 'berth.it.tree': 'row' } });
    const created = await containers.create({ cmd: ['sleep', '300'], start: false });
    const exited = await containers.create({ cmd: ['sh', '-c', 'exit 3'] });
    await (await client.containers.wait(exited.id, { condition: 'not-running' })).result;
    await modelShowsContainer(exited.id, 'exited');

    const rows = await viewShows('containers', [], 'rows for the running, created and exited containers', (current) => {
      const [runningRow, createdRow, exitedRow] = [running, created, exited].map(({ name }) => rowLabelled(current, name));
      if (!runningRow || !createdRow || !exitedRow) return undefined;
      return /^Exited/.test(exitedRow.description?.split(' · ').pop() ?? '') ? { runningRow, createdRow, exitedRow } : undefined;
    });
    const { runningRow, createdRow, exitedRow } = rows;

    assert.equal(runningRow.contextValue, 'berth:container:running');
    assert.equal(createdRow.contextValue, 'berth:container:created');
    assert.equal(exitedRow.contextValue, 'berth:container:exited');
    assert.match(splitDescription(runningRow).status, /^Up /);
    assert.equal(splitDescription(createdRow).status, 'Created');
    assert.match(splitDescription(exitedRow).status, /^Exited \(3\) /);
    for (const row of [runningRow, createdRow, exitedRow]) {
      const { image } = splitDescription(row);
      assert.ok(engine.sameReference(image, engines.image), `the row ${row.label} names the image ${image}`);
      // It expands to its Files row (files/rows.ts; files-tree.test.ts walks it).
      assert.equal(row.collapsible, true);
    }
    // Named by docker ps's short id (src/containers/tree.ts, rowKey): VS Code pays for each character of each id.
    assert.equal(runningRow.id, `container:${running.id.slice(0, 12)}`);
    assert.equal(exitedRow.id, `container:${exited.id.slice(0, 12)}`);
    // The tooltip is markdown: the full id, and the container's labels (markdown-escaped, so `.` is `\.`).
    assert.ok(runningRow.tooltip?.includes(`ID: ${running.id}`), runningRow.tooltip);
    assert.ok(runningRow.tooltip?.includes('berth\\.it\\.tree = row'), runningRow.tooltip);
  });

  it('container rows are sorted by name, numbers compared as numbers', async () => {
    const stem = uniqueName('berth-it-order');
    // Created in reverse order, so creation order cannot pass for name order.
    for (const suffix of ['10', '9', '1']) await containers.create({ cmd: ['sleep', '300'], name: `${stem}-${suffix}`, start: false });
    const order = await viewShows('containers', [], 'the three ordered rows', (rows) => {
      const labels = rows.map((row) => row.label).filter((label) => label.startsWith(`${stem}-`));
      return labels.length === 3 ? labels : undefined;
    });
    assert.deepEqual(order, [`${stem}-1`, `${stem}-9`, `${stem}-10`]);
  });

  it('Show Running Containers Only hides stopped rows; Show All brings them back', async () => {
    const running = await containers.create({ cmd: ['sleep', '300'] });
    const stopped = await containers.create({ cmd: ['sleep', '300'], start: false });
    await modelShowsContainer(stopped.id, 'created');
    await modelShowsContainer(running.id, 'running');
    // The view's title-bar commands themselves, not the setting they write.
    await vscode.commands.executeCommand('berth.containers.showRunning');
    assert.equal(vscode.workspace.getConfiguration('berth').get('containers.showAll'), false);
    await viewShows('containers', [], 'the created row hidden, the running row shown', (rows) =>
      rowLabelled(rows, running.name) && !rowLabelled(rows, stopped.name) ? true : undefined);
    await vscode.commands.executeCommand('berth.containers.showAll');
    assert.equal(vscode.workspace.getConfiguration('berth').get('containers.showAll'), true);
    await viewShows('containers', [], 'both rows shown again', (rows) =>
      rowLabelled(rows, running.name) && rowLabelled(rows, stopped.name) ? true : undefined);
  });

  it('grouped by compose project: a group row first, "running/total running", its members under it', async () => {
    const project = uniqueName('berth-it-proj');
    const composeLabels = (service: string): Record<string, string> => ({
      'com.docker.compose.project': project,
      'com.docker.compose.service': service,
    });
    const web = await containers.create({ cmd: ['sleep', '300'], name: `${project}-web-1`, labels: composeLabels('web') });
    const job = await containers.create({ cmd: ['true'], name: `${project}-job-1`, labels: composeLabels('job') });
    const loose = await containers.create({ cmd: ['sleep', '300'] });
    await (await client.containers.wait(job.id, { condition: 'not-running' })).result;
    await modelShowsContainer(job.id, 'exited');
    await modelShowsContainer(loose.id, 'running');
    await setBerthSetting('containers.groupBy', 'composeProject');

    const roots = await viewShows('containers', [], `the group row ${project} counting 1 of 2 running`, (rows) =>
      rowLabelled(rows, project)?.description === '1/2 running' ? rows : undefined);
    const group = rowLabelled(roots, project) as TreeRow;
    assert.equal(group.contextValue, 'berth:group:compose');
    assert.equal(group.collapsible, true);
    assert.equal(group.id, `group:${project}`);
    // Groups come before containers without a project, and the project's members are not at the root.
    const firstContainer = roots.findIndex((row) => row.contextValue?.startsWith('berth:container:'));
    assert.ok(roots.indexOf(group) < firstContainer, roots.map((row) => row.label).join(', '));
    assert.ok(rowLabelled(roots, loose.name), 'the container without a project stays at the root');
    assert.equal(rowLabelled(roots, web.name), undefined);

    const members = await viewRows('containers', [project]);
    assert.deepEqual(members.map((row) => row.label), [job.name, web.name]);
    assert.deepEqual(members.map((row) => row.contextValue), ['berth:container:exited', 'berth:container:running']);

    await setBerthSetting('containers.groupBy', 'none');
    await viewShows('containers', [], 'the flat list with grouping off', (rows) =>
      rowLabelled(rows, web.name) && !rowLabelled(rows, project) ? true : undefined);
    // Grouping by project is the default (issue 11): with the setting unset, the group is back.
    await setBerthSetting('containers.groupBy', undefined);
    await viewShows('containers', [], 'the groups again by default', (rows) =>
      rowLabelled(rows, project) && !rowLabelled(rows, web.name) ? true : undefined);
  });

  it('image rows: one per tag, "<size> · <age> · used by N containers", tagged and untagged context values', async () => {
    // A container keeps the test image in use, so its row counts at least one container.
    await containers.create({ cmd: ['sleep', '300'] });
    const tagged = await viewShows('images', [], `the row of ${engines.image} counting its containers`, (rows) => {
      const row = rows.find((candidate) => engine.sameReference(candidate.label, engines.image));
      return row && / · used by \d+ containers?$/.test(row.description ?? '') ? row : undefined;
    });
    assert.equal(tagged.contextValue, 'berth:image:tagged');
    assert.match(tagged.description ?? '', IMAGE_DESCRIPTION);
    assert.ok(Number(IMAGE_DESCRIPTION.exec(tagged.description ?? '')?.[1]) >= 1, tagged.description);
    const modelEntry = (await snapshot()).images.find((image) => image.tags.includes(tagged.label));
    assert.ok(modelEntry, `${tagged.label} in the model`);
    // The row id is keyed by the digest without its `sha256:` (the same key whichever way the engine spells the id).
    assert.equal(tagged.id, `image:${modelEntry.id.replace(/^sha256:/, '')}:${tagged.label}`);
    assert.equal(tagged.collapsible, true); // its Layers row

    // A commit without a repository makes an untagged image: its row is `<untagged> sha256:<12 hex>…`.
    const source = await containers.create({ cmd: ['sh', '-c', 'echo untagged > /marker'] });
    await (await client.containers.wait(source.id, { condition: 'not-running' })).result;
    const { Id } = await client.containers.commit(source.id);
    const imageId = engine.canonicalImageId(Id);
    try {
      // How a commit made outside reaches the model is the events path's test (events.test.ts); this one is about the row.
      await vscode.commands.executeCommand('berth.refresh');
      const hex = imageId.replace(/^sha256:/, '').slice(0, 12);
      const untagged = await viewShows('images', [], `the untagged row of ${hex}`, (rows) =>
        rowLabelled(rows, `<untagged> sha256:${hex}…`));
      assert.equal(untagged.contextValue, 'berth:image:untagged');
      assert.match(untagged.description ?? '', IMAGE_DESCRIPTION);
      assert.ok(untagged.id?.endsWith(':<untagged>'), untagged.id);
      assert.ok(untagged.tooltip?.includes('Tags: none'), untagged.tooltip);
    } finally {
      await removeImageQuietly(client, Id);
    }
    await vscode.commands.executeCommand('berth.refresh');
    await viewShows('images', [], 'the untagged row gone once the image is removed', (rows) =>
      rows.some((row) => row.label.includes(imageId.replace(/^sha256:/, '').slice(0, 12))) ? undefined : true);
  });
});
