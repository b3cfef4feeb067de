// Reading compose files with the yaml package: services and profiles, several -f files, include:, and each kind of
// bad file refused with a message that names the file (and for YAML, the line and column).
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ComposeFileError, checkSelection, profilesForServices, readComposeModel } from '../../../../src/engine';

let dir = '';
const file = async (name: string, text: string): Promise<string> => {
  const path = join(dir, name);
  await writeFile(path, text);
  return path;
};

async function refusal(promise: Promise<unknown>): Promise<ComposeFileError> {
  const error = await promise.then(
    () => assert.fail('expected a refusal'),
    (caught: unknown) => caught,
  );
  assert.ok(error instanceof ComposeFileError, `expected a ComposeFileError, got ${String(error)}`);
  return error;
}

describe('compose files', () => {
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'berth-compose-file-'));
    await mkdir(join(dir, 'sub'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('lists services sorted with their profiles, and every profile once', async () => {
    const path = await file('compose.yaml', 'services:\n  web:\n    image: a\n  db:\n    image: b\n    profiles: [debug, tools]\n  cli:\n    profiles: ["tools"]\n');
    const model = await readComposeModel([path]);
    assert.deepEqual(model.services, [
      { name: 'cli', profiles: ['tools'] },
      { name: 'db', profiles: ['debug', 'tools'] },
      { name: 'web', profiles: [] },
    ]);
    assert.deepEqual(model.profiles, ['debug', 'tools']);
    assert.deepEqual(model.files, [path]);
  });

  it('merges several -f files in order: later ones add services and override profiles they name', async () => {
    const base = await file('base.yaml', 'services:\n  web:\n    profiles: [a]\n  db: {}\n');
    const override = await file('override.yaml', 'services:\n  web:\n    profiles: [b]\n  db:\n    image: x\n  cache: {}\n');
    const model = await readComposeModel([base, override]);
    assert.deepEqual(model.services, [
      { name: 'cache', profiles: [] },
      { name: 'db', profiles: [] },
      { name: 'web', profiles: ['b'] },
    ]);
    assert.deepEqual(model.files, [base, override]);
  });

  it('follows include: (strings and path entries, relative to the including file) and cuts cycles', async () => {
    await file('sub/child.yaml', 'include:\n  - ../parent.yaml\nservices:\n  child:\n    profiles: [extra]\n');
    await file('sub/other.yaml', 'services:\n  other: {}\n');
    const parent = await file('parent.yaml', 'include:\n  - sub/child.yaml\n  - path: [sub/other.yaml]\nservices:\n  main: {}\n');
    const model = await readComposeModel([parent]);
    assert.deepEqual(model.services.map((service) => service.name), ['child', 'main', 'other']);
    assert.deepEqual(model.profiles, ['extra']);
    assert.equal(model.files.length, 3);
  });

  it('refuses a YAML syntax error with its file, line and column', async () => {
    const path = await file('broken.yaml', 'services:\n  web:\n    image: [a\n  db: {}\n');
    const error = await refusal(readComposeModel([path]));
    assert.equal(error.kind, 'yaml');
    assert.equal(error.file, path);
    assert.ok(error.line !== undefined && error.line >= 3, `line ${String(error.line)}`);
    assert.ok(error.column !== undefined && error.column >= 1);
    assert.match(error.message, new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: YAML error at line \\d+, column \\d+: `));
  });

  it('refuses a duplicate key as YAML does', async () => {
    const path = await file('dup.yaml', 'services:\n  web: {}\n  web: {}\n');
    const error = await refusal(readComposeModel([path]));
    assert.equal(error.kind, 'yaml');
    assert.equal(error.line, 3);
  });

  it('refuses a file that is not a compose file, and says what one is', async () => {
    const list = await file('list.yaml', '- a\n- b\n');
    const other = await file('package.yaml', 'name: x\nversion: 1\n');
    const empty = await file('empty.yaml', '');
    for (const [path, why] of [[list, 'its top level is not a map'], [other, 'it has neither'], [empty, 'it is empty']] as const) {
      const error = await refusal(readComposeModel([path]));
      assert.equal(error.kind, 'not-compose');
      assert.ok(error.message.includes(why), error.message);
      assert.ok(error.message.includes('"services:"'), error.message);
    }
  });

  it('refuses a missing file, and a missing include naming who included it', async () => {
    const gone = join(dir, 'gone.yaml');
    const error = await refusal(readComposeModel([gone]));
    assert.equal(error.kind, 'missing');
    assert.equal(error.message, `Cannot read the compose file ${gone}: it does not exist`);
    const including = await file('including.yaml', 'include: [nowhere.yaml]\n');
    const nested = await refusal(readComposeModel([including]));
    assert.match(nested.message, /nowhere\.yaml \(included from .*including\.yaml\): it does not exist/);
  });

  it('checks a selection: unknown services and profiles are refused with those there are', async () => {
    const path = await file('sel.yaml', 'services:\n  web: {}\n  db:\n    profiles: [debug]\n');
    const model = await readComposeModel([path]);
    checkSelection(model, { services: ['web', 'db'], profiles: ['debug'] });
    assert.throws(() => checkSelection(model, { services: ['api'] }), (error: unknown) => error instanceof ComposeFileError && error.kind === 'unknown-service' && error.message.includes('No service "api"') && error.message.endsWith('Services there: db, web'));
    assert.throws(() => checkSelection(model, { profiles: ['prod'] }), (error: unknown) => error instanceof ComposeFileError && error.kind === 'unknown-profile' && error.message.endsWith('Profiles there: debug'));
    assert.deepEqual(profilesForServices(model, ['db', 'web']), ['debug']);
    assert.deepEqual(profilesForServices(model, ['web']), []);
  });
});
