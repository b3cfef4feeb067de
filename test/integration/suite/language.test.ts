// Dockerfile and Compose language support in the real extension host: the bundled servers start only when such a
// file opens, then give diagnostics, completion and hover through vscode-languageclient.
import * as assert from 'node:assert/strict';
import { chmod, mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { delimiter } from 'node:path';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { setBerthSetting } from '../support/fixtures';
import { eventually } from '../../support/wait';

interface ServerState {
  languageId: string;
  running: boolean;
}

async function servers(): Promise<ServerState[]> {
  return (await vscode.commands.executeCommand<ServerState[]>('berth.internal.languageServers')) ?? [];
}

/** Polls `probe` until it returns a value (servers answer asynchronously); fails with `what` after the deadline. */
/** Language servers start in a process of their own: as long as the old helper waited, polling as often. */
const SERVER_WAIT = { timeoutMs: 20_000, intervalMs: 200 };

async function open(dir: string, name: string, text: string): Promise<vscode.TextDocument> {
  const file = join(dir, name);
  await writeFile(file, text);
  const document = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
  await vscode.window.showTextDocument(document);
  return document;
}

function labelOf(item: vscode.CompletionItem): string {
  return typeof item.label === 'string' ? item.label : item.label.label;
}

function hoverText(hovers: vscode.Hover[]): string {
  return hovers
    .flatMap((hover) => hover.contents)
    .map((content) => (typeof content === 'string' ? content : content.value))
    .join('\n');
}

describe('language support', () => {
  let dir: string;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'berth-lang-'));
    await vscode.extensions.getExtension('berth.berth')?.activate();
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('starts no server before a Dockerfile or Compose file is open', async () => {
    const anyOpen = vscode.workspace.textDocuments.some((document) => ['dockerfile', 'dockercompose'].includes(document.languageId));
    assert.ok(!anyOpen, 'precondition: no such document open yet');
    assert.deepEqual(await servers(), []);
  });

  it('reports a diagnostic for a Dockerfile with a known error', async () => {
    const document = await open(dir, 'Dockerfile', 'FROM busybox\nEXPOSE abc\n');
    assert.equal(document.languageId, 'dockerfile');
    const diagnostics = await eventually('Dockerfile diagnostics', () => {
      const found = vscode.languages.getDiagnostics(document.uri);
      return found.length > 0 ? found : undefined;
    }, SERVER_WAIT);
    const invalidPort = diagnostics.find((diagnostic) => /Invalid containerPort: abc/.test(diagnostic.message));
    assert.ok(invalidPort, diagnostics.map((diagnostic) => diagnostic.message).join('; '));
    assert.equal(invalidPort.range.start.line, 1);
    assert.deepEqual(await servers(), [{ languageId: 'dockerfile', running: true }], 'only the Dockerfile server started');
  });

  it('completes an instruction and explains one on hover', async () => {
    const document = await open(dir, 'build.dockerfile', 'FROM busybox\nRU\n');
    const labels = await eventually('RUN in the completions', async () => {
      const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', document.uri, new vscode.Position(1, 2));
      const found = list.items.map(labelOf);
      return found.some((label) => label.startsWith('RUN')) ? found : undefined;
    }, SERVER_WAIT);
    assert.ok(labels.some((label) => label.startsWith('RUN')));
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', document.uri, new vscode.Position(0, 1));
    assert.match(hoverText(hovers), /base ?image/i);
  });

  it('treats compose.yaml as Compose: diagnostics, completion and hover from the Compose server', async () => {
    const broken = await open(dir, 'compose.yaml', 'services:\n  web:\n    image: busybox\n  bad: [\n');
    assert.equal(broken.languageId, 'dockercompose');
    const diagnostics = await eventually('Compose diagnostics', () => {
      const found = vscode.languages.getDiagnostics(broken.uri);
      return found.length > 0 ? found : undefined;
    }, SERVER_WAIT);
    assert.match(diagnostics[0]?.message ?? '', /Flow sequence|must be sufficiently indented/);

    const document = await open(dir, 'docker-compose.yml', 'services:\n  web:\n    image: busybox\n\n');
    assert.equal(document.languageId, 'dockercompose');
    const labels = await eventually('top-level Compose keys in the completions', async () => {
      const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', document.uri, new vscode.Position(3, 0));
      const found = list.items.map(labelOf);
      return found.some((label) => label.startsWith('volumes')) ? found : undefined;
    }, SERVER_WAIT);
    assert.ok(labels.some((label) => label.startsWith('networks')));
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', document.uri, new vscode.Position(0, 2));
    assert.match(hoverText(hovers), /services/i);
  });
});

