import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { EXTENSION_ID, activateBerth, modelState, snapshot, suiteEngine, testEngines } from '../support/fixtures';

describe('activation', () => {
  it('activates from the development path and returns the test API', async () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension, `${EXTENSION_ID} is loaded`);
    await activateBerth();
    assert.equal(extension.isActive, true);
    const api = extension.exports as { whenModelReady(): Promise<void>; snapshot(): unknown };
    assert.equal(typeof api.whenModelReady, 'function');
    await api.whenModelReady();
  });

  it('connects to the private engine named in berth.engine.host', async () => {
    const engines = testEngines();
    const engine = suiteEngine(engines);
    const current = await modelState('connected');
    assert.equal(current.endpoint, engine.host);
    // The shared test image is always present in the private engines, so the model must list it.
    assert.ok(
      current.images.some((image) => image.tags.some((tag) => engine.sameReference(tag, engines.image))),
      `images in the model: ${current.images.map((image) => image.tags.join(',')).join(' | ')}`,
    );
  });

  it('registers every command the manifest contributes', async () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    const contributed = (extension?.packageJSON as { contributes?: { commands?: Array<{ command: string }> } }).contributes
      ?.commands?.map((entry) => entry.command) ?? [];
    assert.ok(contributed.length >= 20, `contributed commands: ${contributed.length}`);
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = contributed.filter((id) => !registered.has(id));
    assert.deepEqual(missing, []);
    assert.ok(registered.has('berth.internal.modelSnapshot'));
  });

  it('answers the snapshot command with the model state', async () => {
    const current = await snapshot();
    assert.ok(['connecting', 'connected', 'unreachable'].includes(current.state));
    assert.ok(Array.isArray(current.containers));
  });
});
