// Debug Service… in the real extension host, on the private dockerd (podman-compose 1.0.3 cannot run a
// network_mode: none service): a Compose project of the Node.js test image whose `api` service runs node with the
// inspector on and whose `idle` service runs no node. Debug Service on the project attaches VS Code's JavaScript
// debugger to the api container through a forward; ending the session ends the forward. A service that is not
// running, and one without node, are refused with their clear messages.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { composeFixture, type ComposeFixture } from '../../support/composeProject';
import { expectedMessage } from '../../engine/engine/bad-input-cases';
import { ensureNodeImage } from '../../support/nodeImage';
import { AttachedSessions, detach } from '../support/debugSessions';
import { listening } from '../../support/loopbackPort';
import { eventually, skipUnlessDocker, uniqueName, useConnectedSuite, viewShows } from '../support/fixtures';

interface AttachSummary {
  container: string;
  containerPort: number;
  signalled: boolean;
  localPort: number;
  token: string;
}

describe('Debug Service (Compose)', function () {
  this.timeout(240_000);
  const { engine, client } = useConnectedSuite();
  let fixture: ComposeFixture | undefined;
  const attached = new AttachedSessions();

  before(async function () {
    skipUnlessDocker(this, 'podman-compose 1.0.3 cannot run a network_mode: none service (it always adds its own network)');
    const image = await ensureNodeImage(client);
    const project = uniqueName('itdbg').toLowerCase().replace(/[^a-z0-9]/g, '');
    fixture = await composeFixture(engine.host, image, project, {
      api: { command: ['node', '--inspect=127.0.0.1:9229', '-e', 'setInterval(() => {}, 1000)'] },
      idle: { command: ['sleep', '600'] },
    });
    await fixture.compose(['up', '-d']);
    await viewShows('containers', [], `the group row of ${project}`, (rows) => rows.find((row) => row.label === project && row.description === '2/2 running'));
  });
  after(async () => {
    await attached.detachAll();
    attached.dispose();
    await fixture?.dispose();
  });

  it('attaches to the service started with the inspector on; ending the session ends the forward', async () => {
    const project = fixture?.project ?? '';
    const summary = await eventually(
      'Debug Service',
      async () => await vscode.commands.executeCommand<AttachSummary | undefined>('berth.compose.debugService', { project }, { service: 'api', remoteRoot: '/app' }),
      60_000,
    );
    assert.deepEqual([summary.container, summary.containerPort, summary.signalled], [`${project}_api_1`, 9229, false]);
    assert.ok(await listening(summary.localPort), 'the inspector forward listens');
    const root = await eventually('the attached session', () => attached.of(summary.token), 30_000);
    assert.ok(attached.targetsOf(root).length > 0, 'the command returns once the debugger has reached the node process');
    await detach(root);
    await eventually('the inspector forward to end', async () => ((await listening(summary.localPort)) ? undefined : true), 30_000);
  });

  it('refuses a service that is not running and one that runs no node', async () => {
    const project = fixture?.project ?? '';
    await assert.rejects(Promise.resolve(vscode.commands.executeCommand('berth.compose.debugService', { project }, { service: 'web' })), (error: Error) => {
      assert.equal(error.message, expectedMessage('debug-service-not-running', { service: 'web', project, services: 'api, idle' }));
      return true;
    });
    await assert.rejects(Promise.resolve(vscode.commands.executeCommand('berth.compose.debugService', { project }, { service: 'idle' })), (error: Error) => {
      assert.equal(error.message, expectedMessage('debug-no-node', { name: `${project}_idle_1` }));
      return true;
    });
  });
});
