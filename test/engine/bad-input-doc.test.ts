// docs/bad-input.md (the README's bad-input table) is printed from the rows the bad-input tests assert; this fails
// when someone edits one without the other. Regenerate: node --import tsx test/engine/bad-input-table.ts > docs/bad-input.md
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, it } from 'node:test';
import { BAD_INPUT_CASES } from './bad-input-cases';
import { renderBadInputTable } from './bad-input-table';

void describe('bad-input table', () => {
  void it('docs/bad-input.md is exactly what the cases print', () => {
    const onDisk = readFileSync(resolve(__dirname, '..', '..', 'docs', 'bad-input.md'), 'utf8');
    assert.equal(onDisk, renderBadInputTable());
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
