// Which compose implementation runs (detection order, the setting), the argument arrays, and the environment that
// points the child at the explorer's engine. The probe is the one seam: it answers as an installed program would.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  COMPOSE_IMPLEMENTATIONS,
  ComposeNotFoundError,
  applyEnvironment,
  composeArguments,
  composeEnvironment,
  detectComposeImplementation,
  parseHost,
  type ComposeImplementation,
  type ProgramProbe,
} from '../../../../src/engine';

function installed(...programs: string[]): { probe: ProgramProbe; asked: string[] } {
  const asked: string[] = [];
  const probe: ProgramProbe = (command, args) => {
    const line = [command, ...args].join(' ');
    asked.push(line);
    return Promise.resolve(programs.some((program) => line.startsWith(program)));
  };
  return { probe, asked };
}

const byId = (id: string): ComposeImplementation => {
  const found = COMPOSE_IMPLEMENTATIONS.find((candidate) => candidate.id === id);
  assert.ok(found);
  return found;
};

describe('compose implementation detection', () => {
  it('tries docker compose, docker-compose, podman compose, podman-compose in that order', async () => {
    const all = installed('docker compose', 'docker-compose', 'podman compose', 'podman-compose');
    assert.equal((await detectComposeImplementation('auto', all.probe)).id, 'docker compose');
    const { probe, asked } = installed('podman-compose');
    assert.equal((await detectComposeImplementation(undefined, probe)).id, 'podman-compose');
    assert.deepEqual(asked, ['docker compose version', 'docker-compose version', 'podman compose version', 'podman-compose --version']);
    assert.equal((await detectComposeImplementation('', installed('docker-compose', 'podman-compose').probe)).id, 'docker-compose');
  });

  it('uses the one the setting names, and refuses it when it does not run rather than using another', async () => {
    assert.equal((await detectComposeImplementation('podman-compose', installed('docker compose', 'podman-compose').probe)).id, 'podman-compose');
    await assert.rejects(detectComposeImplementation('docker compose', installed('docker-compose').probe), (error: unknown) => error instanceof ComposeNotFoundError && error.message.includes('"docker compose version" did not run'));
    await assert.rejects(detectComposeImplementation('compose-x', installed('docker-compose').probe), (error: unknown) => error instanceof ComposeNotFoundError && error.message.includes('use one of: auto, docker compose'));
  });

  it('says what it searched and how to install one when none answers', async () => {
    await assert.rejects(detectComposeImplementation('auto', installed().probe), (error: unknown) => {
      assert.ok(error instanceof ComposeNotFoundError);
      assert.match(error.message, /^No Compose implementation found: tried "docker compose", "docker-compose", "podman compose", "podman-compose" on the PATH\. Install one/);
      assert.match(error.message, /apt-get install docker-compose/);
      return true;
    });
  });
});

describe('compose arguments', () => {
  const v2 = byId('docker compose');
  const v1 = byId('docker-compose');
  const podman = byId('podman-compose');

  it('builds an array: files, project, profiles, the command, then -- and the services', () => {
    assert.deepEqual(composeArguments(v2, { command: 'up', files: ['/p/a.yml', '/p/b b.yml'], services: ['web', '--rm'] }), ['compose', '-f', '/p/a.yml', '-f', '/p/b b.yml', 'up', '-d', '--', 'web', '--rm']);
    assert.deepEqual(composeArguments(v1, { command: 'up', files: ['/p/c.yml'], projectName: 'shop', profiles: ['debug', 'tools'] }), ['-f', '/p/c.yml', '-p', 'shop', '--profile', 'debug', '--profile', 'tools', 'up', '-d']);
    assert.deepEqual(composeArguments(v1, { command: 'restart', files: ['/c.yml'], services: ['db'] }), ['-f', '/c.yml', 'restart', '--', 'db']);
    assert.deepEqual(composeArguments(v2, { command: 'pull', files: ['/c.yml'] }), ['compose', '-f', '/c.yml', 'pull']);
    assert.deepEqual(composeArguments(v2, { command: 'build', files: ['/c.yml'], services: ['api'] }), ['compose', '-f', '/c.yml', 'build', '--', 'api']);
  });

  it('down removes the whole project, with -v when asked, and never takes services', () => {
    assert.deepEqual(composeArguments(v1, { command: 'down', files: ['/c.yml'], volumes: true, services: ['web'] }), ['-f', '/c.yml', 'down', '-v']);
    assert.deepEqual(composeArguments(v2, { command: 'down', files: ['/c.yml'], profiles: ['debug'] }), ['compose', '-f', '/c.yml', '--profile', 'debug', 'down']);
  });

  it('names the services of the profiles for podman-compose, which has no --profile', () => {
    assert.deepEqual(composeArguments(podman, { command: 'up', files: ['/c.yml'], profiles: ['debug'], servicesOfProfiles: ['db', 'web'] }), ['-f', '/c.yml', 'up', '-d', '--', 'db', 'web']);
    assert.deepEqual(composeArguments(podman, { command: 'up', files: ['/c.yml'], profiles: ['debug'], services: ['db'], servicesOfProfiles: ['db', 'web'] }), ['-f', '/c.yml', 'up', '-d', '--', 'db']);
  });
});

describe('compose environment', () => {
  const v1 = byId('docker-compose');

  it('a unix socket: DOCKER_HOST, and the inherited context and TLS variables cleared', () => {
    const change = composeEnvironment(v1, parseHost('unix:///tmp/x/docker.sock', {}));
    assert.deepEqual(change.set, { DOCKER_HOST: 'unix:///tmp/x/docker.sock' });
    const env = applyEnvironment({ PATH: '/bin', DOCKER_CONTEXT: 'prod', DOCKER_TLS_VERIFY: '1', DOCKER_HOST: 'tcp://elsewhere:2376' }, change);
    assert.deepEqual(env, { PATH: '/bin', DOCKER_HOST: 'unix:///tmp/x/docker.sock' });
  });

  it('a TLS engine: DOCKER_HOST, DOCKER_TLS_VERIFY and DOCKER_CERT_PATH', () => {
    const endpoint = { ...parseHost('tcp://10.0.0.5:2376', {}), tls: { verify: true, caFile: '/certs/ca.pem', certFile: '/certs/cert.pem', keyFile: '/certs/key.pem' } };
    assert.deepEqual(composeEnvironment(v1, endpoint).set, { DOCKER_HOST: 'tcp://10.0.0.5:2376', DOCKER_TLS_VERIFY: '1', DOCKER_CERT_PATH: '/certs' });
  });

  it('a docker context: DOCKER_CONTEXT, so its own TLS and ssh settings apply', () => {
    const endpoint = { ...parseHost('ssh://me@build', {}), source: 'config-context' as const, context: 'build' };
    const change = composeEnvironment(v1, endpoint);
    assert.deepEqual(change.set, { DOCKER_CONTEXT: 'build' });
    assert.ok(change.unset.includes('DOCKER_HOST'));
  });

  it('an ssh engine without a context: DOCKER_HOST as the CLI writes it', () => {
    assert.deepEqual(composeEnvironment(v1, parseHost('ssh://me@build:2222', {})).set, { DOCKER_HOST: 'ssh://me@build:2222' });
  });

  it('podman-compose: CONTAINER_HOST, which turns podman into the remote client of that socket', () => {
    const change = composeEnvironment(byId('podman-compose'), parseHost('unix:///run/p/podman.sock', {}));
    assert.deepEqual(change.set, { CONTAINER_HOST: 'unix:///run/p/podman.sock' });
  });
});