describe('living next to other setups', () => {
  let dir: string;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'berth-lang-next-'));
  });

  after(async () => {
    await setBerthSetting('languageFeatures.enabled', undefined);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it("uses VS Code's own Compose language, and composer.yaml is not Compose", async () => {
    assert.equal((await open(dir, 'compose.override.yaml', 'services: {}\n')).languageId, 'dockercompose');
    assert.equal((await open(dir, 'composer.yaml', 'name: php-package\n')).languageId, 'yaml');
  });

  it('berth.languageFeatures.enabled off stops the servers, and none starts for a new Dockerfile; on starts them again', async () => {
    await open(dir, 'Dockerfile', 'FROM busybox\n');
    await eventually('the Dockerfile server', async () => ((await servers()).some((state) => state.languageId === 'dockerfile' && state.running) ? true : undefined), SERVER_WAIT);
    await setBerthSetting('languageFeatures.enabled', false);
    await eventually('the servers stopped', async () => ((await servers()).length === 0 ? true : undefined), SERVER_WAIT);
    const other = await open(dir, 'other.dockerfile', 'FROM busybox\nEXPOSE abc\n');
    assert.equal(other.languageId, 'dockerfile');
    assert.deepEqual(await servers(), [], 'no server for a Dockerfile opened while off');
    await setBerthSetting('languageFeatures.enabled', true);
    await eventually('the server running again', async () => ((await servers()).some((state) => state.languageId === 'dockerfile' && state.running) ? true : undefined), SERVER_WAIT);
  });
});

describe('laziness: remote engines', () => {
  const settingName = 'engines';
  let saved: unknown;
  let savedPath: string | undefined;
  let dir: string;
  let marker: string;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'berth-lazy-'));
    marker = join(dir, 'ssh-was-run');
    // A stand-in ssh first on PATH: it records that it ran and refuses, as ssh does when it cannot connect.
    await mkdir(join(dir, 'bin'));
    await writeFile(join(dir, 'bin', 'ssh'), `#!/bin/sh\necho "$@" >> '${marker}'\necho 'ssh: connect to host far.invalid port 22: Connection refused' >&2\nexit 255\n`);
    await chmod(join(dir, 'bin', 'ssh'), 0o755);
    savedPath = process.env.PATH;
    process.env.PATH = `${join(dir, 'bin')}${delimiter}${savedPath ?? ''}`;
    saved = vscode.workspace.getConfiguration('berth').inspect(settingName)?.globalValue;
  });

  after(async () => {
    await vscode.workspace.getConfiguration('berth').update(settingName, saved, vscode.ConfigurationTarget.Global);
    process.env.PATH = savedPath;
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('opening a Dockerfile spawns no ssh; a command that needs the ssh engine does', async () => {
    // No Berth view is shown: the explorer takes the side bar.
    await vscode.commands.executeCommand('workbench.view.explorer');
    const engines = Array.isArray(saved) ? (saved as unknown[]) : [];
    await vscode.workspace.getConfiguration('berth').update(settingName, [...engines, { name: 'far-away', host: 'ssh://berth@far.invalid' }], vscode.ConfigurationTarget.Global);
    await eventually('the ssh engine listed', async () => {
      const listed = (await vscode.commands.executeCommand<{ name: string }[]>('berth.internal.engines')) ?? [];
      return listed.some((engine) => engine.name === 'far-away') ? true : undefined;
    }, SERVER_WAIT);
    await open(dir, 'Dockerfile', 'FROM busybox\n');
    await eventually('the Dockerfile server', async () => ((await servers()).some((state) => state.languageId === 'dockerfile' && state.running) ? true : undefined), SERVER_WAIT);
    await assert.rejects(readFile(marker, 'utf8'), { code: 'ENOENT' }, 'ssh ran although no view was shown and no command needed it');

    // The control: the stand-in is found and run once something needs that engine.
    await vscode.commands.executeCommand('berth.internal.modelSnapshot', { engine: 'far-away' });
    // The stand-in creates the marker before it writes to it: an empty read is not an answer yet.
    const ran = await eventually('ssh run for the command', async () => readFile(marker, 'utf8').then((text) => (text === '' ? undefined : text), () => undefined), SERVER_WAIT);
    assert.match(ran, /far\.invalid/);
  });
});
