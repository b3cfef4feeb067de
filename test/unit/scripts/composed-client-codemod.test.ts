import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EngineClient, parseHost } from '../../../src/engine';
import { NEW_PATH } from '../../../scripts/codemods/composedClient';

// The codemod's table is what a merge is converted by: every old name must land on a method the composed client has.
void describe('the composed client codemod table', () => {
  const client = new EngineClient({ endpoint: parseHost('unix:///nonexistent/berth-codemod-test.sock', {}) });

  void it('maps every old flat name to a method of a group of the client', () => {
    const missing = Object.entries(NEW_PATH).filter(([, [group, name]]) => {
      const members = client[group] as unknown as Record<string, unknown>;
      return typeof members[name] !== 'function';
    });
    assert.deepEqual(missing, []);
  });

  void it('leaves no old flat name on the client itself', () => {
    const left = Object.keys(NEW_PATH).filter((name) => name in client);
    assert.deepEqual(left, []);
  });

  void it('gives each group method one old name, so no two calls merge into one', () => {
    const paths = Object.values(NEW_PATH).map(([group, name]) => `${group}.${name}`);
    assert.equal(new Set(paths).size, paths.length);
  });
});
