// A burst of 1,000 concurrent inspects, as a refresh of a large explorer can issue, completes without a single
// error on the real private dockerd. The number of connections the burst opened is reported, not asserted.
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { describe, it } from 'node:test';
import { useEngineSuite } from '../../../support/engineSuite';
import { uniqueName } from '../../../support/engines';
import { activeResources, recordResilienceFigures } from '../../../support/resilience';

const BURST = 1_000;
const suite = useEngineSuite({ name: 'resilience-burst' });
const { client, engines } = suite;

void describe('burst', { timeout: 180_000 }, () => {
  void it(`${BURST} concurrent inspects of containers and images all succeed`, async () => {
    const names = [uniqueName('burst-a'), uniqueName('burst-b')];
    const created: string[] = [];
    for (const name of names) created.push(await suite.createContainer(['true'], {}, name));
    let peakSockets = 0;
    const sample = setInterval(() => {
      peakSockets = Math.max(peakSockets, activeResources()['PipeWrap'] ?? 0);
    }, 5);
    const began = performance.now();
    const results = await Promise.allSettled(
      Array.from({ length: BURST }, (_, index) => {
        // By id, by name and the image: the three lookups a refresh makes.
        if (index % 3 === 0) return client.images.inspect(engines.image).then((image) => image.Id);
        const which = index % 2;
        return client.containers.inspect(index % 3 === 1 ? (created[which] as string) : (names[which] as string)).then((container) => container.Id);
      }),
    );
    const elapsed = performance.now() - began;
    clearInterval(sample);
    const failures = results.flatMap((result) => (result.status === 'rejected' ? [String(result.reason)] : []));
    assert.deepEqual(failures.slice(0, 5), [], `${failures.length} of ${BURST} inspects failed`);
    const ids = new Set(results.map((result) => (result.status === 'fulfilled' ? result.value : '')));
    assert.equal(ids.size, 3);
    for (const id of created) assert.ok(ids.has(id));
    recordResilienceFigures('burst', { inspects: BURST, failed: failures.length, elapsedMs: Math.round(elapsed), peakUnixSockets: peakSockets });
  });
});
