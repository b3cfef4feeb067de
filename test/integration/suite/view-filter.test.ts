// The explorer's filters in the real extension host, on dockerd and on Podman: Filter… narrows a view to the rows that
// match and says `N of M`; a container made while filtered (from outside, so through the events) shows only when it
// matches; a filter matching nothing shows its notice row; "this workspace only" keeps the Compose project whose files
// are in the workspace and hides one outside it. The filters are saved per workspace: every test clears them after.
import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { eventually, setBerthSetting, uniqueName, useConnectedSuite, viewRows, viewShows, type BerthView, type TreeRow } from '../support/fixtures';

const COUNT = /^(\d+) of (\d+)$/;

async function viewDescription(view: BerthView): Promise<string | undefined> {
  return vscode.commands.executeCommand<string | undefined>('berth.internal.viewDescription', view);
}

/** The `N of M` the view says, once it says N (the description follows the rows). */
/** Waits for "SHOWN of M" (and M = TOTAL when given: each container's event comes on its own). */
async function countSays(view: BerthView, shown: number, total?: number): Promise<{ shown: number; total: number }> {
  return eventually(`the ${view} view to say ${shown} of ${total ?? 'M'}`, async () => {
    const match = COUNT.exec((await viewDescription(view)) ?? '');
    return match && Number(match[1]) === shown && (total === undefined || Number(match[2]) === total) ? { shown, total: Number(match[2]) } : undefined;
  });
}

const labelsOf = (rows: readonly TreeRow[]): string[] => rows.map((row) => row.label).sort();

