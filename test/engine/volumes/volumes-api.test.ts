// Volumes, disk usage and prune against the private dockerd and the private Podman: every volume and container here
// carries this suite's marker label, and every prune is narrowed to that label, because other suites share the engines.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  createVolumeHelper,
  describeOutcome,
  FORWARD_HELPER_LABEL,
  IMAGE_SIDE_HELPER_LABEL,
  isEngineError,
  planIsEmpty,
  planPrune,
  planTotal,
  removeVolumeNamingUsers,
  runPrune,
  VOLUME_HELPER_LABEL,
} from '../../../src/engine';
import { useEngineSuite } from '../../support/engineSuite';
import { expectedMessage } from '../engine/bad-input-cases';
import { engineTargets, loadTestEngines, uniqueName } from '../../support/engines';

async function refusal(work: Promise<unknown>): Promise<Error> {
  try {
    await work;
  } catch (error) {
    assert.ok(error instanceof Error);
    return error;
  }
  assert.fail('expected a refusal');
}

for (const target of engineTargets(loadTestEngines())) {
  void describe(`volumes and prune on ${target.name}`, () => {
    const suite = useEngineSuite({ host: target.host, skip: target.skip, name: `volumes-${target.name}` });
    const labelFilter = { label: [`berth.test.marker=${suite.marker}`] };
    suite.cleanup(async () => {
      for (const volume of await suite.client.volumes.list({ filters: labelFilter })) await suite.client.volumes.remove(volume.Name, { force: true });
    });
    const newVolume = async (labels: Record<string, string> = {}): Promise<string> => {
      const name = uniqueName('vol');
      await suite.client.volumes.create({ Name: name, Driver: 'local', Labels: { ...suite.labels, ...labels } });
      return name;
    };
    /** A label of one test's own, so its prune sees only what it made. */
    const caseLabel = (): { labels: Record<string, string>; filters: Record<string, string[]> } => {
      const value = uniqueName('case');
      return { labels: { 'berth.test.case': value }, filters: { label: [`berth.test.case=${value}`] } };
    };

    void it('creates, lists, inspects and removes a local volume', { skip: target.skip }, async () => {
      const name = await newVolume();
      const listed = await suite.client.volumes.list({ filters: labelFilter });
      assert.deepEqual(listed.map((volume) => volume.Name), [name]);
      const inspected = await suite.client.volumes.inspect(name);
      assert.equal(inspected.Driver, 'local');
      assert.equal(inspected.Labels?.['berth.test.marker'], suite.marker);
      await suite.client.volumes.remove(name);
      const gone = await refusal(suite.client.volumes.inspect(name));
      assert.ok(isEngineError(gone, 'not-found'), String(gone));
    });

    void it('refuses to remove a volume in use and names the container that uses it', { skip: target.skip }, async () => {
      const name = await newVolume();
      const containerName = uniqueName('user');
      await suite.createContainer(['true'], { HostConfig: { Binds: [`${name}:/data`] } }, containerName);
      const error = await refusal(removeVolumeNamingUsers(suite.client, name));
      assert.ok(isEngineError(error, 'conflict'), String(error));
      assert.match(error.message, new RegExp(`Volume ${name} is in use by container ${containerName} \\(the engine said "`));
      assert.match(error.message, /Remove those containers first/);
      assert.equal((await suite.client.volumes.inspect(name)).Name, name, 'the volume is still there');
    });

    void it('makes a volume helper (created, no network) for a volume, and refuses one for a removed volume without bringing it back', { skip: target.skip }, async () => {
      const name = await newVolume();
      const helper = await createVolumeHelper(suite.client, name, suite.engines.image, '/volume');
      suite.cleanup(() => suite.client.containers.remove(helper, { force: true }).catch(() => undefined));
      const made = await suite.client.containers.inspect(helper);
      assert.equal(made.State.Status, 'created');
      assert.equal(made.HostConfig.NetworkMode, 'none');
      assert.equal(made.Config.Labels?.[VOLUME_HELPER_LABEL], name);
      await removeVolumeNamingUsers(suite.client, name);
      const error = await refusal(createVolumeHelper(suite.client, name, suite.engines.image, '/volume'));
      assert.ok(isEngineError(error, 'not-found'), String(error));
      assert.match(error.message, new RegExp(`Volume ${name} no longer exists`));
      const back = await suite.client.volumes.list({ filters: { name: [name] } });
      assert.deepEqual(back.filter((volume) => volume.Name === name), [], 'the removed volume came back');
    });

    void it("gives the engine's reason for a volume name it refuses", { skip: target.skip }, async () => {
      const error = await refusal(suite.client.volumes.create({ Name: 'bad/name' }));
      assert.ok(isEngineError(error, 'bad-request') || isEngineError(error, 'server'), String(error));
      assert.match(error.message, /bad\/name.*invalid characters|names must match/);
    });

    void it('plans a volume prune (what goes, what is kept in use), prunes it, and reports the engine\'s figures', { skip: target.skip }, async () => {
      const own = caseLabel();
      const unused = await newVolume(own.labels);
      const used = await newVolume(own.labels);
      await suite.createContainer(['true'], { HostConfig: { Binds: [`${used}:/data`] } });
      const plan = await planPrune(suite.client, ['volumes'], own.filters);
      const part = plan.parts[0];
      assert.deepEqual(part?.remove.map((item) => item.name), [unused]);
      assert.deepEqual(part?.kept.map((item) => item.name), [used]);
      assert.ok(planTotal(plan) >= 0);
      const outcomes = await runPrune(suite.client, plan);
      assert.deepEqual(outcomes[0]?.removed, [unused]);
      assert.match(describeOutcome(outcomes), /^Removed 1 object; reclaimed \d/);
      assert.deepEqual((await suite.client.volumes.list({ filters: own.filters })).map((volume) => volume.Name), [used]);
    });

    void it('says nothing is to be removed when the filters match nothing unused', { skip: target.skip }, async () => {
      const plan = await planPrune(suite.client, ['volumes', 'containers'], { label: [`berth.test.marker=${suite.marker}-none`] });
      assert.equal(planIsEmpty(plan), true);
    });

    void it('prunes stopped containers of this suite only, keeping its running ones', { skip: target.skip }, async () => {
      const own = caseLabel();
      const stopped = await suite.createContainer(['true'], { Labels: own.labels }, uniqueName('stopped'));
      const running = await suite.createContainer(['sleep', '600'], { Labels: own.labels }, uniqueName('running'));
      await suite.client.containers.start(running);
      const plan = await planPrune(suite.client, ['containers'], own.filters);
      assert.equal(plan.parts[0]?.remove.length, 1);
      assert.equal(plan.parts[0]?.kept.length, 1);
      const outcomes = await runPrune(suite.client, plan);
      assert.deepEqual(outcomes[0]?.removed, [stopped]);
      assert.deepEqual((await suite.client.containers.list({ all: true, filters: own.filters })).map((each) => each.Id), [running]);
    });

    void it('lists none of Berth\'s own helper containers in a container prune plan', { skip: target.skip }, async () => {
      const own = caseLabel();
      const stopped = await suite.createContainer(['true'], { Labels: own.labels }, uniqueName('stopped'));
      for (const label of [VOLUME_HELPER_LABEL, IMAGE_SIDE_HELPER_LABEL, FORWARD_HELPER_LABEL]) {
        await suite.createContainer(['true'], { Labels: { ...own.labels, [label]: stopped } }, uniqueName('helper'));
      }
      assert.equal((await suite.client.containers.list({ all: true, filters: own.filters })).length, 4, 'the helpers are on the engine');
      const plan = await planPrune(suite.client, ['containers'], own.filters);
      assert.deepEqual(plan.parts[0]?.remove.map((item) => item.id), [stopped]);
      assert.deepEqual(plan.parts[0]?.kept, []);
    });

    void it('two clients pruning the same volumes at once both succeed, and each volume goes once', { skip: target.skip }, async () => {
      const own = caseLabel();
      const names = await Promise.all(Array.from({ length: 6 }, () => newVolume(own.labels)));
      const other = suite.otherClient({ host: target.host });
      const plan = await planPrune(suite.client, ['volumes'], own.filters);
      // The other client prunes too, and removes two of the volumes one by one.
      const [mine, theirs] = await Promise.all([
        runPrune(suite.client, plan),
        runPrune(other, plan),
        other.volumes.remove(names[0] ?? '').catch(() => undefined),
        other.volumes.remove(names[1] ?? '').catch(() => undefined),
      ]);
      const removed = [...(mine[0]?.removed ?? []), ...(theirs[0]?.removed ?? [])];
      assert.ok(removed.every((name) => names.includes(name)), removed.join(','));
      assert.equal(new Set(removed).size, removed.length, 'no volume is reported removed twice');
      assert.deepEqual(await suite.client.volumes.list({ filters: own.filters }), []);
    });

    void it('reads disk usage with volume sizes and reference counts', { skip: target.skip }, async () => {
      const name = await newVolume();
      const usage = await suite.client.system.df();
      const volume = (usage.Volumes ?? []).find((each) => each.Name === name);
      assert.ok(volume, 'the new volume is in /system/df');
      assert.equal(typeof volume.UsageData?.Size, 'number');
      assert.ok(Array.isArray(usage.Images));
    });

    void it('names the engine and the endpoint when the engine lacks it', { skip: target.skip }, async () => {
      if (target.name === 'podman') {
        // Podman 4's compat API has no POST /build/prune.
        const error = await refusal(suite.client.system.prune('build'));
        assert.ok(isEngineError(error, 'version'), String(error));
        const version = /API ([\d.]+)/.exec(error.message)?.[1] ?? '?';
        assert.equal(error.message, expectedMessage('endpoint-missing', { version, endpoint: target.host }));
      } else {
        const report = await suite.client.system.prune('build', { filters: { until: ['1h'] } });
        assert.equal(typeof report.spaceReclaimed, 'number');
      }
    });

    void it('lists the predefined networks, inspects one, and refuses to remove it with the engine\'s words', { skip: target.skip }, async () => {
      const networks = await suite.client.networks.list();
      const names = networks.map((network) => network.Name);
      // Podman's compat API shows its default network `podman` as `bridge`.
      const predefined = target.name === 'docker' ? 'none' : 'bridge';
      assert.ok(names.includes(predefined), names.join(','));
      const inspected = await suite.client.networks.inspect(predefined);
      assert.equal(inspected.Name, predefined);
      if (target.name === 'docker') {
        const error = await refusal(suite.client.networks.remove('none'));
        assert.ok(isEngineError(error, 'unauthorized'), String(error));
        assert.match(error.message, /none is a pre-defined network and cannot be removed/);
      }
    });
  });
}
