// Show Logs on a selection of containers: one terminal, their lines merged in timestamp order with name prefixes.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { eventually, modelShowsContainer, uniqueName, useConnectedSuite } from '../support/fixtures';

interface MergedResult {
  terminalName: string;
  lines: () => number;
  recent: () => string[];
}

/** Each start prints `<tag>-<n>`, n counting the container's runs (kept in its own filesystem across restarts). */
function countingScript(tag: string): string[] {
  return ['sh', '-c', `n=$(cat /tmp/runs 2>/dev/null || echo 0); n=$((n+1)); echo $n > /tmp/runs; echo ${tag}-$n`];
}

describe('merged logs of a selection', () => {
  const { client, containers } = useConnectedSuite();

  /** Runs the container once more and waits until it exited, so the runs of different containers never overlap. */
  async function runOnce(id: string): Promise<void> {
    await client.startContainer(id);
    await (await client.waitContainer(id, { condition: 'not-running' })).result;
  }

  it('Show Logs on three selected rows merges their lines in timestamp order with name prefixes; one row keeps its own terminal', async () => {
    // Same-length names, so the padded prefixes are known before the first line.
    const created = await Promise.all(['a', 'b', 'c'].map((tag) => containers.create({ name: uniqueName(`berth-it-merge-${tag}`), cmd: countingScript(tag), start: false })));
    const tags = ['a', 'b', 'c'];
    const expected: string[] = [];
    for (const round of [1, 2]) {
      for (const [index, container] of created.entries()) {
        await runOnce(container.id);
        expected.push(`${container.name} | ${tags[index]}-${round}`);
      }
    }
    for (const container of created) await modelShowsContainer(container.id, 'exited');
    const [first, second, third] = created.map((container) => container.id) as [string, string, string];

    const merged = await vscode.commands.executeCommand<MergedResult>('berth.showLogs', second, [first, second, third]);
    assert.equal(merged?.terminalName, `Logs: ${created.map((container) => container.name).join(', ')}`);
    assert.ok(vscode.window.terminals.some((terminal) => terminal.name === merged.terminalName), 'the merged terminal is open');
    const shown = await eventually('all six lines in the merged terminal', () => (merged.lines() >= 6 ? merged.recent() : undefined));
    assert.deepEqual(shown, expected);

    // A row outside the selection acts alone, as a single row always did: its own terminal, not a merge.
    const single = await vscode.commands.executeCommand<{ terminalName: string; reused: boolean }>('berth.showLogs', first, [second, third]);
    assert.equal(single?.terminalName, `Logs: ${created[0]?.name}`);
    assert.equal('recent' in single, false, 'one row opens the single-container terminal');
  });
});
