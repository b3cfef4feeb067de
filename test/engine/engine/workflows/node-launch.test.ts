// Launching a Node.js app for the berth-node debug configuration (issue 37), on the real private dockerd and Podman
// with the Node.js test image: the workspace folder is copied to remoteRoot (what .dockerignore excludes stays out,
// the folder is made when the image lacks it), the app runs with its inspector on 127.0.0.1 inside a `none` network
// container and answers through a forward; an app that exits at once is told apart from one still starting; a
// missing Dockerfile and a port out of range are refused with their rows.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { execCapture } from '../../../../src/engine/files';
import { checkNodeLaunchSpec, exitedBeforeInspector, forwardPorts, launchNodeApp, locateLaunchDockerfile, NODE_LAUNCH_LABEL, waitForInspector } from '../../../../src/engine';
import { engineTargets, loadTestEngines } from '../../../support/engines';
import { useEngineSuite } from '../../../support/engineSuite';
import { ensureNodeImage } from '../../../support/nodeImage';
import { eventually } from '../../../support/wait';
import { assertCase } from '../bad-input-support';

const engines = loadTestEngines();
const APP = "console.log('ready'); setInterval(() => {}, 1000);\n";

for (const target of engineTargets(engines)) {
  void describe(`berth-node launch on ${target.name}`, { skip: target.skip }, () => {
    const suite = useEngineSuite({ host: target.host, name: `node-launch-${target.name}`, skip: target.skip });
    let image = '';
    let folder = '';
    before(async () => {
      if (target.skip) return;
      image = await ensureNodeImage(suite.client);
      folder = await mkdtemp(join(tmpdir(), 'berth-launch-'));
      await writeFile(join(folder, 'app.js'), APP);
      await writeFile(join(folder, 'secret.env'), 'TOKEN=1\n');
      await writeFile(join(folder, '.dockerignore'), 'secret.env\n');
    });
    after(async () => {
      if (folder !== '') await rm(folder, { recursive: true, force: true });
    });

    void it('copies the workspace into a new remoteRoot, starts node with the inspector inside, and it answers through a forward', async () => {
      const launched = await launchNodeApp(suite.client, {
        image,
        program: 'app.js',
        remoteRoot: '/srv/work',
        inspectorPort: 9231,
        networkMode: 'none',
        labels: suite.labels,
        workspaceFolder: folder,
        env: { GREETING: 'hello' },
      });
      const inspect = await suite.client.containers.inspect(launched.id);
      assert.deepEqual(
        [inspect.Config.Cmd, inspect.Config.WorkingDir, inspect.HostConfig.NetworkMode, inspect.Config.Labels?.[NODE_LAUNCH_LABEL]],
        [['node', '--inspect=127.0.0.1:9231', 'app.js'], '/srv/work', 'none', 'berth-node'],
      );
      const listing = await execCapture(suite.client, launched.id, ['ls', '-a', '/srv/work']);
      assert.deepEqual(listing.stdout.toString('utf8').split(/\s+/).filter((name) => name !== '' && name !== '.' && name !== '..').sort(), ['.dockerignore', 'app.js']);
      const session = await forwardPorts(suite.client, launched.id, [{ localPort: 0, containerPort: 9231 }]);
      try {
        const forward = session.forwards[0];
        assert.ok(forward);
        assert.match(await waitForInspector(forward.localPort, { attempts: 200 }), /^node\.js\/v\d+/);
      } finally {
        await session.close();
      }
      assert.equal(await exitedBeforeInspector(suite.client, launched.id), undefined, 'a running app is not reported as exited');
    });

    void it('says the app exited before its inspector answered, with its status, and removes the container when the start fails', async () => {
      const launched = await launchNodeApp(suite.client, { image, program: 'missing.js', remoteRoot: '/app', inspectorPort: 9229, networkMode: 'none', labels: suite.labels });
      const told = await eventually('the app to exit', () => exitedBeforeInspector(suite.client, launched.id), { timeoutMs: 60_000 });
      await assertCase('debug-launch-exited', () => Promise.reject(told), { status: '1' });

      const before = await suite.client.containers.list({ all: true, filters: suite.filters });
      await assert.rejects(
        launchNodeApp(suite.client, { image, program: 'app.js', remoteRoot: '/app', inspectorPort: 9229, networkMode: 'none', labels: suite.labels, workspaceFolder: join(folder, 'no-such-folder') }),
      );
      const afterwards = await suite.client.containers.list({ all: true, filters: suite.filters });
      assert.equal(afterwards.length, before.length, 'the container of a failed launch is removed');
    });

    void it('refuses a missing Dockerfile and an inspector port out of range with their rows', async () => {
      await assertCase('debug-launch-no-dockerfile', () => locateLaunchDockerfile(folder, 'docker/Dockerfile.dev'), { path: 'docker/Dockerfile.dev', folder });
      assert.equal(await locateLaunchDockerfile(folder, 'app.js'), join(folder, 'app.js'));
      await assertCase('debug-launch-port', () => Promise.resolve().then(() => checkNodeLaunchSpec({ program: 'app.js', remoteRoot: '/app', inspectorPort: 70000 })), { port: '70000' });
    });
  });
}