describe('filtering the explorer', () => {
  const { client, containers } = useConnectedSuite(async () => {
    await setBerthSetting('containers.groupBy', undefined);
  });
  before(() => setBerthSetting('containers.groupBy', 'none'));
  afterEach(async () => {
    for (const view of ['containers', 'images', 'volumes', 'networks'] as const) await vscode.commands.executeCommand(`berth.${view}.clearFilter`);
    await vscode.commands.executeCommand('berth.containers.allWorkspaces');
  });

  it('Filter… shows the matching containers, says N of M, and a container made while filtered shows only when it matches', async () => {
    const stem = uniqueName('berth-it-filter');
    const alpha = await containers.create({ cmd: ['sleep', '300'], name: `${stem}-alpha` });
    await containers.create({ cmd: ['sleep', '300'], name: `${stem}-beta` });
    await viewShows('containers', [], 'both rows unfiltered', (rows) => (rows.filter((row) => row.label.startsWith(stem)).length === 2 ? true : undefined));
    assert.equal(await viewDescription('containers'), undefined, 'no count without a filter');

    await vscode.commands.executeCommand('berth.containers.filter', `${stem.toUpperCase()}-ALPHA`);
    const rows = await viewShows('containers', [], 'only the alpha row', (current) => (current.length === 1 && current[0]?.label === alpha.name ? current : undefined));
    assert.equal(rows[0]?.contextValue, 'berth:container:running');
    const counts = await countSays('containers', 1);
    assert.ok(counts.total >= 2, `M counts the rows the view shows unfiltered: ${counts.total}`);

    const matching = await containers.create({ cmd: ['sleep', '300'], name: `${stem}-alpha-2` });
    const other = await containers.create({ cmd: ['sleep', '300'], name: `${stem}-gamma` });
    await viewShows('containers', [], 'the new matching row', (current) => (labelsOf(current).join() === [alpha.name, matching.name].sort().join() ? true : undefined));
    // The matching row can be drawn before the other container's event is in: M is waited for, not read at once.
    const after = await countSays('containers', 2, counts.total + 2);
    assert.equal(after.total, counts.total + 2, 'both new containers count in M');
    assert.ok(!labelsOf(await viewRows('containers')).includes(other.name), 'the container that does not match stays hidden');

    // The id prefix and a label match too.
    await vscode.commands.executeCommand('berth.containers.filter', other.id.slice(0, 12));
    await viewShows('containers', [], 'the row found by its id prefix', (current) => (labelsOf(current).join() === other.name ? true : undefined));

    await vscode.commands.executeCommand('berth.containers.clearFilter');
    await viewShows('containers', [], 'every row again', (current) => (current.filter((row) => row.label.startsWith(stem)).length === 4 ? true : undefined));
    await eventually('the count to go', async () => ((await viewDescription('containers')) === undefined ? true : undefined));
  });

  it('a filter that matches nothing shows a row saying so, whose click clears the filter', async () => {
    const needle = uniqueName('no-such-row');
    await vscode.commands.executeCommand('berth.containers.filter', needle);
    const [notice] = await viewShows('containers', [], 'the notice row', (rows) => (rows.length === 1 && rows[0]?.contextValue === 'berth:filterNotice' ? rows : undefined));
    assert.equal(notice?.label, `No container matches “${needle}”`);
    assert.equal((await countSays('containers', 0)).shown, 0);
    for (const view of ['images', 'volumes', 'networks'] as const) {
      await vscode.commands.executeCommand(`berth.${view}.focus`);
      await vscode.commands.executeCommand(`berth.${view}.filter`, needle);
      await viewShows(view, [], `the ${view} notice row`, (rows) => (rows.some((row) => row.contextValue === 'berth:filterNotice' && row.label.includes(needle)) ? true : undefined));
      await countSays(view, 0);
    }
  });

  it('the Images, Volumes and Networks views keep the rows that match', async () => {
    const image = (await client.images.inspect(containers.image)).Id;
    await vscode.commands.executeCommand('berth.images.filter', image.replace(/^sha256:/, '').slice(0, 12));
    const images = await viewShows('images', [], 'the test image\'s rows', (rows) => (rows.length > 0 && rows.every((row) => row.contextValue !== 'berth:filterNotice') ? rows : undefined));
    await countSays('images', images.length);

    // The Volumes and Networks views follow the engine only while shown.
    await vscode.commands.executeCommand('berth.volumes.focus');
    const volume = uniqueName('berth-it-filter-vol').toLowerCase();
    await client.volumes.create({ Name: volume, Labels: { 'berth.test': '1' } });
    try {
      await vscode.commands.executeCommand('berth.volumes.filter', volume);
      await viewShows('volumes', [], 'the volume row', (rows) => (rows.some((row) => row.label === volume) ? true : undefined));
      await countSays('volumes', 1);
    } finally {
      await client.volumes.remove(volume, { force: true });
    }

    await vscode.commands.executeCommand('berth.networks.focus');
    const network = (await viewShows('networks', [], 'a network row', (rows) => rows.find((row) => row.contextValue?.startsWith('berth:network')))).label;
    await vscode.commands.executeCommand('berth.networks.filter', network.toUpperCase());
    await viewShows('networks', [], `the ${network} row`, (rows) => (rows.some((row) => row.label === network) ? true : undefined));
    await countSays('networks', (await viewRows('networks')).length);
  });

  it('"this workspace only" keeps the Compose project whose files are in the workspace, with grouping too', async () => {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    assert.ok(folder, 'the integration workbench opens a folder');
    const compose = (project: string, dir: string): Record<string, string> => ({
      'com.docker.compose.project': project,
      'com.docker.compose.service': 'web',
      'com.docker.compose.project.working_dir': dir,
      'com.docker.compose.project.config_files': join(dir, 'compose.yaml'),
    });
    const inside = uniqueName('itwsin').toLowerCase();
    const outside = uniqueName('itwsout').toLowerCase();
    const insideRow = await containers.create({ cmd: ['sleep', '300'], labels: compose(inside, join(folder, 'deploy')) });
    const outsideRow = await containers.create({ cmd: ['sleep', '300'], labels: compose(outside, `/tmp/${outside}`) });
    await viewShows('containers', [], 'both projects unscoped', (rows) => (rows.some((row) => row.label === insideRow.name) && rows.some((row) => row.label === outsideRow.name) ? true : undefined));

    await vscode.commands.executeCommand('berth.containers.workspaceOnly');
    await viewShows('containers', [], 'only the workspace\'s project', (rows) =>
      rows.some((row) => row.label === insideRow.name) && !rows.some((row) => row.label === outsideRow.name) ? true : undefined);
    await countSays('containers', (await viewRows('containers')).length);

    await setBerthSetting('containers.groupBy', 'composeProject');
    try {
      await viewShows('containers', [], 'the workspace project\'s group only', (rows) =>
        rows.some((row) => row.label === inside) && !rows.some((row) => row.label === outside) ? true : undefined);
      assert.deepEqual(labelsOf(await viewRows('containers', [inside])), [insideRow.name]);
    } finally {
      await setBerthSetting('containers.groupBy', 'none');
    }

    await vscode.commands.executeCommand('berth.containers.allWorkspaces');
    await viewShows('containers', [], 'both projects again', (rows) => (rows.some((row) => row.label === insideRow.name) && rows.some((row) => row.label === outsideRow.name) ? true : undefined));
  });
});
