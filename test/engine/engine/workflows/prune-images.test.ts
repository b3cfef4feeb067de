// Prune Unused Images with an image and the one built from it, on the private dockerd and the private Podman: the
// confirmation's list is what goes. Both unused: both go, the child first (the engine refuses a parent while its
// child exists). The child in use: the parent is listed as kept, as the engine would refuse to remove it.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { buildImage, planPrune, runPrune, describeOutcome, type EngineClient } from '../../../../src/engine';
import { useEngineSuite } from '../../../support/engineSuite';
import { engineTargets, loadTestEngines, uniqueName } from '../../../support/engines';

/** Builds `tag` FROM `base` with one file of its own and a label the prune is narrowed to. */
async function buildFrom(client: EngineClient, base: string, tag: string, label: string): Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), 'berth-prune-images-'));
  try {
    writeFileSync(join(folder, 'own.txt'), `${tag}\n`);
    writeFileSync(join(folder, 'Dockerfile'), [`FROM ${base}`, `LABEL berth.test.case=${label}`, 'COPY own.txt /own.txt', ''].join('\n'));
    await buildImage(client, { contextDir: folder, networkMode: 'none', tags: [tag], noCache: true });
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

async function imageExists(client: EngineClient, reference: string): Promise<boolean> {
  return client.images.inspect(reference).then(() => true, () => false);
}

for (const target of engineTargets(loadTestEngines())) {
  void describe(`prune unused images built one from another on ${target.name}`, () => {
    const suite = useEngineSuite({ host: target.host, skip: target.skip, name: `prune-images-${target.name}` });
    const made: string[] = [];
    suite.cleanup(async () => {
      for (const tag of made.reverse()) await suite.client.images.remove(tag, { force: true }).catch(() => undefined);
    });
    const parentAndChild = async (): Promise<{ parent: string; child: string; filters: Record<string, string[]> }> => {
      const label = uniqueName('case');
      const parent = `localhost/berth-prune-parent-${label.toLowerCase()}:1`;
      const child = `localhost/berth-prune-child-${label.toLowerCase()}:1`;
      made.push(parent, child);
      await buildFrom(suite.client, suite.engines.image, parent, label);
      await buildFrom(suite.client, parent, child, label);
      return { parent, child, filters: { label: [`berth.test.case=${label}`] } };
    };

    void it('removes an unused image and the unused image built from it, both as listed, none refused', { skip: target.skip }, async () => {
      const { parent, child, filters } = await parentAndChild();
      const plan = await planPrune(suite.client, ['unused-images'], filters);
      const listed = plan.parts.flatMap((part) => part.remove.map((item) => item.name)).sort();
      assert.deepEqual(listed, [child, parent].sort());
      const outcomes = await runPrune(suite.client, plan);
      assert.deepEqual(outcomes.flatMap((outcome) => outcome.refused ?? []), [], describeOutcome(outcomes));
      assert.equal(await imageExists(suite.client, parent), false, 'the parent image is still there');
      assert.equal(await imageExists(suite.client, child), false, 'the child image is still there');
    });

    void it('lists an unused image as kept while the image built from it stays in use, and removes nothing', { skip: target.skip }, async () => {
      const { parent, child, filters } = await parentAndChild();
      await suite.createContainer(['true'], { Image: child });
      const plan = await planPrune(suite.client, ['unused-images'], filters);
      assert.deepEqual(plan.parts.flatMap((part) => part.remove.map((item) => item.name)), []);
      assert.deepEqual(plan.parts.flatMap((part) => part.kept.map((item) => item.name)).sort(), [child, parent].sort());
      assert.equal(await imageExists(suite.client, parent), true);
    });
  });
}
