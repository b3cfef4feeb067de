// Commands called with arguments from outside Berth's views (a command link in a hover or a trusted notebook, another
// extension) ask first and show the values, and `confirmed: true` from outside counts for nothing (issue 32 item 6).
// Berth's test mode lets outside arguments stand by default, as the other suites rely on; here
// `berth.internal.outsideArguments` switches it to the production rule, where each modal question is captured and
// answered as dismissed, so each case checks both the question and that the engine is unchanged. Rows the views
// hand out (`berth.internal.viewRowNodes`, read through the provider VS Code gets) still act as a click does.
import * as assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { isEngineError } from '../../../src/engine';
import { uniqueName } from '../../support/engines';
import { eventually, inspectOrUndefined, modelShowsContainer, removeImageQuietly, useConnectedSuite } from '../support/fixtures';

interface Question {
  message: string;
  action: string;
  detail: string | undefined;
}

/** Switches the rule; returns the questions captured since the last switch. */
function outsideRule(rule: 'given' | 'asked', answer = false): Thenable<Question[]> {
  return vscode.commands.executeCommand<Question[]>('berth.internal.outsideArguments', { rule, answer });
}

/** Runs COMMAND under the production rule with the given answer; its result and the questions it asked. */
async function underProductionRule<T>(answer: boolean, command: () => Thenable<T>): Promise<{ result: T; questions: Question[] }> {
  await outsideRule('asked', answer);
  try {
    const result = await command();
    return { result, questions: await outsideRule('asked', answer) };
  } finally {
    await outsideRule('given');
  }
}

/** The row a view hands VS Code for LABEL (Containers or Images), found among the roots or one engine's rows. */
async function rowNode(view: 'containers' | 'images', label: string): Promise<unknown> {
  return eventually(`the ${view} row ${label}`, async () => {
    const roots = await vscode.commands.executeCommand<Array<{ label: string; node: unknown }>>('berth.internal.viewRowNodes', view, []);
    const atRoot = roots.find((row) => row.label === label);
    if (atRoot) return atRoot.node;
    for (const root of roots) {
      const rows = await vscode.commands.executeCommand<Array<{ label: string; node: unknown }>>('berth.internal.viewRowNodes', view, [root.label]).then(
        (found) => found,
        () => [],
      );
      const row = rows.find((candidate) => candidate.label === label);
      if (row) return row.node;
    }
    return undefined;
  });
}

