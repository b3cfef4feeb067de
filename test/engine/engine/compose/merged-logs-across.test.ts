// The merger of several containers' logs across two engines (Show Logs on a selection spanning dockerd and Podman):
// each container is read on its own engine, and the lines come out in the engines' timestamp order.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mergeContainerLogs, mergedLogsSourcesAcross, type MergedLogLine } from '../../../../src/engine/compose';
import type { EngineClient } from '../../../../src/engine';
import { useEngineSuite } from '../../../support/engineSuite';
import { engineTargets, loadTestEngines } from '../../../support/engines';

const engines = loadTestEngines();
const podman = engineTargets(engines).find((target) => target.name === 'podman');

/** Each start prints `<tag>-<n>`, n counting the container's runs (kept in its own filesystem across restarts). */
function countingScript(tag: string): string[] {
  return ['sh', '-c', `n=$(cat /tmp/runs 2>/dev/null || echo 0); n=$((n+1)); echo $n > /tmp/runs; echo ${tag}-$n`];
}

async function runOnce(client: EngineClient, id: string): Promise<void> {
  await client.containers.start(id);
  await (await client.containers.wait(id, { condition: 'not-running' })).result;
}

void describe('merged logs across dockerd and Podman', () => {
  const docker = useEngineSuite({ name: 'merged-across-docker' });
  const other = useEngineSuite({ host: podman?.host, skip: podman?.skip, name: 'merged-across-podman' });

  void it('reads each container on its own engine and merges the lines by their stamps', { skip: podman?.skip }, async () => {
    const onDocker = await docker.createContainer(countingScript('d'));
    const onPodman = await other.createContainer(countingScript('p'));
    await runOnce(docker.client, onDocker);
    await runOnce(other.client, onPodman);
    await runOnce(docker.client, onDocker);

    const signal = new AbortController().signal;
    // The ids alone would be unknown on the other engine: each target carries its engine's client.
    const sources = await mergedLogsSourcesAcross([{ client: docker.client, id: onDocker }, { client: other.client, id: onPodman }], signal);
    const lines: MergedLogLine[] = [];
    await mergeContainerLogs(docker.client, sources, { follow: false, signal }, (batch) => {
      lines.push(...batch);
      return undefined;
    });
    assert.deepEqual(
      lines.map((line) => `${line.source}:${line.text}`).sort(),
      ['0:d-1', '0:d-2', '1:p-1'],
      'every line, each tagged with the container it came from',
    );
    for (const [index, line] of lines.entries()) {
      const previous = lines[index - 1];
      if (previous) assert.ok(previous.seconds < line.seconds || (previous.seconds === line.seconds && previous.nanos <= line.nanos), `in stamp order at line ${index}`);
    }
    // Within one container the runs keep their order.
    assert.deepEqual(lines.filter((line) => line.source === 0).map((line) => line.text), ['d-1', 'd-2']);
  });
});
