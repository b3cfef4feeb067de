// Add Docker Files to Workspace… in the real extension host: every platform's scaffold is opened and the bundled
// Dockerfile and Compose language servers report 0 diagnostics on it; an existing file is never overwritten without
// an answer (Skip keeps it byte for byte, Cancel writes nothing); a read-only folder and a folder in a file's way
// are refused with the bad-input rows' words. This file sorts after language.test.ts on purpose: that suite checks
// that no language server runs before a Dockerfile opens.
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import * as vscode from 'vscode';
import { scaffoldRowPattern } from '../../engine/build/bad-input-scaffold-cases';
import { EXTENSION_ID, eventually } from '../support/fixtures';

type Platform = 'node' | 'python' | 'go' | 'java' | 'dotnet' | 'generic';

interface ScaffoldResult {
  folder: string;
  platform: Platform;
  detected: Platform;
  port: number | undefined;
  written: string[];
  skipped: string[];
}

const PROJECTS: Readonly<Record<Platform, Record<string, string>>> = {
  node: { 'package.json': JSON.stringify({ name: 'shop', scripts: { start: 'node server.js' }, engines: { node: '20.x' } }), 'package-lock.json': '{}' },
  python: { 'requirements.txt': 'flask\n', 'app.py': 'print("hi")\n' },
  go: { 'go.mod': 'module example.com/ships\n\ngo 1.22\n', 'main.go': 'package main\n' },
  java: { 'build.gradle.kts': 'java { toolchain { languageVersion.set(JavaLanguageVersion.of(17)) } }\n', gradlew: '' },
  dotnet: { 'Harbour.csproj': '<Project Sdk="Microsoft.NET.Sdk.Web"><PropertyGroup><TargetFramework>net8.0</TargetFramework></PropertyGroup></Project>\n' },
  generic: { 'README.md': '# nothing to build\n' },
};

/** Where a line goes that each language server reports, so the 0 that follows its removal is the server's answer. */
const BREAKAGE: Readonly<Record<string, string>> = { Dockerfile: 'EXPOSE not-a-port\n', 'compose.yaml': 'broken: [\n' };

async function scaffold(request: Record<string, unknown>): Promise<ScaffoldResult> {
  const result = await vscode.commands.executeCommand<ScaffoldResult | undefined>('berth.addDockerFiles', { open: false, ...request });
  assert.ok(result, 'the command answered');
  return result;
}

async function project(root: string, name: string, files: Record<string, string>): Promise<string> {
  const folder = join(root, name);
  await mkdir(folder, { recursive: true });
  for (const [file, text] of Object.entries(files)) await writeFile(join(folder, file), text);
  return folder;
}

function messages(uri: vscode.Uri): string[] {
  return vscode.languages.getDiagnostics(uri).map((diagnostic) => `${diagnostic.range.start.line + 1}: ${diagnostic.message}`);
}

/**
 * The language server's diagnostics on the generated file. A file with no diagnostic looks the same before the
 * server has read it, so a line it must reject is added first and its diagnostic awaited; once the line is taken
 * out again the text is the generated one, and the server's answer for it is awaited.
 */
async function serverDiagnostics(path: string, languageId: string): Promise<string[]> {
  const generated = await readFile(path, 'utf8');
  const document = await vscode.workspace.openTextDocument(vscode.Uri.file(path));
  assert.equal(document.languageId, languageId, path);
  const editor = await vscode.window.showTextDocument(document);
  const end = document.lineAt(document.lineCount - 1).range.end;
  assert.ok(await editor.edit((edit) => edit.insert(end, BREAKAGE[path.endsWith('Dockerfile') ? 'Dockerfile' : 'compose.yaml'] ?? '')));
  await eventually(`the ${languageId} server's diagnostic on the added line of ${path}`, () => (messages(document.uri).length > 0 ? true : undefined));
  assert.ok(await editor.edit((edit) => edit.delete(new vscode.Range(end, document.lineAt(document.lineCount - 1).range.end))));
  assert.equal(document.getText(), generated, 'the document holds the generated text again');
  await document.save();
  return eventually(`the ${languageId} server's answer on ${path} as generated`, () => {
    const found = messages(document.uri);
    return found.length === 0 ? found : undefined;
  }).catch(() => messages(document.uri));
}

