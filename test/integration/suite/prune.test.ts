// Prune in the real extension host, on dockerd and on Podman (the integration matrix): the confirmation lists exactly
// what goes, compared with what the engine holds afterwards, for Prune Everything, Unused Images and Unused Volumes,
// with and without filters (issue 31's setup: volumes and an image used only by stopped containers the same prune
// removes), and Berth's volume helpers are never the user's containers. A running container of the shared test image
// keeps that image in use through the prunes without filters.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { EngineClient } from '../../../src/engine';
import { containerSpec } from '../../support/containerSpec';
import { eventually, snapshot, uniqueName, useConnectedSuite, viewRows, viewShows } from '../support/fixtures';

interface PruneResult {
  nothingToRemove: boolean;
  planned: string[];
  kept: string[];
  parts: Array<{ kind: string; remove: string[]; kept: string[] }>;
  confirmation?: { message: string; detail: string };
  declined?: boolean;
}

const CASE_KEY = 'berth.test.prune';
const HELPER_LABEL = 'berth.volume-helper';

/** Container ids (not Berth's helpers), volume names and image ids on the engine now. */
async function engineState(client: EngineClient): Promise<Map<string, Set<string>>> {
  const containers = (await client.containers.list({ all: true })).filter((each) => each.Labels?.[HELPER_LABEL] === undefined).map((each) => each.Id);
  const volumes = (await client.volumes.list()).map((each) => each.Name);
  const images = (await client.images.list()).map((each) => each.Id);
  return new Map([
    ['containers', new Set(containers)],
    ['volumes', new Set(volumes)],
    ['images', new Set(images)],
  ]);
}

const stateKey = (kind: string): string => (kind.endsWith('images') ? 'images' : kind);

/** What went is exactly what the plan listed, and everything it kept is still there. */
function assertPlanIsWhatWent(result: PruneResult, before: Map<string, Set<string>>, after: Map<string, Set<string>>): void {
  for (const key of ['containers', 'volumes', 'images']) {
    const planned = result.parts.filter((part) => stateKey(part.kind) === key).flatMap((part) => part.remove);
    const kept = result.parts.filter((part) => stateKey(part.kind) === key).flatMap((part) => part.kept);
    const gone = [...(before.get(key) ?? [])].filter((id) => !after.get(key)?.has(id));
    assert.deepEqual(gone.sort(), [...planned].sort(), `${key}: what went is exactly what the confirmation listed`);
    for (const id of kept) assert.ok(after.get(key)?.has(id), `${key}: ${id}, listed as kept, is still there`);
  }
  // The modal names up to 25 objects per kind ("… and N more" after that); its first line counts them all.
  assert.match(result.confirmation?.message ?? '', new RegExp(`^Remove ${result.planned.length} object`));
  if (result.planned.length <= 25) for (const name of result.planned) assert.ok(result.confirmation?.detail.includes(name), `the confirmation names ${name}`);
}