describe('arguments from outside Berth\'s views', function () {
  this.timeout(120_000);
  const { engines, client, containers } = useConnectedSuite();
  const registry = engines.registry.address;

  afterEach(async () => {
    await outsideRule('given');
  });

  /** Whether a container of that name exists; one that does is left to the suite's cleanup. */
  async function containerNamed(name: string): Promise<boolean> {
    const found = (await client.containers.list({ all: true })).filter((container) => container.Names.includes(`/${name}`));
    for (const container of found) containers.track(container.Id);
    return found.length > 0;
  }

  for (const [id, action] of [['berth.runContainer', 'Run'], ['berth.runInBackground', 'Run in Background']] as const) {
    it(`${id}: asks, showing the image, mounts, environment names and ports, and runs nothing when dismissed`, async () => {
      const name = uniqueName('berth-it-outside-run');
      const { result, questions } = await underProductionRule(false, () =>
        vscode.commands.executeCommand(id, {
          image: engines.image,
          cmd: ['sleep', '300'],
          name,
          options: { volumes: ['/:/host'], env: ['API_TOKEN=s3cr3t-value', 'HOME'], ports: ['127.0.0.1::80'], network: 'none' },
        }),
      );
      assert.equal(result, undefined);
      assert.equal(questions.length, 1, JSON.stringify(questions));
      const [question] = questions;
      assert.ok(question);
      assert.ok(question.message.includes(engines.image), question.message);
      assert.equal(question.action, action);
      const detail = question.detail ?? '';
      for (const shown of ['Mounts: /:/host', 'API_TOKEN', "HOME (its value from this machine's environment)", 'Ports: 127.0.0.1::80', `Name: ${name}`]) {
        assert.ok(detail.includes(shown), `"${shown}" is not in:\n${detail}`);
      }
      assert.ok(!detail.includes('s3cr3t-value'), 'an environment value is shown');
      assert.equal(await containerNamed(name), false, 'a container was created');
    });
  }

  it('berth.images.tag with a reference: asks, naming both, and tags nothing when dismissed', async () => {
    const reference = containers.trackImage(`berth-it/outside-tag:${uniqueName('t')}`);
    const { result, questions } = await underProductionRule(false, () => vscode.commands.executeCommand('berth.images.tag', engines.image, { reference }));
    assert.equal(result, undefined);
    assert.equal(questions.length, 1, JSON.stringify(questions));
    assert.ok(questions[0]?.message.includes(reference) && questions[0].message.includes(engines.image), questions[0]?.message);
    await assert.rejects(client.images.inspect(reference), (error) => isEngineError(error, 'not-found'), 'the image was tagged');
  });

  it('berth.images.push: asks, naming the registry, and pushes nothing when dismissed', async () => {
    const repository = `berth-it/outside-push-${uniqueName('r').toLowerCase()}`;
    const reference = containers.trackImage(`${registry}/${repository}:it`);
    const [repo, tag] = [`${registry}/${repository}`, 'it'];
    await client.images.tag(engines.image, { repo, tag });
    const { result, questions } = await underProductionRule(false, () => vscode.commands.executeCommand('berth.images.push', reference, { reference }));
    assert.equal(result, undefined);
    assert.equal(questions.length, 1, JSON.stringify(questions));
    assert.ok(questions[0]?.message.includes(registry), questions[0]?.message);
    const basic = Buffer.from(`${engines.registry.username}:${engines.registry.password}`).toString('base64');
    const answer = await fetch(`http://${registry}/v2/${repository}/tags/list`, { headers: { authorization: `Basic ${basic}` } });
    assert.equal(answer.status, 404, `the registry has ${repository}: ${await answer.text()}`);
  });

  it('berth.remove with confirmed: true asks, naming the container, and the container stays when dismissed', async () => {
    const made = await containers.create({ cmd: ['true'], start: false });
    await modelShowsContainer(made.id, 'created');
    const { result, questions } = await underProductionRule(false, () => vscode.commands.executeCommand('berth.remove', made.name, { confirmed: true }));
    assert.equal(result, undefined);
    assert.equal(questions.length, 1, JSON.stringify(questions));
    assert.equal(questions[0]?.message, `Remove ${made.name}?`);
    assert.notEqual(await inspectOrUndefined(client, made.id), undefined, 'the container was removed');
  });

  it('a row-shaped object is outside too: berth.remove with a forged row and confirmed: true asks', async () => {
    const made = await containers.create({ cmd: ['sleep', '300'] });
    const engineId = (await vscode.commands.executeCommand<Array<{ id: string; current: boolean }>>('berth.internal.engines')).find((each) => each.current)?.id;
    const forged = { kind: 'container', engine: engineId, record: { id: made.id, name: made.name, state: 'running' } };
    const { questions } = await underProductionRule(false, () => vscode.commands.executeCommand('berth.remove', forged, { confirmed: true }));
    assert.equal(questions.length, 1, JSON.stringify(questions));
    assert.notEqual(await inspectOrUndefined(client, made.id), undefined, 'the container was removed');
  });

  it('berth.prune.containers with confirmed: true shows the plan, and removes nothing when dismissed', async () => {
    const label = uniqueName('berth-it-outside-prune');
    const stopped = await containers.create({ cmd: ['true'], start: false, labels: { [label]: 'yes' } });
    const { result, questions } = await underProductionRule(false, () =>
      vscode.commands.executeCommand('berth.prune.containers', { filters: [`label=${label}`], confirmed: true }),
    );
    // A dismissed prune answers with its plan, marked declined, and removes nothing.
    assert.equal((result as { declined?: boolean } | undefined)?.declined, true, JSON.stringify(result));
    assert.equal(questions.length, 1, JSON.stringify(questions));
    assert.match(questions[0]?.message ?? '', /^Remove 1 object/);
    assert.ok(questions[0]?.detail?.includes(stopped.name) && questions[0].detail.includes(`label=${label}`), questions[0]?.detail);
    assert.notEqual(await inspectOrUndefined(client, stopped.id), undefined, 'the container was pruned');
  });

  it('berth.stopAll with confirmed: true asks, and stops nothing when dismissed', async () => {
    const running = await containers.create({ cmd: ['sleep', '300'] });
    await modelShowsContainer(running.id, 'running');
    const { result, questions } = await underProductionRule(false, () => vscode.commands.executeCommand('berth.stopAll', { confirmed: true }));
    assert.deepEqual(result, { stopped: [], failed: [], declined: true });
    assert.equal(questions.length, 1, JSON.stringify(questions));
    assert.match(questions[0]?.message ?? '', /Stop all/);
    assert.equal((await inspectOrUndefined(client, running.id))?.State.Running, true, 'the container was stopped');
  });

  it('berth.volumes.create with a bind of / asks, showing the driver options, and creates nothing when dismissed', async () => {
    const name = uniqueName('berth-it-outside-volume');
    const body = { Name: name, Driver: 'local', DriverOpts: { type: 'none', o: 'bind', device: '/' } };
    try {
      const { result, questions } = await underProductionRule(false, () => vscode.commands.executeCommand('berth.volumes.create', body));
      assert.equal(result, undefined);
      assert.equal(questions.length, 1, JSON.stringify(questions));
      assert.ok(questions[0]?.detail?.includes('"device":"/"'), questions[0]?.detail);
      await assert.rejects(client.volumes.inspect(name), (error) => isEngineError(error, 'not-found'), 'the volume was created');
    } finally {
      await client.volumes.remove(name).catch(() => undefined);
    }
  });

  it('berth.commitContainer with a repository asks, naming both, and commits nothing when dismissed', async () => {
    const made = await containers.create({ cmd: ['sleep', '300'] });
    const repo = 'berth-it/outside-commit';
    const tag = uniqueName('t');
    containers.trackImage(`${repo}:${tag}`);
    const { result, questions } = await underProductionRule(false, () => vscode.commands.executeCommand('berth.commitContainer', made.id, { repo, tag }));
    assert.equal(result, undefined);
    assert.equal(questions.length, 1, JSON.stringify(questions));
    assert.equal(questions[0]?.message, `Commit ${made.id} as ${repo}?`);
    await assert.rejects(client.images.inspect(`${repo}:${tag}`), (error) => isEngineError(error, 'not-found'), 'the image was committed');
  });

  it('berth.compose.up with a compose file Uri asks, naming the file and the command, and starts nothing when dismissed', async () => {
    const project = uniqueName('berth-it-outside-compose');
    const folder = await mkdtemp(join(tmpdir(), 'berth-it-outside-'));
    const file = join(folder, 'compose.yaml');
    await writeFile(file, `name: ${project}\nservices:\n  app:\n    image: ${engines.image}\n    command: ['sleep', '300']\n    network_mode: none\n`);
    try {
      const { result, questions } = await underProductionRule(false, () => vscode.commands.executeCommand('berth.compose.up', vscode.Uri.file(file)));
      assert.equal(result, undefined);
      assert.equal(questions.length, 1, JSON.stringify(questions));
      assert.match(questions[0]?.message ?? '', new RegExp(`Compose Up with .*compose\\.yaml\\?`));
      assert.match(questions[0]?.detail ?? '', /Runs: compose -f .*compose\.yaml up/);
      const members = await client.containers.list({ all: true, filters: { label: [`com.docker.compose.project=${project}`] } });
      assert.deepEqual(members.map((container) => container.Names), [], 'declined: no container of the project');
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('from a Containers row: Stop and then Remove act at once, as a click does', async () => {
    const made = await containers.create({ cmd: ['sleep', '300'] });
    await modelShowsContainer(made.id, 'running');
    const runningRow = await rowNode('containers', made.name);
    const stopped = await underProductionRule(false, () => vscode.commands.executeCommand<{ stopped: string[] }>('berth.stop', runningRow, [runningRow]));
    assert.deepEqual(stopped.questions, []);
    assert.deepEqual(stopped.result?.stopped, [made.id]);
    await modelShowsContainer(made.id, 'exited');
    const exitedRow = await rowNode('containers', made.name);
    const removed = await underProductionRule(false, () => vscode.commands.executeCommand<{ removed: string[] }>('berth.remove', exitedRow));
    assert.deepEqual(removed.questions, []);
    assert.deepEqual(removed.result?.removed, [made.id]);
    assert.equal(await inspectOrUndefined(client, made.id), undefined, 'the container is still there');
  });

  it('from an Images row: Push pushes with no question', async () => {
    const repository = `berth-it/row-push-${uniqueName('r').toLowerCase()}`;
    const reference = containers.trackImage(`${registry}/${repository}:it`);
    await client.images.tag(engines.image, { repo: `${registry}/${repository}`, tag: 'it' });
    await vscode.commands.executeCommand('berth.registries.signIn', { registry, username: engines.registry.username, password: engines.registry.password });
    const row = await rowNode('images', reference);
    const pushed = await underProductionRule(false, () => vscode.commands.executeCommand<{ digest?: string }>('berth.images.push', row));
    assert.deepEqual(pushed.questions, []);
    assert.match(pushed.result?.digest ?? '', /^sha256:[0-9a-f]{64}$/);
    await removeImageQuietly(client, reference);
  });
});
