// docs/bad-input.md is printed from the rows the bad-input tests assert; this fails when someone edits one without
// the other. Regenerate: node --import tsx test/engine/engine/bad-input-table.ts
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { BAD_INPUT_CASES } from './bad-input-cases';
import { DOC_PATH, renderBadInputTable } from './bad-input-table';

void describe('bad-input table', () => {
  void it('docs/bad-input.md is exactly what the cases print', () => {
    assert.equal(readFileSync(DOC_PATH, 'utf8'), renderBadInputTable());
  });

  void it('every row has a unique id, and every error row names its error kind', () => {
    const ids = BAD_INPUT_CASES.map((entry) => entry.id);
    assert.equal(new Set(ids).size, ids.length);
    for (const entry of BAD_INPUT_CASES) if (entry.kind === 'error') assert.ok(entry.errorKind, entry.id);
  });

  void it('covers every input class the issue lists', () => {
    const classes = new Set(BAD_INPUT_CASES.map((entry) => entry.category));
    for (const required of [
      'Bad image references',
      'Bad container names',
      'Unknown ids',
      'Ambiguous prefixes',
      'Empty commands',
      'Huge output',
      'Binary output',
      'Invalid UTF-8',
      'The engine gone',
      'A socket without permission',
      'Failed registry auth',
      'A remote registry over plain HTTP',
      'TLS and remote engines',
    ] as const) {
      assert.ok(classes.has(required), required);
    }
  });
});