describe('Add Docker Files to Workspace', () => {
  let root: string;

  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'berth-it-scaffold-'));
    await vscode.extensions.getExtension(EXTENSION_ID)?.activate();
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await rm(root, { recursive: true, force: true });
  });

  for (const platform of Object.keys(PROJECTS) as Platform[]) {
    it(`${platform}: detected, and the Dockerfile and compose.yaml get 0 diagnostics from the language servers`, async () => {
      const folder = await project(root, platform, PROJECTS[platform]);
      const result = await scaffold({ folder, port: 8088 });
      assert.equal(result.detected, platform);
      assert.equal(result.platform, platform);
      assert.deepEqual(result.written, ['Dockerfile', '.dockerignore', 'compose.yaml']);
      const dockerfile = await readFile(join(folder, 'Dockerfile'), 'utf8');
      assert.match(dockerfile, /^EXPOSE 8088$/m);
      if (platform === 'generic') assert.match(dockerfile, /^FROM alpine:3\.20$[\s\S]*# Replace this with the command that starts your application\./m);
      assert.deepEqual(await serverDiagnostics(join(folder, 'Dockerfile'), 'dockerfile'), [], dockerfile);
      assert.deepEqual(await serverDiagnostics(join(folder, 'compose.yaml'), 'dockercompose'), []);
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    });
  }

  it('opens the Dockerfile at the end', async () => {
    const folder = await project(root, 'opened', PROJECTS.node);
    await scaffold({ folder, open: true });
    assert.equal(vscode.window.activeTextEditor?.document.uri.fsPath, join(folder, 'Dockerfile'));
    assert.match(vscode.window.activeTextEditor?.document.getText() ?? '', /^EXPOSE 3000$/m, "the platform's default port");
  });

  it('never overwrites without an answer: Skip keeps the file byte for byte and writes the others', async () => {
    const folder = await project(root, 'existing', { ...PROJECTS.python, Dockerfile: 'FROM busybox\n# mine, hand-written\n' });
    const before = await stat(join(folder, 'Dockerfile'));
    const result = await scaffold({ folder, overwrite: { Dockerfile: 'skip' } });
    assert.deepEqual(result.skipped, ['Dockerfile']);
    assert.deepEqual(result.written, ['.dockerignore', 'compose.yaml']);
    assert.equal(await readFile(join(folder, 'Dockerfile'), 'utf8'), 'FROM busybox\n# mine, hand-written\n');
    assert.equal((await stat(join(folder, 'Dockerfile'))).mtimeMs, before.mtimeMs);
    assert.match(await readFile(join(folder, 'compose.yaml'), 'utf8'), /^ {6}- "8000:8000"$/m);
  });

  it('Cancel on an existing file writes nothing at all; Overwrite replaces it', async () => {
    const folder = await project(root, 'cancelled', { ...PROJECTS.go, 'compose.yaml': 'services: {}\n' });
    assert.equal(await vscode.commands.executeCommand('berth.addDockerFiles', { folder, open: false, overwrite: 'cancel' }), undefined);
    assert.deepEqual((await readdir(folder)).sort(), ['compose.yaml', 'go.mod', 'main.go']);
    assert.equal(await readFile(join(folder, 'compose.yaml'), 'utf8'), 'services: {}\n');
    const replaced = await scaffold({ folder, overwrite: 'overwrite' });
    assert.deepEqual(replaced.written, ['Dockerfile', '.dockerignore', 'compose.yaml']);
    assert.match(await readFile(join(folder, 'compose.yaml'), 'utf8'), /^ {2}ships:$/m);
  });

  it('a port out of range is refused before anything is written', async () => {
    const folder = await project(root, 'bad-port', PROJECTS.node);
    await assert.rejects(Promise.resolve(vscode.commands.executeCommand('berth.addDockerFiles', { folder, port: 70000, open: false })), (error: Error) => {
      assert.match(error.message, scaffoldRowPattern('scaffold-port-range'));
      return true;
    });
    assert.deepEqual((await readdir(folder)).sort(), ['package-lock.json', 'package.json']);
  });

  it('a folder the user may not write in: a clear refusal, nothing written', async () => {
    const folder = await project(root, 'read-only', PROJECTS.node);
    // root writes through a mode of 0555, so as root the folder is made immutable instead (same refusal, EPERM).
    const asRoot = process.getuid?.() === 0;
    if (asRoot) await promisify(execFile)('chattr', ['+i', folder]);
    else await chmod(folder, 0o555);
    try {
      await assert.rejects(Promise.resolve(vscode.commands.executeCommand('berth.addDockerFiles', { folder, open: false })), (error: Error) => {
        assert.match(error.message, scaffoldRowPattern('scaffold-read-only'));
        assert.ok(error.message.includes(`in ${folder}:`), error.message);
        return true;
      });
    } finally {
      if (asRoot) await promisify(execFile)('chattr', ['-i', folder]);
      else await chmod(folder, 0o755);
    }
    assert.deepEqual((await readdir(folder)).sort(), ['package-lock.json', 'package.json']);
  });

  it('a folder where compose.yaml goes: refused with the reason, the files written before it kept', async () => {
    const folder = await project(root, 'in-the-way', PROJECTS.node);
    await mkdir(join(folder, 'compose.yaml'));
    await assert.rejects(Promise.resolve(vscode.commands.executeCommand('berth.addDockerFiles', { folder, open: false, overwrite: 'overwrite' })), (error: Error) => {
      assert.match(error.message, scaffoldRowPattern('scaffold-folder-in-the-way'));
      return true;
    });
    assert.match(await readFile(join(folder, 'Dockerfile'), 'utf8'), /^FROM node:20-alpine$/m);
    assert.match(await readFile(join(folder, '.dockerignore'), 'utf8'), /^node_modules$/m);
  });
});
