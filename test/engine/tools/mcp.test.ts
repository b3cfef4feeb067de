// `berth mcp` against the real private dockerd and Podman, driven by the MCP SDK's own client over stdio: the tools it
// lists, every read tool on a real container, act tools refused without --allow-write and working with it, and bad
// input answered as an error result (never a crash, never a hang).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { AGENT_TOOLS } from '../../../src/tools';
import { writeDockerConfig } from '../../support/dockerHome';
import { engineTargets, loadTestEngines, uniqueName } from '../../support/engines';
import { useEngineSuite } from '../../support/engineSuite';
import { expectedMessage } from '../engine/bad-input-cases';
import { sleep } from '../../support/wait';

const engines = loadTestEngines();
const repoRoot = resolve(__dirname, '..', '..', '..');
const READ_TOOLS = AGENT_TOOLS.filter((tool) => tool.kind === 'read').map((tool) => tool.name).sort();
const ALL_TOOLS = AGENT_TOOLS.map((tool) => tool.name).sort();

let workDir = '';
before(async () => {
  workDir = mkdtempSync(join(tmpdir(), 'berth-mcp-test-'));
  await promisify(execFile)(process.execPath, [join(repoRoot, 'esbuild.js'), `--cli-outdir=${workDir}`], { cwd: repoRoot });
  writeDockerConfig(join(workDir, 'docker-config'));
});
after(() => rmSync(workDir, { recursive: true, force: true }));

interface Session {
  readonly client: Client;
  readonly stderr: () => string;
  close(): Promise<void>;
}

async function connect(host: string, extraArgs: readonly string[] = [], cwd?: string): Promise<Session> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(workDir, 'cli.js'), '--host', host, 'mcp', ...extraArgs],
    ...(cwd !== undefined ? { cwd } : {}),
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: workDir, DOCKER_CONFIG: join(workDir, 'docker-config') },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (data: Buffer) => (stderr += data.toString()));
  const client = new Client({ name: 'berth-test', version: '1' });
  await client.connect(transport);
  return { client, stderr: () => stderr, close: () => client.close() };
}

type Content = Array<{ type: string; text?: string }>;

async function call(session: Session, name: string, args: Record<string, unknown>): Promise<{ text: string; isError: boolean }> {
  const result = await session.client.callTool({ name, arguments: args });
  const text = (result.content as Content).map((part) => part.text ?? '').join('\n');
  return { text, isError: result.isError === true };
}