describe('prune: the confirmation is exactly what goes', function () {
  this.timeout(180_000);
  const cases: string[] = [];
  const { engines, client, containers } = useConnectedSuite(async () => {
    for (const value of cases) {
      const filters = { label: [`${CASE_KEY}=${value}`] };
      for (const each of await client.containers.list({ all: true, filters })) await client.containers.remove(each.Id, { force: true }).catch(() => undefined);
      for (const each of await client.volumes.list({ filters })) await client.volumes.remove(each.Name, { force: true }).catch(() => undefined);
      for (const each of await client.images.list({ filters })) await client.images.remove(each.Id, { force: true }).catch(() => undefined);
    }
  });

  before(async () => {
    await containers.create({ cmd: ['sleep', '600'] });
  });

  /** Issue 31's setup under a label of its own; returns the ids the plan must remove and keep. */
  async function setUp(): Promise<{ filter: string; labels: Record<string, string>; webdata: string; keepme: string; spare: string; app: string; spareImage: string; web1: string; holder: string }> {
    const value = uniqueName('it-prune');
    cases.push(value);
    const labels = { 'berth.test': '1', [CASE_KEY]: value };
    const volume = async (): Promise<string> => (await client.volumes.create({ Name: uniqueName('it-prune-vol'), Labels: labels })).Name;
    const image = async (): Promise<string> => {
      const source = await client.containers.create(containerSpec(engines.image, ['true'], { Labels: labels }));
      const repo = uniqueName('it-prune-img');
      await client.containers.commit(source.Id, { repo, tag: 'dev', changes: Object.entries(labels).map(([key, each]) => `LABEL ${key}=${each}`) });
      await client.containers.remove(source.Id, { force: true });
      // Podman lists it as localhost/<repo>:dev.
      const listed = (await client.images.list()).find((each) => (each.RepoTags ?? []).some((tag) => tag.endsWith(`${repo}:dev`)));
      assert.ok(listed, `the committed image ${repo}:dev is listed`);
      return listed.Id;
    };
    const [webdata, keepme, spare] = [await volume(), await volume(), await volume()];
    const [app, spareImage] = [await image(), await image()];
    const web1 = await client.containers.create(containerSpec(engines.image, ['sh', '-c', 'echo hi > /d/f'], { Labels: labels, HostConfig: { Binds: [`${webdata}:/d`] } }));
    await client.containers.start(web1.Id);
    await (await client.containers.wait(web1.Id, { condition: 'not-running' })).result;
    const holder = await client.containers.create(containerSpec(app, ['true'], { Labels: labels, HostConfig: { Binds: [`${keepme}:/d`] } }));
    return { filter: `label=${CASE_KEY}=${value}`, labels, webdata, keepme, spare, app, spareImage, web1: web1.Id, holder: holder.Id };
  }

  async function prune(command: string, filters: string[]): Promise<{ result: PruneResult; before: Map<string, Set<string>>; after: Map<string, Set<string>> }> {
    const before = await engineState(client);
    const result = await vscode.commands.executeCommand<PruneResult>(command, { filters, confirmed: true });
    assert.ok(result && !result.nothingToRemove, `${command} found something to remove`);
    return { result, before, after: await engineState(client) };
  }

  const part = (result: PruneResult, kind: string): { remove: string[]; kept: string[] } => result.parts.find((each) => each.kind === kind) ?? { remove: [], kept: [] };

  for (const filtered of [true, false]) {
    const how = filtered ? 'with a label filter' : 'without filters';

    it(`Prune Everything ${how}: removes what it lists, and keeps (and says so) what the removed containers used`, async () => {
      const setup = await setUp();
      const { result, before, after } = await prune('berth.prune.system', filtered ? [setup.filter] : []);
      assertPlanIsWhatWent(result, before, after);
      assert.ok([setup.web1, setup.holder].every((id) => part(result, 'containers').remove.includes(id)));
      assert.ok(part(result, 'volumes').remove.includes(setup.spare));
      assert.ok([setup.webdata, setup.keepme].every((name) => part(result, 'volumes').kept.includes(name)), JSON.stringify(result.parts));
      assert.ok(part(result, 'unused-images').remove.includes(setup.spareImage));
      assert.ok(part(result, 'unused-images').kept.includes(setup.app));
      assert.match(result.confirmation?.detail ?? '', /Volumes and images that the removed containers use are kept this time; the next prune removes them\./);
    });

    it(`Prune Unused Volumes ${how}: removes what it lists; label!= keeps what carries the label`, async () => {
      const setup = await setUp();
      const marked = (await client.volumes.create({ Name: uniqueName('it-prune-keep'), Labels: { ...setup.labels, keep: '1' } })).Name;
      const { result, before, after } = await prune('berth.prune.volumes', filtered ? [setup.filter, 'label!=keep'] : []);
      assertPlanIsWhatWent(result, before, after);
      assert.ok(part(result, 'volumes').remove.includes(setup.spare));
      assert.equal(part(result, 'volumes').remove.includes(marked), !filtered, 'label!=keep keeps the volume labelled keep');
      assert.ok([setup.webdata, setup.keepme].every((name) => part(result, 'volumes').kept.includes(name)));
    });

    it(`Prune Unused Images ${how}: removes what it lists, never an image a container uses`, async () => {
      const setup = await setUp();
      const { result, before, after } = await prune('berth.prune.unusedImages', filtered ? [setup.filter] : []);
      assertPlanIsWhatWent(result, before, after);
      assert.ok(part(result, 'unused-images').remove.includes(setup.spareImage));
      assert.ok(part(result, 'unused-images').kept.includes(setup.app));
    });
  }

  it('a filter the prune does not take is refused before anything is listed or removed', async () => {
    await assert.rejects(
      async () => vscode.commands.executeCommand('berth.prune.volumes', { filters: ['bogus=1'], confirmed: true }),
      (error: Error) => error.message.startsWith("Invalid filter 'bogus'. This prune accepts label, label!"),
    );
  });

  it("a volume's helper is never a row or a prune candidate, and Remove Volume and Prune Unused Volumes remove it first", async () => {
    await vscode.commands.executeCommand('berth.volumes.focus');
    const value = uniqueName('it-prune');
    cases.push(value);
    const volumes = [uniqueName('it-helped'), uniqueName('it-helped')];
    const helperIds: string[] = [];
    for (const name of volumes) {
      await client.volumes.create({ Name: name, Labels: { 'berth.test': '1', [CASE_KEY]: value } });
      await viewShows('volumes', [], `row of ${name}`, (rows) => rows.find((each) => each.label === name));
      await viewRows('volumes', [name, 'Files']);
      const [helper] = await client.containers.list({ all: true, filters: { label: [`${HELPER_LABEL}=${name}`] } });
      assert.ok(helper, `browsing ${name} made a helper`);
      helperIds.push(helper.Id);
    }
    // A container made after the helpers shows in the model: by then the helpers' events were read too.
    const later = await containers.create({ cmd: ['true'], start: false });
    await eventually('the later container is a row', async () => ((await snapshot()).containers.some((each) => each.id === later.id) ? true : undefined));
    const rows = (await snapshot()).containers.map((each) => each.id);
    for (const id of helperIds) assert.ok(!rows.includes(id), 'a helper is not a row in the Containers view');
    const stopped = await vscode.commands.executeCommand<PruneResult>('berth.prune.containers', { filters: [], confirmed: false });
    assert.equal(stopped?.declined, true, 'declined: nothing removed');
    const offered = stopped?.parts.flatMap((each) => [...each.remove, ...each.kept]) ?? [];
    assert.ok(offered.includes(later.id), 'the plan lists stopped containers');
    for (const id of helperIds) assert.ok(!offered.includes(id), 'a helper is not offered for pruning');

    const removed = await vscode.commands.executeCommand<string[]>('berth.volumes.remove', volumes[0], { confirmed: true });
    assert.deepEqual(removed, [volumes[0]]);
    // A volume of the same name made again is browsed through a new helper, not the removed one.
    const again = volumes[0] ?? '';
    await client.volumes.create({ Name: again, Labels: { 'berth.test': '1', [CASE_KEY]: value } });
    await viewShows('volumes', [], `row of ${again} again`, (rows) => rows.find((each) => each.label === again));
    await viewRows('volumes', [again, 'Files']);
    const [newHelper] = await client.containers.list({ all: true, filters: { label: [`${HELPER_LABEL}=${again}`] } });
    assert.ok(newHelper && !helperIds.includes(newHelper.Id), 'browsing the volume made again made a new helper');
    helperIds.push(newHelper.Id);
    const pruned = await vscode.commands.executeCommand<PruneResult>('berth.prune.volumes', { filters: [`label=${CASE_KEY}=${value}`], confirmed: true });
    assert.ok(pruned?.parts[0]?.remove.includes(volumes[1] ?? ''), 'a volume only a helper holds is unused');
    for (const name of volumes) assert.deepEqual(await client.volumes.list({ filters: { name: [name] } }), []);
    assert.deepEqual(await client.containers.list({ all: true, filters: { label: [HELPER_LABEL] } }).then((left) => left.filter((each) => helperIds.includes(each.Id))), []);
  });
});
