import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';

describe('extension host', () => {
  it('is the real VS Code 1.100.3 that code-server 4.100.3 ships', () => {
    assert.equal(vscode.version, '1.100.3');
  });
});
