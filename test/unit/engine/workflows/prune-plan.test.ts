// A prune's plan lists each object in exactly one list: a container listing read during a start can name one
// container twice (once exited, once running); the plan keeps it, never lists it under both, and the removal waits
// for no image that is not planned.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { eachObjectOnce, planPrune, type ContainerSummary, type DiskUsage, type EngineClient } from '../../../../src/engine';

function container(id: string, state: string, name = id): ContainerSummary {
  return { Id: id, Names: [`/${name}`], State: state, Status: '', Image: 'busybox', ImageID: 'sha256:img', Command: 'sh', Created: 1, Labels: {}, Mounts: [] } as unknown as ContainerSummary;
}

function clientListing(containers: ContainerSummary[]): EngineClient {
  const usage = {} as DiskUsage;
  return { system: { df: () => Promise.resolve(usage) }, containers: { list: () => Promise.resolve(containers) } } as unknown as EngineClient;
}

const ids = (items: ReadonlyArray<{ id: string }>): string[] => items.map((item) => item.id);

void describe('the prune plan: each object in one list', () => {
  void it('a container listed twice, exited and running, is kept and not removed; the others are planned as read', async () => {
    const listing = [container('a', 'exited'), container('race', 'exited'), container('b', 'running'), container('race', 'running')];
    const plan = await planPrune(clientListing(listing), ['containers']);
    const part = plan.parts[0];
    assert.ok(part);
    assert.deepEqual(ids(part.remove), ['a']);
    assert.deepEqual(ids(part.kept), ['b', 'race']);
  });

  void it('a container listed twice in the same state is listed once', async () => {
    const plan = await planPrune(clientListing([container('twice', 'exited'), container('twice', 'exited')]), ['containers']);
    assert.deepEqual(ids(plan.parts[0]?.remove ?? []), ['twice']);
    assert.deepEqual(ids(plan.parts[0]?.kept ?? []), []);
  });

  void it('an image that is also kept leaves the removal, and no planned image waits for it', () => {
    const part = eachObjectOnce({
      kind: 'unused-images',
      remove: [
        { name: 'base', id: 'sha256:base', removeAfter: ['sha256:child', 'sha256:top'] },
        { name: 'child', id: 'sha256:child', removeAfter: [] },
        { name: 'top', id: 'sha256:top', removeAfter: [] },
      ],
      kept: [{ name: 'top', id: 'sha256:top' }],
    });
    assert.deepEqual(ids(part.remove), ['sha256:base', 'sha256:child']);
    assert.deepEqual(part.remove[0]?.removeAfter, ['sha256:child']);
    assert.deepEqual(ids(part.kept), ['sha256:top']);
  });
});
