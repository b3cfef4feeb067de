// Show Logs on a selection of containers: one terminal, their lines merged in timestamp order with name prefixes.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { MessageSplitter } from '../../../src/engine/compose';
import type { EngineClient } from '../../../src/engine';
import { eventually, modelShowsContainer, uniqueName, useConnectedSuite } from '../support/fixtures';

interface MergedResult {
  terminalName: string;
  lines: () => number;
  recent: () => string[];
  ended: () => boolean;
}

/** Each start prints `<tag>-<n>`, n counting the container's runs (kept in its own filesystem across restarts). */
function countingScript(tag: string): string[] {
  return ['sh', '-c', `n=$(cat /tmp/runs 2>/dev/null || echo 0); n=$((n+1)); echo $n > /tmp/runs; echo ${tag}-$n`];
}

interface StampedLine {
  readonly seconds: number;
  readonly nanos: number;
  readonly source: number;
  readonly text: string;
}

/** Each container's own stamped lines, read straight from the engine. */
async function stampedLines(client: EngineClient, id: string, source: number): Promise<StampedLine[]> {
  const lines: StampedLine[] = [];
  const splitter = new MessageSplitter(false, (_stream, seconds, nanos, text) => lines.push({ seconds, nanos, source, text }));
  for await (const chunk of client.containers.logs(id, { timestamps: true, tty: false, rawFrames: true })) splitter.push(chunk);
  splitter.end();
  return lines;
}

describe('merged logs of a selection', () => {
  const { client, containers } = useConnectedSuite();

  /** Runs the container once more and waits until it exited, so the runs of different containers never overlap. */
  async function runOnce(id: string): Promise<void> {
    await client.containers.start(id);
    await (await client.containers.wait(id, { condition: 'not-running' })).result;
  }

  it('Show Logs on three selected rows merges their lines in timestamp order with name prefixes; one row keeps its own terminal', async () => {
    // Same-length names, so the padded prefixes are known before the first line.
    const created = await Promise.all(['a', 'b', 'c'].map((tag) => containers.create({ name: uniqueName(`berth-it-merge-${tag}`), cmd: countingScript(tag), start: false })));
    for (const _round of [1, 2]) for (const container of created) await runOnce(container.id);
    for (const container of created) await modelShowsContainer(container.id, 'exited');
    // The engine's stamps decide the order; some engines stamp whole seconds, and equal stamps keep the order of
    // the selection (then each container's own order), as the Compose merge does.
    const stamped = (await Promise.all(created.map((container, index) => stampedLines(client, container.id, index)))).flat();
    const expected = stamped
      .map((line, position) => ({ line, position }))
      .sort((a, b) => a.line.seconds - b.line.seconds || a.line.nanos - b.line.nanos || a.line.source - b.line.source || a.position - b.position)
      .map(({ line }) => `${created[line.source]?.name} | ${line.text}`);
    assert.deepEqual(
      stamped.map((line) => line.text).sort(),
      ['a-1', 'a-2', 'b-1', 'b-2', 'c-1', 'c-2'],
      'each container logged its two runs',
    );
    const [first, second, third] = created.map((container) => container.id) as [string, string, string];

    const merged = await vscode.commands.executeCommand<MergedResult>('berth.showLogs', second, [first, second, third]);
    assert.equal(merged?.terminalName, `Logs: ${created.map((container) => container.name).join(', ')}`);
    assert.ok(vscode.window.terminals.some((terminal) => terminal.name === merged.terminalName), 'the merged terminal is open');
    // Every container has exited, so the reading ends by itself once their logs are read.
    const shown = await eventually('the merged reading to end', () => (merged.ended() ? merged.recent() : undefined));
    assert.deepEqual(shown, expected);

    // A row outside the selection acts alone, as a single row always did: its own terminal, not a merge.
    const single = await vscode.commands.executeCommand<{ terminalName: string; reused: boolean }>('berth.showLogs', first, [second, third]);
    assert.equal(single?.terminalName, `Logs: ${created[0]?.name}`);
    assert.equal('recent' in single, false, 'one row opens the single-container terminal');
  });
});
