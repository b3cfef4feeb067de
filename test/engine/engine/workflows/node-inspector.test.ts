// Finding a Node.js inspector in a container (issue 37, Attach Node.js Debugger), on the real private dockerd and
// Podman with the Node.js test image: node processes read from `top` with the port their --inspect flags name (the
// parsing itself: test/unit/engine/workflows/nodeInspector.test.ts), the
// inspector answering through a forward, SIGUSR1 opening it in the main process and in another one, and the refusals
// for a container that is not running or runs no node.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  findNodeProcesses,
  forwardPorts,
  signalInspector,
  waitForInspector,
  type NodeProcess,
} from '../../../../src/engine';
import { engineTargets, loadTestEngines } from '../../../support/engines';
import { useEngineSuite } from '../../../support/engineSuite';
import { ensureNodeImage } from '../../../support/nodeImage';
import { eventually } from '../../cli/support';
import { assertCase } from '../bad-input-support';

const engines = loadTestEngines();
const IDLE = 'setInterval(() => {}, 1000)';

/** The node processes once `top` shows COUNT of them (a shell starts its children a moment after it starts). */
async function nodeProcesses(suite: ReturnType<typeof useEngineSuite>, id: string, count: number): Promise<NodeProcess[]> {
  let found: NodeProcess[] = [];
  await eventually(`${count} node processes in top`, async () => {
    found = await findNodeProcesses(suite.client, id).catch(() => []);
    return found.length === count;
  });
  return found;
}

/** Forwards PORT of the container and resolves what its inspector's /json/version says, then closes the forward. */
async function inspectorThroughForward(suite: ReturnType<typeof useEngineSuite>, id: string, port: number): Promise<string> {
  const session = await forwardPorts(suite.client, id, [{ localPort: 0, containerPort: port }]);
  try {
    const forward = session.forwards[0];
    assert.ok(forward);
    return await waitForInspector(forward.localPort);
  } finally {
    await session.close();
  }
}

for (const target of engineTargets(engines)) {
  void describe(`node inspector on ${target.name}`, { skip: target.skip }, () => {
    const suite = useEngineSuite({ host: target.host, name: `node-inspector-${target.name}`, skip: target.skip });
    let image = '';
    const nodeImage = async (): Promise<string> => (image ||= await ensureNodeImage(suite.client));

    void it('finds the node process started with --inspect among others, and its inspector answers through a forward', async () => {
      const Image = await nodeImage();
      const id = await suite.createContainer(['sh', '-c', `node -e '${IDLE}' & exec node --inspect=127.0.0.1:9230 -e '${IDLE}'`], { Image });
      await suite.client.containers.start(id);
      const found = await nodeProcesses(suite, id, 2);
      assert.deepEqual(found.map((each) => [each.command, each.inspectorPort]).sort(), [
        [`node --inspect=127.0.0.1:9230 -e ${IDLE}`, 9230],
        [`node -e ${IDLE}`, undefined],
      ]);
      assert.match(await inspectorThroughForward(suite, id, 9230), /^node\.js\/v\d+/);
    });

    void it("SIGUSR1 opens the inspector of the container's main process", async () => {
      const Image = await nodeImage();
      const id = await suite.createContainer(['node', '-e', IDLE], { Image });
      await suite.client.containers.start(id);
      const [main] = await nodeProcesses(suite, id, 1);
      assert.ok(main);
      assert.equal(main.inspectorPort, undefined);
      await signalInspector(suite.client, id, main);
      assert.match(await inspectorThroughForward(suite, id, 9229), /^node\.js\/v\d+/);
    });

    void it('SIGUSR1 opens the inspector of a node process that is not the main one', async () => {
      const Image = await nodeImage();
      const id = await suite.createContainer(['sh', '-c', `node -e '${IDLE}' & wait`], { Image });
      await suite.client.containers.start(id);
      const [child] = await nodeProcesses(suite, id, 1);
      assert.ok(child);
      await signalInspector(suite.client, id, child);
      assert.match(await inspectorThroughForward(suite, id, 9229), /^node\.js\/v\d+/);
    });

    void it('refuses a container that is not running, and one that runs no node', async () => {
      const stopped = await suite.createContainer(['sleep', '600']);
      const name = (await suite.client.containers.inspect(stopped)).Name.replace(/^\//, '');
      await assertCase('debug-not-running', () => findNodeProcesses(suite.client, stopped), { name });
      await suite.client.containers.start(stopped);
      await assertCase('debug-no-node', () => findNodeProcesses(suite.client, stopped), { name });
    });
  });
}
