// Debugging Python in a container, in the real extension host (code-server), on the private dockerd and on Podman.
// VS Code's Python Debugger extension (ms-python.debugpy) is not installed here, and cannot be: so Attach Python
// Debugger and a berth-python launch must refuse with the bad-input row's words (and the install action for a
// user), before anything is started or forwarded, and leave no container or forward behind. That debugpy answers
// through a forward is proven by test/engine/engine/workflows/debugpy-server.test.ts; the Node.js path, which never
// needs this extension, by debug-node.test.ts in the same extension host.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { DEBUGPY_LAUNCH_LABEL, findDebugpyServers, waitForListening, type EngineClient } from '../../../src/engine';
import { expectedMessage } from '../../engine/engine/bad-input-cases';
import { ensurePythonImage } from '../../support/pythonImage';
import { berthLogText, eventually, useConnectedSuite, viewRows } from '../support/fixtures';

const PYTHON_DEBUGGER = 'ms-python.debugpy';
const IDLE_APP = 'import time\nwhile True:\n    time.sleep(1)\n';

async function launchContainers(client: EngineClient): Promise<string[]> {
  const found = await client.containers.list({ all: true, filters: { label: [`${DEBUGPY_LAUNCH_LABEL}=python`] } });
  return found.map((each) => each.Id).sort();
}

describe('Debug Python without the Python Debugger extension', function () {
  this.timeout(180_000);
  const { client, containers } = useConnectedSuite();
  let image = '';

  before(async () => {
    assert.equal(vscode.extensions.getExtension(PYTHON_DEBUGGER), undefined, `these cases are about a VS Code without ${PYTHON_DEBUGGER}`);
    image = await ensurePythonImage(client);
  });

  it('Attach Python Debugger refuses with the install advice, and forwards nothing', async () => {
    const made = await containers.create({ image, cmd: ['python3', '-m', 'debugpy', '--listen', '0.0.0.0:5678', '-c', IDLE_APP] });
    await eventually('debugpy to listen in the container', async () => ((await findDebugpyServers(client, made.id).catch(() => [])).length === 1 ? true : undefined), 60_000);
    await waitForListening(client, made.id, 5678);
    await assert.rejects(Promise.resolve(vscode.commands.executeCommand('berth.attachPythonDebugger', made.id)), (error: Error) => {
      assert.equal(error.message, expectedMessage('debug-python-extension-missing'));
      return true;
    });
    const rows = await viewRows('containers', [made.name]);
    assert.deepEqual(rows.filter((row) => row.label === 'Forwarded'), [], 'no forward was started');
    assert.equal((await client.containers.inspect(made.id)).State.Running, true, 'the app keeps running');
    await eventually('the refusal in the log', async () => (/Attaching the Python debugger: ms-python\.debugpy is not installed/.test(await berthLogText()) ? true : undefined));
  });

  it('a berth-python launch refuses before it starts a container, offering to install the extension', async () => {
    const before = await launchContainers(client);
    const started = await vscode.debug.startDebugging(undefined, {
      type: 'berth-python',
      request: 'launch',
      name: 'berth-python without the Python Debugger',
      image,
      program: 'app.py',
      mountWorkspace: false,
    });
    assert.equal(started, false, 'VS Code did not start a debug session');
    const refusal = `Starting the Python app for debugging failed: ${expectedMessage('debug-python-extension-missing')}`;
    await eventually('the refusal and the offer in the log', async () => {
      const log = await berthLogText();
      return log.includes(refusal) && /Starting the Python app for debugging: ms-python\.debugpy is not installed; offered to install it/.test(log) ? true : undefined;
    });
    const after = await launchContainers(client);
    for (const id of after) containers.track(id);
    assert.deepEqual(after.filter((id) => !before.includes(id)), [], 'no container was left behind');
    assert.equal(vscode.debug.activeDebugSession, undefined, 'no debug session runs');
  });
});
