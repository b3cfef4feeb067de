// The logs workbench in the real extension host, on dockerd and on Podman: Filter Logs on a followed logs editor keeps
// only the matching lines across a restart, says when a filter matches nothing, and is cleared without losing the
// stream; Save Logs writes the filtered view, and a 200 MB log byte for byte as `docker logs` prints it.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { eventually, useConnectedSuite } from '../support/fixtures';

const LOG_BYTES = 200_000_000;
/** 100 bytes a line with its newline. */
const LINE = 'the quick brown fox jumps over the lazy dog 0123456789 the quick brown fox jumps over the lazy dog';

/** The text of the open logs document at URI, looked up again each time (the provider replaces its content). */
async function documentText(uri: string): Promise<string> {
  const open = vscode.workspace.textDocuments.find((candidate) => candidate.uri.toString() === uri);
  return (open ?? (await vscode.workspace.openTextDocument(vscode.Uri.parse(uri)))).getText();
}

const outputLines = (text: string): string[] => text.split('\n').filter((line) => line !== '' && !line.startsWith('[Berth] '));
const count = (lines: readonly string[], wanted: string): number => lines.filter((line) => line === wanted).length;

async function sha256Of(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** `docker logs ID` on HOST, streamed: the hash and size of its stdout, and its stderr (expected empty). */
async function dockerLogs(host: string, id: string): Promise<{ hash: string; bytes: number; stderr: string }> {
  const child = spawn('docker', ['-H', host, 'logs', id], { env: { PATH: process.env.PATH ?? '', HOME: '/nonexistent' }, stdio: ['ignore', 'pipe', 'pipe'] });
  const hash = createHash('sha256');
  let bytes = 0;
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    hash.update(chunk);
    bytes += chunk.length;
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  assert.equal(code, 0, `docker logs ${id}: ${stderr}`);
  return { hash: hash.digest('hex'), bytes, stderr };
}

describe('the logs workbench', () => {
  const { client, containers, engine } = useConnectedSuite(() => (folder === '' ? Promise.resolve() : rm(folder, { recursive: true, force: true })));
  let folder = '';
  before(async () => {
    folder = await mkdtemp(join(tmpdir(), 'berth-it-logs-'));
  });

  it('Filter Logs on a followed logs editor keeps only matching lines across a restart; no match is said; Clear Filter keeps the stream', async function () {
    this.timeout(240_000);
    // Each run numbers its lines with a fresh id, so the lines of the two runs differ.
    const script = 'run=$(cat /proc/sys/kernel/random/uuid); i=0; while [ $i -lt 20 ]; do echo "keep $run $i"; echo "drop $run $i"; i=$((i+1)); done; echo "keep ready"; sleep 600';
    const { id, name } = await containers.create({ cmd: ['sh', '-c', script] });
    const opened = await vscode.commands.executeCommand<{ uri: string }>('berth.openLogsInEditor', id);
    assert.ok(opened?.uri.startsWith('berth-logs:'), `logs uri: ${opened?.uri}`);
    await eventually('the first run in the editor', async () => (count(outputLines(await documentText(opened.uri)), 'keep ready') === 1 ? true : undefined), 60_000);

    const nothing = await vscode.commands.executeCommand<{ shown: string }>('berth.logs.filter', vscode.Uri.parse(opened.uri), { text: 'no line has this' });
    assert.ok(nothing?.shown && nothing.shown !== opened.uri, `the document moves to the filter's URI: ${nothing?.shown}`);
    assert.match(decodeURIComponent(vscode.Uri.parse(nothing.shown).path), /no line has this/, 'the title names the filter');
    const empty = await eventually('the no-match line', async () => {
      const text = await documentText(nothing.shown);
      return text.startsWith('[Berth] No line matches') ? text : undefined;
    });
    assert.match(empty, /^\[Berth\] No line matches .*no line has this.* yet \(\d+ lines read\); still following\.\n/);
    assert.deepEqual(outputLines(empty), [], 'no container line is shown');

    const filtered = await vscode.commands.executeCommand<{ shown: string }>('berth.logs.filter', vscode.Uri.parse(nothing.shown), { text: '^keep', regex: true, caseSensitive: true });
    assert.ok(filtered?.shown, 'the filter was applied');
    await eventually('the first run judged again', async () => (count(outputLines(await documentText(filtered.shown)), 'keep ready') === 1 ? true : undefined));
    await client.containers.restart(id, { timeoutSeconds: 0 });
    const text = await eventually('the second run, filtered, in the editor', async () => {
      const value = await documentText(filtered.shown);
      return count(outputLines(value), 'keep ready') === 2 ? value : undefined;
    }, 120_000);
    const shown = outputLines(text);
    assert.deepEqual(shown.filter((line) => !line.startsWith('keep')), [], 'only matching lines');
    const numbered = shown.filter((line) => /^keep \S+ \d+$/.test(line));
    assert.equal(numbered.length, 40, 'twenty lines of each run');
    assert.equal(new Set(numbered).size, 40, 'none repeated');
    assert.equal(count(text.split('\n'), `[Berth] ${name} restarted`), 1, 'the restart is said once');

    // Save Logs from the filtered editor writes what it shows: the filter applies to the whole log.
    const savedPath = join(folder, 'filtered.log');
    const saved = await vscode.commands.executeCommand<{ linesWritten: number }>('berth.logs.save', vscode.Uri.parse(filtered.shown), { destination: savedPath });
    assert.equal(saved?.linesWritten, 42);
    const written = (await readFile(savedPath, 'utf8')).split('\n').filter((line) => line !== '');
    assert.deepEqual(written.sort(), [...shown].sort(), 'the file holds the lines the filtered editor shows');

    const cleared = await vscode.commands.executeCommand<{ shown: string }>('berth.logs.clearFilter', vscode.Uri.parse(filtered.shown));
    assert.ok(cleared?.shown, 'the filter was cleared');
    const all = outputLines(await eventually('every line again', async () => {
      const value = await documentText(cleared.shown);
      return outputLines(value).filter((line) => line.startsWith('drop ')).length === 40 ? value : undefined;
    }));
    assert.equal(all.filter((line) => /^keep \S+ \d+$/.test(line)).length, 40, 'the kept lines are still there, once each');
    await client.containers.restart(id, { timeoutSeconds: 0 });
    await eventually('a third run in the unfiltered editor: the stream went on', async () => (count(outputLines(await documentText(cleared.shown)), 'keep ready') === 3 ? true : undefined), 120_000);
  });

  it(`Save Logs writes a ${LOG_BYTES / 1_000_000} MB log byte for byte as docker logs prints it`, async function () {
    this.timeout(900_000);
    const { id } = await containers.create({ cmd: ['sh', '-c', `yes '${LINE}' | head -c ${LOG_BYTES}; echo`], start: false });
    const { result } = await client.containers.wait(id, { condition: 'next-exit' });
    await client.containers.start(id);
    assert.equal((await result).StatusCode, 0);
    const path = join(folder, 'big.log');
    const saved = await vscode.commands.executeCommand<{ bytes: number }>('berth.logs.save', id, { destination: path });
    assert.ok(saved, 'Save Logs resolved with what it wrote');
    const docker = await dockerLogs(engine.host, id);
    assert.equal(docker.stderr, '');
    assert.ok(docker.bytes > LOG_BYTES, `docker logs printed ${docker.bytes} bytes`);
    assert.equal(saved.bytes, docker.bytes, 'the bytes Save Logs says it wrote');
    assert.equal((await stat(path)).size, docker.bytes, 'the size of the file');
    assert.equal(await sha256Of(path), docker.hash, 'the file is what docker logs prints');
    await rm(path);
  });
});
