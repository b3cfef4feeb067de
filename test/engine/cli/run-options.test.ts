/**
 * `berth run`'s run options (-p, -v, --env-file, -w, --entrypoint, -u, --restart) against `docker create` with the
 * same flags on the same dockerd: the engine holds the same configuration. The test engine has no bridge, so a
 * published port is configured but not forwarded; what is compared is the configuration the engine was given.
 * Each kind of bad value is refused before anything is created, with its own message.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createCliHarness, type CliHarness } from './support';
import { scratchFolder } from '../build/support';
import { expectedMessage } from '../engine/bad-input-cases';
import { isEngineError, resolveRunOptions } from '../../../src/engine';

function dockerCreate(host: string, args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('docker', ['create', ...args], { env: { PATH: process.env.PATH, DOCKER_HOST: host }, timeout: 60_000 }, (error, stdout, stderr) =>
      error ? reject(new Error(`docker create failed: ${stderr}`)) : resolve(stdout.trim()),
    );
  });
}

void describe('berth run options compared with docker create', () => {
  let harness: CliHarness;
  const folder = scratchFolder('run-options');
  before(async () => {
    harness = await createCliHarness('run-options');
    mkdirSync(join(folder.path, 'src'));
    writeFileSync(join(folder.path, 'app.env'), 'FROM_FILE=1\n# a comment\nSPACED=two words\n');
  });
  after(async () => {
    await harness.dispose();
    folder.dispose();
  });

  void it('ports, mounts, env file, workdir, entrypoint, user and restart reach the engine as docker sends them', async () => {
    const flags = [
      '--network', 'none',
      '-p', '127.0.0.1:18081:80/tcp', '-p', '9090', '-p', '18082:53/udp',
      '-v', `${join(folder.path, 'src')}:/src:ro`, '-v', 'berth-run-options-volume:/data', '-v', '/anonymous',
      '--env-file', join(folder.path, 'app.env'), '-e', 'EXTRA=yes',
      '-w', '/src', '--entrypoint', '/bin/sh', '-u', '1000:1000', '--restart', 'on-failure:3',
      ...harness.labelArgs,
    ];
    const berth = await harness.berth(['run', '-d', ...flags, harness.engines.image, '-c', 'sleep 30']);
    assert.equal(berth.code, 0, berth.stderr);
    const dockerId = await dockerCreate(harness.engines.dockerHost, [...flags, harness.engines.image, '-c', 'sleep 30']);
    const ours = await harness.client.containers.inspect(berth.stdout.trim());
    const theirs = await harness.client.containers.inspect(dockerId);
    await harness.client.containers.remove(dockerId, { force: true, volumes: true });
    const pick = (inspected: typeof ours): unknown => {
      const host = inspected.HostConfig;
      const config = inspected.Config as Record<string, unknown>;
      const fields = { host: ['PortBindings', 'Binds', 'RestartPolicy'], config: ['ExposedPorts', 'Volumes', 'Env', 'WorkingDir', 'User', 'Entrypoint'] };
      // The docker CLI keeps -v values in a map, so its Binds come in no fixed order: compare them sorted.
      const binds = [...((host.Binds as string[] | null) ?? [])].sort();
      return [binds, ...fields.host.map((key) => (key === 'Binds' ? undefined : host[key])), ...fields.config.map((key) => config[key])];
    };
    assert.deepEqual(pick(ours), pick(theirs));
    assert.deepEqual((ours.HostConfig).PortBindings, {
      '80/tcp': [{ HostIp: '127.0.0.1', HostPort: '18081' }],
      '9090/tcp': [{ HostIp: '', HostPort: '' }],
      '53/udp': [{ HostIp: '', HostPort: '18082' }],
    });
    assert.ok(ours.Config.Env?.includes('SPACED=two words'));
    await harness.client.containers.remove(berth.stdout.trim(), { force: true });
    await harness.client.volumes.remove('berth-run-options-volume').catch(() => undefined);
  });

  void it('each kind of bad option is refused before anything is created, with its own message', async () => {
    const taken: Server = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const takenPort = (taken.address() as { port: number }).port;
    try {
      const cases: Array<[string[], string]> = [
        [['-p', '70000:80'], expectedMessage('run-port-out-of-range')],
        [['-p', `127.0.0.1:${takenPort}:80`], expectedMessage('run-port-taken', { port: String(takenPort) })],
        [['-v', '/no/such/dir:/x'], expectedMessage('run-bind-missing')],
        [['-w', 'relative'], expectedMessage('run-workdir-relative')],
        [['--restart', 'sometimes'], expectedMessage('run-restart-invalid')],
        [['--rm', '--restart', 'always'], expectedMessage('run-restart-with-rm')],
      ];
      const before = (await harness.client.containers.list({ all: true, filters: { label: [harness.labelFilter] } })).length;
      for (const [flags, message] of cases) {
        const result = await harness.berth(['run', '--network', 'none', ...harness.labelArgs, ...flags, harness.engines.image, 'true']);
        assert.equal(result.stderr, `berth: ${message}\n`);
        assert.equal(result.code, 125);
      }
      assert.equal((await harness.client.containers.list({ all: true, filters: { label: [harness.labelFilter] } })).length, before);
    } finally {
      taken.close();
    }
  });

  // Node 20 itself reads `--env-file` anywhere on its command line and exits 9 when the file is missing, before berth
  // runs; so the unreadable env file is checked here, through the code `berth run` and the options step share.
  void it('an env file that cannot be read is refused with its path', async () => {
    const missing = join(folder.path, 'missing.env');
    await assert.rejects(
      resolveRunOptions({ envFiles: [missing] }, { cwd: folder.path, environment: {}, engineIsLocal: true }),
      (error: unknown) => isEngineError(error, 'bad-request') && error.message === expectedMessage('run-env-file-unreadable', { path: missing }),
    );
  });
});
