/**
 * What a failing berth prints (one `berth: ...` line, no stack trace, the right exit status), and how it finds the
 * engine: --host, DOCKER_HOST, DOCKER_CONTEXT with a context store in DOCKER_CONFIG.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createCliHarness, type CliHarness } from './support';

const UNREACHABLE =
  'berth: Cannot reach the engine at unix:///nonexistent.sock: there is no socket at that path. Start the engine (Docker or Podman), or point DOCKER_HOST (or --host, or the berth.engine.host setting) at a running one\n';

void describe('berth failures and engine selection', () => {
  let harness: CliHarness;
  before(async () => {
    harness = await createCliHarness('errors');
  });
  after(async () => {
    await harness.dispose();
  });

  void it('no daemon at all: one line naming the endpoint and what to do, exit 1', async () => {
    for (const args of [['ps'], ['version'], ['logs', 'x'], ['images', '--json']]) {
      const result = await harness.berth(['--host', 'unix:///nonexistent.sock', ...args], { noHost: true });
      assert.deepEqual([result.code, result.stdout, result.stderr], [1, '', UNREACHABLE], args.join(' '));
    }
  });

  void it('run against no daemon exits 125, as docker run does for its own failures', async () => {
    const result = await harness.berth(['--host', 'unix:///nonexistent.sock', 'run', '--network', 'none', 'busybox'], { noHost: true });
    assert.deepEqual([result.code, result.stderr], [125, UNREACHABLE]);
  });

  void it('an unknown container: one line with the engine\'s message', async () => {
    for (const args of [['logs', 'no-such-container-z'], ['wait', 'no-such-container-z']]) {
      const result = await harness.berth(args);
      assert.deepEqual(
        [result.code, result.stdout, result.stderr],
        [1, '', 'berth: No such container: no-such-container-z. Check the container id or name; the container may have been removed\n'],
        args.join(' '),
      );
    }
  });

  void it('usage mistakes exit 125 with a specific message and print nothing on stdout', async () => {
    const cases: Array<[string[], string]> = [
      [['frobnicate'], "berth: 'frobnicate' is not a berth command. See 'berth help'.\n"],
      [['ps', '--bogus'], "berth: unknown flag: --bogus. See 'berth ps --help'.\n"],
      [['stop', '-t', 'soon', 'x'], 'berth: invalid value "soon" for --time: expected a whole number of seconds (-1 waits without limit).\n'],
    ];
    for (const [args, stderr] of cases) {
      const result = await harness.berth(args);
      assert.deepEqual([result.code, result.stdout, result.stderr], [125, '', stderr], args.join(' '));
    }
  });

  void it('help, --help and per-command help print usage on stdout and exit 0', async () => {
    const overview = await harness.berth(['--help'], { noHost: true });
    assert.equal(overview.code, 0);
    assert.match(overview.stdout, /^Usage: {2}berth \[OPTIONS\] COMMAND\n/);
    assert.match(overview.stdout, /^ {2}stop-all +Stop every running, paused or restarting container/m);
    const logs = await harness.berth(['help', 'logs'], { noHost: true });
    assert.match(logs.stdout, /^Usage: {2}berth logs \[OPTIONS\] CONTAINER \[CONTAINER\.\.\.\]\n/);
    const run = await harness.berth(['run', '--help'], { noHost: true });
    assert.match(run.stdout, /--network MODE/);
  });

  void it('honours DOCKER_HOST when --host is not given', async () => {
    const good = await harness.berth(['version'], { noHost: true, env: { DOCKER_HOST: harness.engines.dockerHost } });
    assert.equal(good.code, 0, good.stderr);
    assert.match(good.stdout, new RegExp(`^Endpoint: +${harness.engines.dockerHost}$`, 'm'));
    const bad = await harness.berth(['ps'], { noHost: true, env: { DOCKER_HOST: 'unix:///nonexistent.sock' } });
    assert.deepEqual([bad.code, bad.stderr], [1, UNREACHABLE]);
  });

  void it('--host wins over DOCKER_HOST', async () => {
    const result = await harness.berth(['--host', harness.engines.dockerHost, 'version'], { noHost: true, env: { DOCKER_HOST: 'unix:///nonexistent.sock' } });
    assert.equal(result.code, 0, result.stderr);
  });

  void it('honours DOCKER_CONTEXT with the context store under DOCKER_CONFIG', async () => {
    const contextName = 'berth-cli-test';
    const config = harness.dockerConfig({});
    const meta = join(config, 'contexts', 'meta', createHash('sha256').update(contextName).digest('hex'));
    mkdirSync(meta, { recursive: true });
    writeFileSync(join(meta, 'meta.json'), JSON.stringify({ Name: contextName, Metadata: {}, Endpoints: { docker: { Host: harness.engines.dockerHost, SkipTLSVerify: false } } }));
    const result = await harness.berth(['version'], { noHost: true, env: { DOCKER_CONFIG: config, DOCKER_CONTEXT: contextName } });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, new RegExp(`^Endpoint: +${harness.engines.dockerHost}$`, 'm'));
    const missing = await harness.berth(['ps'], { noHost: true, env: { DOCKER_CONFIG: config, DOCKER_CONTEXT: 'nope' } });
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /^berth: [^\n]*nope[^\n]*\n$/);
  });
});
