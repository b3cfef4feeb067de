// Compose's bad-input rows, word for word (test/engine/compose/bad-input-compose-cases.ts): bad files on disk, the
// real PATH without any compose, a project whose files were deleted after a real `docker-compose up`, an unknown
// project and an unreachable engine through the built CLI.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ComposeFileError, ComposeNotFoundError, checkSelection, detectComposeImplementation, findComposeProject, projectFiles, readComposeModel } from '../../../src/engine';
import { createCliHarness, type CliHarness } from '../cli/support';
import { badInputCase, expectedMessage } from '../engine/bad-input-cases';
import { composeFixture } from '../../support/composeProject';
import { uniqueName } from '../../support/engines';

async function composeRefusal(id: string, attempt: () => unknown, values: Record<string, string>): Promise<void> {
  const error = await Promise.resolve()
    .then(attempt)
    .then(
      () => assert.fail(`${id}: expected a refusal`),
      (caught: unknown) => caught,
    );
  assert.ok(error instanceof ComposeFileError || error instanceof ComposeNotFoundError, `${id}: ${String(error)}`);
  assert.equal(error.message, expectedMessage(id, values));
  if (error instanceof ComposeFileError) assert.equal(error.kind, badInputCase(id).errorKind);
}

void describe('Compose bad input', () => {
  let dir = '';
  let harness: CliHarness;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'berth-compose-bad-'));
    harness = await createCliHarness('compose-bad');
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
    await harness.dispose();
  });

  void it('compose-yaml-error: the line and column, before any process', async () => {
    const file = join(dir, 'broken.yaml');
    await writeFile(file, 'services:\n  web:\n    image: [a\n  db: {}\n');
    await composeRefusal('compose-yaml-error', () => readComposeModel([file]), { file });
  });

  void it('compose-not-compose', async () => {
    const file = join(dir, 'package.yaml');
    await writeFile(file, 'name: x\nversion: 1\n');
    await composeRefusal('compose-not-compose', () => readComposeModel([file]), { file });
  });

  void it('compose-unknown-service and compose-unknown-profile', async () => {
    const file = join(dir, 'compose.yaml');
    await writeFile(file, 'services:\n  web: {}\n  db:\n    profiles: [debug]\n');
    const model = await readComposeModel([file]);
    await composeRefusal('compose-unknown-service', () => checkSelection(model, { services: ['api'] }), { file });
    await composeRefusal('compose-unknown-profile', () => checkSelection(model, { profiles: ['prod'] }), { file });
  });

  void it('compose-no-implementation: the real probe, with a PATH that holds none', async () => {
    const saved = process.env['PATH'];
    process.env['PATH'] = dir;
    try {
      await composeRefusal('compose-no-implementation', () => detectComposeImplementation('auto'), {});
    } finally {
      process.env['PATH'] = saved;
    }
  });

  void it('compose-files-gone: offers the API group actions, which still work', async () => {
    const fixture = await composeFixture(harness.engines.dockerHost, harness.engines.image, uniqueName('gone').toLowerCase().replace(/[^a-z0-9]/g, ''), {
      app: { command: ['sleep', '1000'] },
    });
    try {
      await fixture.compose(['up', '-d']);
      await rm(fixture.file);
      const project = await findComposeProject(harness.client, fixture.project);
      await composeRefusal('compose-files-gone', () => projectFiles(project), { project: fixture.project, file: fixture.file });
      const stopped = await harness.berth(['compose', 'stop', '-t', '0', fixture.project]);
      assert.equal(stopped.code, 0, stopped.stderr);
      assert.equal(stopped.stdout, `${fixture.project}_app_1\n`);
      const removed = await harness.berth(['compose', 'rm', fixture.project]);
      assert.equal(removed.code, 0, removed.stderr);
      assert.equal((await harness.berth(['compose', 'ls', '-q'])).stdout.split('\n').includes(fixture.project), false);
    } finally {
      await fixture.dispose();
    }
  });

  void it('compose-unknown-project: through the CLI, naming the projects there are', async () => {
    const result = await harness.berth(['compose', 'stop', 'berth-no-such-project']);
    assert.equal(result.code, 1);
    const projects = (await harness.berth(['compose', 'ls', '-q'])).stdout.trim().split('\n').filter((name) => name !== '');
    const expected = expectedMessage('compose-unknown-project', { projects: projects.join(', ') });
    if (projects.length === 0) assert.match(result.stderr, /^berth: No Compose project named "berth-no-such-project" on this engine\. No container/);
    else assert.equal(result.stderr, `berth: ${expected}\n`);
  });

  void it('compose-engine-unreachable: compose ls on a socket path with nothing there', async () => {
    const result = await harness.berth(['compose', 'ls'], { host: `unix://${dir}/nothing.sock` });
    assert.equal(result.code, 1);
    assert.equal(result.stderr, `berth: ${expectedMessage('compose-engine-unreachable', { dir: dir.slice(1) })}\n`);
  });
});
