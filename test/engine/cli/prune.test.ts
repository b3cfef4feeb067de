// berth's prune commands on dockerd and Podman: the plan berth prints is exactly what goes (issue 31's Prune
// Everything setup: volumes and an image used only by the stopped containers the same prune removes), label!= works
// as in docker, and a filter a prune does not take is refused before anything is listed, with docker's exit status.
// Every object here carries a label of its own case, and every prune is narrowed to it.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import type { EngineClient } from '../../../src/engine';
import { expectedMessage } from '../engine/bad-input-cases';
import { engineTargets, loadTestEngines, uniqueName } from '../../support/engines';
import { createCliHarness, type CliHarness, type CliResult } from './support';

const execFileAsync = promisify(execFile);
const CASE_KEY = 'berth.test.prune';

/** What `berth … prune` printed before removing: the names under "Will remove these …:" and under "Keeping". */
function printedPlan(stdout: string): { remove: string[]; kept: string[] } {
  const remove: string[] = [];
  const kept: string[] = [];
  let section: string[] | undefined;
  for (const line of stdout.split('\n')) {
    if (line.startsWith('Will remove these ')) section = remove;
    else if (line.startsWith('Keeping (in use):')) section = kept;
    else if (line.startsWith('  ') && section) section.push(line.trim().split(' ')[0] ?? '');
    else section = undefined;
  }
  return { remove: remove.sort(), kept: kept.sort() };
}