for (const target of engineTargets(engines)) {
  void describe(`berth mcp on ${target.name}`, { skip: target.skip }, () => {
    const suite = useEngineSuite({ host: target.host, name: `mcp-${target.name}`, skip: target.skip });

    void it('read-only by default: lists only the read tools and refuses an act, which changes nothing', async () => {
      const id = await suite.createContainer(['sleep', '300']);
      await suite.client.containers.start(id);
      const session = await connect(target.host);
      try {
        const listed = (await session.client.listTools()).tools.map((tool) => tool.name).sort();
        assert.deepEqual(listed, READ_TOOLS);
        const refused = await call(session, 'stop_container', { container: id });
        assert.equal(refused.isError, true);
        assert.equal(refused.text, expectedMessage('agent-read-only'));
        assert.equal((await suite.client.containers.inspect(id)).State.Running, true, 'the refused stop left the container running');
      } finally {
        await session.close();
      }
    });

    void it('every read tool answers about a real container, and logs are resources', async () => {
      const script = 'echo first; echo trouble >&2; i=0; while [ $i -lt 300 ]; do echo n$i; i=$((i+1)); done; exec sleep 300';
      const name = uniqueName('mcp-read');
      const id = await suite.createContainer(['sh', '-c', script], { Env: ['SECRET_TOKEN=hunter2-value'] }, name);
      await suite.client.containers.start(id);
      const session = await connect(target.host);
      try {
        const listed = await call(session, 'list_containers', {});
        assert.equal(listed.isError, false, listed.text);
        assert.ok(listed.text.includes(name), 'the running container is listed');
        const images = await call(session, 'list_images', {});
        assert.ok(images.text.includes(engines.image), images.text);

        const inspect = await call(session, 'inspect_container', { container: name });
        assert.ok(inspect.text.includes('SECRET_TOKEN'), 'the variable is named');
        assert.ok(!inspect.text.includes('hunter2-value'), 'its value is not shown unless asked');
        const withValues = await call(session, 'inspect_container', { container: name, includeEnvValues: true });
        assert.ok(withValues.text.includes('hunter2-value'), 'asked for, the value is shown');

        let logs = { text: '', isError: false };
        for (let attempt = 0; attempt < 100 && !logs.text.includes('n299'); attempt++) {
          logs = await call(session, 'container_logs', { container: name, tail: 5 });
          if (!logs.text.includes('n299')) await sleep(100);
        }
        assert.match(logs.text, /^<untrusted-data source="logs of container /);
        assert.match(logs.text, /\n<\/untrusted-data>$/);
        // The engine picks the last 5 messages (dockerd's tail may count the early stderr line among them).
        const shown = logs.text.split('\n').filter((line) => /^std(out|err)\| /.test(line));
        assert.equal(shown.length, 5, logs.text);
        assert.ok(shown.includes('stdout| n299') && !shown.includes('stdout| n290'), logs.text);
        const filtered = await call(session, 'container_logs', { container: name, contains: 'trouble' });
        assert.match(filtered.text, /^stderr\| trouble$/m);
        assert.doesNotMatch(filtered.text, /n1/);

        const stats = await call(session, 'container_stats', { container: name });
        assert.equal(stats.isError, false, stats.text);
        assert.match(stats.text, /"pids"|is not running/);
        const top = await call(session, 'container_top', { container: name });
        assert.match(top.text, /sleep 300/);
        const info = await call(session, 'engine_info', {});
        assert.match(info.text, /"apiVersion": "1\.\d+"/);
        assert.match(info.text, target.name === 'podman' ? /"product": "Podman"/ : /"product": "Docker Engine"/);

        const resources = (await session.client.listResources()).resources;
        const uri = `berth://containers/${id.slice(0, 12)}/logs`;
        assert.ok(resources.some((resource) => resource.uri === uri), `${uri} is listed`);
        const read = await session.client.readResource({ uri });
        assert.match(String((read.contents[0] as { text?: string }).text), /stdout\| n299/);
      } finally {
        await session.close();
      }
    });

    void it('with --allow-write it runs, stops and removes a container, and logs each act with its tool name', async () => {
      const name = uniqueName('mcp-act');
      suite.cleanup(() => suite.client.containers.remove(name, { force: true }).catch(() => undefined));
      const session = await connect(target.host, ['--allow-write']);
      try {
        const listed = (await session.client.listTools()).tools.map((tool) => tool.name).sort();
        assert.deepEqual(listed, ALL_TOOLS);
        const run = await call(session, 'run_container', { image: engines.image, command: ['sleep', '300'], name, network: 'none' });
        assert.equal(run.isError, false, run.text);
        assert.equal((await suite.client.containers.inspect(name)).State.Running, true);
        const stop = await call(session, 'stop_container', { container: name, timeoutSeconds: 0 });
        assert.equal(stop.isError, false, stop.text);
        assert.equal((await suite.client.containers.inspect(name)).State.Running, false);
        const remove = await call(session, 'remove_container', { container: name });
        assert.equal(remove.isError, false, remove.text);
        await assert.rejects(suite.client.containers.inspect(name), /No such container/i);
        assert.match(session.stderr(), new RegExp(`berth mcp: run_container: Run the image ${engines.image.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}, with the command \\["sleep","300"\\], named ${name}`));
        assert.match(session.stderr(), new RegExp(`berth mcp: remove_container: remove the container ${name}\\.`));
      } finally {
        await session.close();
      }
    });

    void it('bad input gets an error result with the words to act on, and the server goes on answering', async () => {
      const session = await connect(target.host, ['--allow-write']);
      try {
        const unknown = await call(session, 'container_logs', { container: 'no-such-container-berth' });
        assert.equal(unknown.isError, true);
        // Podman words the refusal its own way; the row records dockerd's.
        if (target.name === 'docker') assert.equal(unknown.text, expectedMessage('agent-unknown-container'));
        else assert.match(unknown.text, /^container_logs failed: .*no such container/i);
        assert.deepEqual(await call(session, 'run_container', { image: 'Busybox:latest', network: 'none' }), { text: expectedMessage('agent-bad-image'), isError: true });
        assert.deepEqual(await call(session, 'inspect_container', {}), { text: expectedMessage('agent-schema'), isError: true });
        assert.deepEqual(await call(session, 'container_logs', { container: 'x', tail: 10_000_000_000 }), { text: expectedMessage('agent-huge-log'), isError: true });
        assert.deepEqual(await call(session, 'container_logs', { container: 'x', since: 'yesterday' }), { text: expectedMessage('agent-bad-time'), isError: true });
        const still = await call(session, 'engine_info', {});
        assert.equal(still.isError, false, 'the server still answers');
      } finally {
        await session.close();
      }
    });
  });
}

void describe('berth mcp with the engine down', () => {
  void it('answers each call with the engine error, and keeps serving', async () => {
    const session = await connect(`unix://${join(tmpdir(), 'berth-mcp-no-engine.sock')}`);
    try {
      for (let attempt = 0; attempt < 2; attempt++) {
        const result = await call(session, 'list_containers', {});
        assert.equal(result.isError, true);
        const engineWords = /^list_containers failed: (.*(does not exist|No container engine|cannot reach|refused).*)$/is.exec(result.text);
        assert.ok(engineWords, result.text);
        assert.equal(result.text, expectedMessage('agent-engine-down', { message: engineWords[1] ?? '' }));
      }
    } finally {
      await session.close();
    }
  });
});

// Debian's docker-compose 1.29 runs against the private dockerd; podman-compose always adds a network of its own, which
// the tests never start a container on, so Compose is driven on dockerd only.
void describe('berth mcp compose tools on docker', () => {
  const suite = useEngineSuite({ host: engines.dockerHost, name: 'mcp-compose' });

  void it('compose_up starts a project from a file in the workspace, compose_down removes it; a file outside is refused', async () => {
    const workspace = mkdtempSync(join(tmpdir(), 'berth-mcp-ws-'));
    const project = workspace.split('/').pop()?.toLowerCase().replace(/[^a-z0-9_-]/g, '') ?? '';
    writeFileSync(
      join(workspace, 'compose.yaml'),
      `services:\n  app:\n    image: ${engines.image}\n    command: ["sleep", "300"]\n    network_mode: none\n    labels:\n      berth.test: "1"\n`,
    );
    writeFileSync(join(workDir, 'outside.yaml'), 'services: {}\n');
    symlinkSync(join(workDir, 'outside.yaml'), join(workspace, 'linked.yaml'));
    const projectFilter = { label: [`com.docker.compose.project=${project}`] };
    suite.cleanup(async () => {
      for (const container of await suite.client.containers.list({ all: true, filters: projectFilter })) await suite.client.containers.remove(container.Id, { force: true });
      rmSync(workspace, { recursive: true, force: true });
    });
    const session = await connect(engines.dockerHost, ['--allow-write'], workspace);
    try {
      const up = await call(session, 'compose_up', { file: 'compose.yaml' });
      assert.equal(up.isError, false, up.text);
      const running = await suite.client.containers.list({ filters: projectFilter });
      assert.equal(running.length, 1, up.text);
      assert.equal(running[0]?.Labels?.['com.docker.compose.service'], 'app');

      const unknown = await call(session, 'compose_up', { file: 'compose.yaml', services: ['nope'] });
      assert.deepEqual(unknown, { text: `compose_up failed: nope: no such service in ${join(workspace, 'compose.yaml')} (it has app)`, isError: true });
      for (const file of [`../${workDir.split('/').pop() ?? ''}/outside.yaml`, 'linked.yaml']) {
        const outside = await call(session, 'compose_up', { file });
        assert.equal(outside.isError, true);
        assert.ok(outside.text.startsWith(`compose_up failed: the compose file ${file} is outside the workspace`), outside.text);
      }

      const down = await call(session, 'compose_down', { file: 'compose.yaml' });
      assert.equal(down.isError, false, down.text);
      assert.deepEqual(await suite.client.containers.list({ all: true, filters: projectFilter }), []);
      assert.match(session.stderr(), /berth mcp: compose_up: Compose up compose\.yaml: every service\./);
    } finally {
      await session.close();
    }
  });
});
