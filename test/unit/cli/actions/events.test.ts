import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { escapeControls } from '../../../../src/cli/actions/events';

void describe('berth events on a terminal', () => {
  void it('shows control characters from names and labels escaped, printable text as it is', () => {
    assert.equal(escapeControls('name=\u001b]0;pwned\u0007 ünï 名'), 'name=\\x1b]0;pwned\\x07 ünï 名');
    assert.equal(escapeControls('a\nb\u009bc\u007f'), 'a\\x0ab\\x9bc\\x7f');
  });
});