/** The names of the case's containers, volumes and image tags as the engine has them now. */
async function caseObjects(client: EngineClient, value: string): Promise<string[]> {
  const filters = { label: [`${CASE_KEY}=${value}`] };
  const containers = (await client.containers.list({ all: true, filters })).map((container) => container.Names[0]?.replace(/^\//, '') ?? container.Id);
  const volumes = (await client.volumes.list({ filters })).map((volume) => volume.Name);
  const images = (await client.images.list({ filters })).flatMap((image) => image.RepoTags ?? []);
  return [...containers, ...volumes, ...images].sort();
}

async function removeCase(client: EngineClient, value: string): Promise<void> {
  const filters = { label: [`${CASE_KEY}=${value}`] };
  for (const container of await client.containers.list({ all: true, filters })) await client.containers.remove(container.Id, { force: true }).catch(() => undefined);
  for (const volume of await client.volumes.list({ filters })) await client.volumes.remove(volume.Name, { force: true }).catch(() => undefined);
  for (const image of await client.images.list({ filters })) await client.images.remove(image.Id, { force: true }).catch(() => undefined);
}

for (const target of engineTargets(loadTestEngines())) {
  void describe(`berth prune: the plan is what goes (${target.name})`, () => {
    let harness: CliHarness;
    let client: EngineClient;
    const cases: string[] = [];
    before(async () => {
      if (target.skip) return;
      harness = await createCliHarness(`prune-${target.name}`);
      client = harness.clientFor(target.host);
    });
    after(async () => {
      if (target.skip) return;
      for (const value of cases) await removeCase(client, value);
      await harness.dispose();
    });
    const berth = (args: readonly string[]): Promise<CliResult> => harness.berth(args, { host: target.host });

    /** A case of its own: its label, and makers of labelled volumes, containers and images. */
    const newCase = (): { value: string; filter: string; labels: Record<string, string> } => {
      const value = uniqueName('prune');
      cases.push(value);
      return { value, filter: `label=${CASE_KEY}=${value}`, labels: { 'berth.test': '1', [CASE_KEY]: value } };
    };
    const volume = async (labels: Record<string, string>, extra: Record<string, string> = {}): Promise<string> =>
      (await client.volumes.create({ Name: uniqueName('prune-vol'), Labels: { ...labels, ...extra } })).Name;
    const container = async (labels: Record<string, string>, image: string, cmd: string[], binds: string[], run: boolean): Promise<string> => {
      const name = uniqueName('prune-ctr');
      const { Id } = await client.containers.create({ Image: image, Cmd: cmd, Labels: labels, HostConfig: { NetworkMode: 'none', Binds: binds } }, { name });
      if (run) {
        await client.containers.start(Id);
        await (await client.containers.wait(Id, { condition: 'not-running' })).result;
      }
      return name;
    };
    /** A tagged image carrying the case's labels: the test image committed with LABEL changes. */
    const image = async (labels: Record<string, string>, extra: Record<string, string> = {}): Promise<string> => {
      const source = await client.containers.create({ Image: harness.engines.image, Cmd: ['true'], Labels: labels, HostConfig: { NetworkMode: 'none' } });
      const repo = uniqueName('prune-img');
      const changes = Object.entries({ ...labels, ...extra }).map(([key, value]) => `LABEL ${key}=${value}`);
      await client.containers.commit(source.Id, { repo, tag: 'dev', changes });
      await client.containers.remove(source.Id, { force: true });
      const [tag] = (await client.images.list({ filters: { reference: [`${repo}:dev`] } })).flatMap((each) => each.RepoTags ?? []);
      assert.ok(tag, `the committed image ${repo}:dev is listed`);
      return tag;
    };

    void it('system prune -a --volumes removes exactly what it printed, and keeps what the removed containers used', { skip: target.skip }, async () => {
      const own = newCase();
      const webdata = await volume(own.labels);
      const keepme = await volume(own.labels);
      const spare = await volume(own.labels);
      const app = await image(own.labels);
      const spareImage = await image(own.labels);
      const web1 = await container(own.labels, harness.engines.image, ['sh', '-c', 'echo hi > /d/f'], [`${webdata}:/d`], true);
      const holder = await container(own.labels, app, ['true'], [`${keepme}:/d`], false);
      const before = await caseObjects(client, own.value);

      const result = await berth(['system', 'prune', '-a', '--volumes', '-f', '--filter', own.filter]);
      assert.equal(result.code, 0, result.stderr);
      const plan = printedPlan(result.stdout);
      assert.deepEqual(plan.remove, [holder, web1, spare, spareImage].sort(), result.stdout);
      assert.deepEqual(plan.kept, [webdata, keepme, app].sort(), result.stdout);
      const after = await caseObjects(client, own.value);
      assert.deepEqual(before.filter((name) => !after.includes(name)), plan.remove, 'what went is exactly what was printed');
      assert.match(result.stdout, /Volumes and images that the removed containers use are kept this time; the next prune removes them\.\n/);

      // What the removed containers used goes with the next prune, as printed again.
      const next = await berth(['system', 'prune', '-a', '--volumes', '-f', '--filter', own.filter]);
      assert.equal(next.code, 0, next.stderr);
      const nextPlan = printedPlan(next.stdout);
      assert.deepEqual(nextPlan.remove, [webdata, keepme, app].sort(), next.stdout);
      assert.deepEqual(await caseObjects(client, own.value), []);
    });

    void it('volume, container and image prune with label!=keep remove only what lacks the label, as printed', { skip: target.skip }, async () => {
      const own = newCase();
      const keptVolume = await volume(own.labels, { keep: '1' });
      const goneVolume = await volume(own.labels);
      const keptContainer = await container({ ...own.labels, keep: '1' }, harness.engines.image, ['true'], [], true);
      const goneContainer = await container(own.labels, harness.engines.image, ['true'], [], true);
      const keptImage = await image(own.labels, { keep: '1' });
      const goneImage = await image(own.labels);
      const filters = ['--filter', own.filter, '--filter', 'label!=keep'];
      for (const [command, gone] of [
        [['volume', 'prune', '-f'], goneVolume],
        [['container', 'prune', '-f'], goneContainer],
        [['image', 'prune', '-a', '-f'], goneImage],
      ] as const) {
        const result = await berth([...command, ...filters]);
        assert.equal(result.code, 0, `${command.join(' ')}: ${result.stderr}`);
        assert.deepEqual(printedPlan(result.stdout).remove, [gone], result.stdout);
      }
      assert.deepEqual(await caseObjects(client, own.value), [keptContainer, keptVolume, keptImage].sort());
    });

    void it('a filter the prune does not take is refused before any plan is printed, and nothing goes', { skip: target.skip }, async () => {
      const own = newCase();
      const stopped = await container(own.labels, harness.engines.image, ['true'], [], true);
      const containerPrune = await berth(['container', 'prune', '-f', '--filter', 'bogus=1', '--filter', own.filter]);
      assert.equal(containerPrune.code, 1);
      assert.equal(containerPrune.stdout, '');
      assert.equal(containerPrune.stderr, `berth: ${expectedMessage('prune-bad-filter', { key: 'bogus', accepted: 'label, label!, until', examples: 'label=team=a, label!=keep, until=24h' })}\n`);
      const volumePrune = await berth(['volume', 'prune', '-f', '--filter', 'bogus=1', '--filter', own.filter]);
      assert.equal(volumePrune.code, 1);
      assert.equal(volumePrune.stdout, '');
      assert.equal(volumePrune.stderr, `berth: ${expectedMessage('prune-bad-filter', { key: 'bogus', accepted: 'label, label!', examples: 'label=team=a, label!=keep' })}\n`);
      const untilVolumes = await berth(['system', 'prune', '--volumes', '-f', '--filter', 'until=24h', '--filter', own.filter]);
      assert.equal(untilVolumes.code, 1);
      assert.equal(untilVolumes.stdout, '');
      assert.equal(untilVolumes.stderr, `berth: ${expectedMessage('prune-until-volumes')}\n`);
      assert.deepEqual(await caseObjects(client, own.value), [stopped]);
    });

    if (target.name === 'docker') {
      void it('exits as docker does on the same engine: 1, with docker\'s words, for a filter the prune does not take', async () => {
        const own = newCase();
        const args = ['-f', '--filter', 'bogus=1', '--filter', own.filter];
        for (const command of [['container', 'prune'], ['volume', 'prune']]) {
          const mine = await berth([...command, ...args]);
          const theirs = await execFileAsync('docker', ['-H', harness.engines.dockerHost, ...command, ...args]).then(
            () => ({ code: 0, stderr: '' }),
            (error: { code?: number; stderr?: string }) => ({ code: error.code, stderr: error.stderr ?? '' }),
          );
          assert.equal(mine.code, theirs.code, `${command.join(' ')}: berth ${mine.code}, docker ${theirs.code}`);
          const dockerWords = theirs.stderr.trim().replace(/^Error response from daemon: /, '');
          assert.ok(mine.stderr.toLowerCase().includes(dockerWords.toLowerCase()), `${mine.stderr} names docker's "${dockerWords}"`);
        }
      });
    }
  });
}
