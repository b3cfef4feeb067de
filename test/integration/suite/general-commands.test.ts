// The general commands a user reaches from the palette and the views' title bars, driven as commands: Open Settings
// opens the Settings editor on Berth's settings, Show Log reveals Berth's one log channel.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activateBerth, eventually, modelState } from '../support/fixtures';

describe('general commands', () => {
  before(async () => {
    await activateBerth();
    await modelState('connected');
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('Open Settings opens the Settings editor', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('berth.openSettings');
    const label = await eventually('the Settings editor as the active tab', () => {
      const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
      return Promise.resolve(tab?.label === 'Settings' ? tab.label : undefined);
    });
    assert.equal(label, 'Settings');
  });

  it('Show Log reveals the Berth log channel', async () => {
    await vscode.commands.executeCommand('workbench.action.closePanel');
    await vscode.commands.executeCommand('berth.showLog');
    const shown = await eventually('the Berth output channel in a visible editor', () =>
      Promise.resolve(vscode.window.visibleTextEditors.find((editor) => editor.document.uri.scheme === 'output' && /Berth/.test(editor.document.uri.path))));
    assert.match(shown.document.getText(), /\S/, 'the log shows lines');
  });
});
