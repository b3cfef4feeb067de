// The build context a Dockerfile outside the context travels with: its `.dockerignore` is rewritten to leave the
// Dockerfile out of COPY, and a `.dockerignore` that is a link must not carry its target's bytes (a file anywhere on
// this machine) to the engine.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import * as tar from 'tar-stream';
import { contextTar, prepareBuildContext } from '../../../../src/engine/build';

/** Every entry of the context tar: name and bytes. */
async function entriesOf(pack: tar.Pack): Promise<Map<string, string>> {
  const extract = tar.extract();
  pack.pipe(extract);
  const entries = new Map<string, string>();
  for await (const entry of extract) {
    const chunks: Buffer[] = [];
    for await (const chunk of entry as AsyncIterable<Buffer>) chunks.push(chunk);
    entries.set(entry.header.name, Buffer.concat(chunks).toString('utf8'));
  }
  return entries;
}

void describe('build context with a Dockerfile outside it', () => {
  const base = mkdtempSync(join(tmpdir(), 'berth-context-'));
  after(() => rmSync(base, { recursive: true, force: true }));
  const secret = join(base, 'host-secret');
  writeFileSync(secret, 'TOKEN=host-secret-value\n');
  writeFileSync(join(base, 'outside.Dockerfile'), 'FROM scratch\nCOPY . /ctx\n');

  const contextWith = (name: string, makeIgnore: (path: string) => void): string => {
    const context = join(base, name);
    mkdirSync(context);
    writeFileSync(join(context, 'kept.txt'), 'kept');
    makeIgnore(join(context, '.dockerignore'));
    return context;
  };

  void it('sends a .dockerignore that links outside the context without its target\'s bytes, as the docker CLI does', async () => {
    const context = contextWith('linked', (path) => symlinkSync(secret, path));
    const prepared = await prepareBuildContext({ contextDir: context, dockerfile: join(base, 'outside.Dockerfile') });
    const entries = await entriesOf(contextTar(prepared));
    for (const [name, text] of entries) assert.doesNotMatch(text, /host-secret-value/, `${name} carries the linked file's bytes`);
    assert.equal(entries.get('.dockerignore'), `\n${prepared.dockerfileInTar}\n`);
    assert.equal(entries.get(prepared.dockerfileInTar), 'FROM scratch\nCOPY . /ctx\n');
    assert.equal(entries.get('kept.txt'), 'kept');
  });

  void it('still sends a regular .dockerignore with the Dockerfile\'s name added', async () => {
    const context = contextWith('regular', (path) => writeFileSync(path, 'secret.txt\n'));
    const prepared = await prepareBuildContext({ contextDir: context, dockerfile: join(base, 'outside.Dockerfile') });
    const entries = await entriesOf(contextTar(prepared));
    assert.equal(entries.get('.dockerignore'), `secret.txt\n\n${prepared.dockerfileInTar}\n`);
  });
});
