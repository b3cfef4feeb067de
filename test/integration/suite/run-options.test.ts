// Run in Background with run options (the options step's result, or a profile) in the real extension host: the
// engine holds the ports, env, mounts, workdir and restart policy; a bind mount whose host path does not exist is
// refused with its message and nothing is created. The test engines have no bridge: ports are configured, not forwarded.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { berthLogText, eventually, useConnectedSuite } from '../support/fixtures';

describe('Run with options', () => {
  const folder = mkdtempSync(join(tmpdir(), 'berth-it-run-options-'));
  const { engines, engine, client, containers } = useConnectedSuite(() => {
    rmSync(folder, { recursive: true, force: true });
    return Promise.resolve();
  });

  it('ports, env file, mounts, workdir and restart policy reach the engine', async () => {
    writeFileSync(join(folder, 'app.env'), 'FROM_FILE=yes\n');
    const result = await vscode.commands.executeCommand<{ id: string } | undefined>('berth.runInBackground', {
      image: engines.image,
      cmd: ['sleep', '30'],
      options: {
        ports: ['127.0.0.1:18093:80', '9000'],
        env: ['MODE=dev'],
        envFiles: [join(folder, 'app.env')],
        volumes: [`${folder}:/work:ro`],
        workdir: '/work',
        restart: 'on-failure:2',
        labels: { 'berth.test': '1' },
      },
    });
    // A refusal goes to the user and the log: show it when there is no container.
    const refusal = result?.id ? '' : (await berthLogText()).split('\n').filter((line) => /Running in background|failed/.test(line)).slice(-3).join('\n');
    assert.ok(result?.id, `the run returned no container id; the log says:\n${refusal}`);
    containers.track(result.id);
    const inspected = await client.containers.inspect(result.id);
    const host = inspected.HostConfig;
    // Podman drops the ports of a container without a network (the test engines have none), so the bindings are
    // checked on dockerd only; the other options are checked on both.
    if (engine.kind === 'docker') {
      assert.deepEqual(host.PortBindings, { '80/tcp': [{ HostIp: '127.0.0.1', HostPort: '18093' }], '9000/tcp': [{ HostIp: '', HostPort: '' }] });
    }
    assert.deepEqual(host.RestartPolicy, { Name: 'on-failure', MaximumRetryCount: 2 });
    assert.ok(inspected.Config.Env?.includes('MODE=dev') && inspected.Config.Env.includes('FROM_FILE=yes'), String(inspected.Config.Env));
    assert.equal((inspected.Config as Record<string, unknown>).WorkingDir, '/work');
    assert.ok(JSON.stringify(inspected['Mounts']).includes('/work'), 'the bind mount is there');
  });

  it('a bind mount of a host path that does not exist is refused, and nothing is created', async () => {
    const before = (await client.containers.list({ all: true })).length;
    const result = await vscode.commands.executeCommand<unknown>('berth.runInBackground', {
      image: engines.image,
      cmd: ['true'],
      options: { volumes: ['/no/such/dir:/x'] },
    });
    assert.equal(result, undefined);
    assert.equal((await client.containers.list({ all: true })).length, before);
    // A refusal with its own words, not a crash: the log holds the message the user was shown.
    await eventually('the refusal in the log', async () =>
      /Running in background failed: .*\/no\/such\/dir does not exist on this machine/.test(await berthLogText()) ? true : undefined);
  });
});
