// What every remote transport must do against the remote dockerd: ping, run a container and see its output,
// list it, read its logs back, follow a live log and cancel it. Shared by remote-tls and remote-ssh tests.
import assert from 'node:assert/strict';
import { EngineClient, EngineError, runContainer, type OutputChunk } from '../../../../src/engine';
import { cleanupLabel } from '../../../support/engines';
import { containerSpec } from '../../../support/containerSpec';


function text(chunks: readonly OutputChunk[], stream: 'stdout' | 'stderr'): string {
  return Buffer.concat(chunks.filter((chunk) => chunk.stream === stream).map((chunk) => chunk.data)).toString('utf8');
}

/** ping → run (exit status and both streams) → list → logs → followed logs cancelled; removes what it created. */
export async function exerciseEngine(client: EngineClient, image: string, marker: string): Promise<void> {
  const ping = await client.system.ping();
  assert.equal(ping.osType, 'linux');
  assert.match(ping.server ?? '', /^Docker\//);
  assert.match(await client.negotiatedVersion(), /^1\.\d+$/);

  const created: string[] = [];
  try {
    const seen: OutputChunk[] = [];
    const run = await runContainer(client, {
      image,
      cmd: ['sh', '-c', `echo out-${marker}; echo err-${marker} >&2; exit 3`],
      labels: { ...cleanupLabel },
      networkMode: 'none',
      onOutput: (chunk) => seen.push(chunk),
    });
    created.push(run.id);
    assert.equal(run.exitCode, 3);
    assert.equal(text(seen, 'stdout'), `out-${marker}\n`);
    assert.equal(text(seen, 'stderr'), `err-${marker}\n`);

    const listed = await client.containers.list({ all: true, filters: { id: [run.id] } });
    assert.deepEqual(
      listed.map((container) => [container.Id, container.State]),
      [[run.id, 'exited']],
    );

    const logs: OutputChunk[] = [];
    for await (const chunk of client.containers.logs(run.id, { stdout: true, stderr: true })) logs.push(chunk);
    assert.equal(text(logs, 'stdout'), `out-${marker}\n`);
    assert.equal(text(logs, 'stderr'), `err-${marker}\n`);

    // A live log over the remote transport, ended through its signal like the extension's Stop Following.
    const ticker = await client.containers.create(containerSpec(image, ['sh', '-c', 'i=0; while true; do i=$((i+1)); echo tick-$i; sleep 0.1; done']));
    created.push(ticker.Id);
    await client.containers.start(ticker.Id);
    const controller = new AbortController();
    let followed = '';
    const failure = await (async (): Promise<unknown> => {
      try {
        for await (const chunk of client.containers.logs(ticker.Id, { stdout: true, follow: true, signal: controller.signal })) {
          followed += chunk.data.toString('utf8');
          if (followed.includes('tick-3\n')) controller.abort();
        }
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    assert.ok(failure instanceof EngineError && failure.kind === 'cancelled', `expected a cancelled EngineError, got ${String(failure)}`);
    assert.match(followed, /^tick-1\ntick-2\ntick-3\n/);
  } finally {
    for (const id of created) await client.containers.remove(id, { force: true }).catch(() => undefined);
  }
}
