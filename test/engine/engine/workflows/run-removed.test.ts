// A run whose container is removed with force by someone else while a stop is under way. dockerd answers the run's
// exit wait with the kill's status; Podman never answers it, and a run that trusted the wait alone hung for ever
// (it hung a CI run's engine stage). The run must end either way: with the status, or with a clear error.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isEngineError, runContainer } from '../../../../src/engine';
import { useEngineSuite } from '../../../support/engineSuite';
import { engineTargets, loadTestEngines, uniqueName } from '../../../support/engines';
import { failureOf } from '../../../support/assertions';
import { expectedMessage } from '../bad-input-cases';
import { sleep } from '../../../support/wait';

for (const target of engineTargets(loadTestEngines())) {
  void describe(`a run whose container is removed with force mid-stop (${target.name})`, { timeout: 120_000 }, () => {
    const suite = useEngineSuite({ host: target.host, skip: target.skip, name: `run-removed-${target.name}` });

    void it('ends: with the kill status on dockerd, with "removed before the engine reported its exit status" on Podman', { skip: target.skip }, async () => {
      const name = uniqueName('run-removed');
      const stop = new AbortController();
      let createdId = '';
      let ready!: () => void;
      const started = new Promise<void>((resolve) => (ready = resolve));
      const run = runContainer(suite.client, {
        image: suite.engines.image,
        cmd: ['sh', '-c', 'trap "" TERM; echo ready; while true; do sleep 0.1; done'],
        name,
        autoRemove: true,
        networkMode: 'none',
        labels: { ...suite.labels },
        interrupt: stop.signal,
        onStarted: (id) => (createdId = id),
        onOutput: (chunk) => {
          if (chunk.data.toString('utf8').includes('ready')) ready();
        },
      });
      await started;
      stop.abort();
      // The stop request is on its way (the shell ignores SIGTERM, so it lasts the stop timeout); remove meanwhile.
      for (let attempt = 0; attempt < 50; attempt++) {
        const { State } = await suite.client.containers.inspect(name);
        if (!State.Running || attempt > 5) break;
        await sleep(100);
      }
      await suite.client.containers.remove(name, { force: true });
      if (target.name === 'podman') {
        const error = await failureOf(run);
        assert.ok(isEngineError(error, 'not-found'), `expected a not-found EngineError, got ${String(error)}`);
        assert.equal(error.message, expectedMessage('run-container-removed', { id: createdId.slice(0, 12) }));
      } else {
        const result = await run;
        assert.deepEqual([result.exitCode, result.interrupted], [137, true]);
      }
      assert.deepEqual(await suite.client.containers.list({ all: true, filters: { name: [name] } }), []);
    });
  });
}
