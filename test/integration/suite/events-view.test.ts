// The Events view in the real extension host: events of containers changed outside the extension appear while the
// view is visible, Filter Events narrows them, and clicking one reveals its container in the Containers view (or
// says it no longer exists once it is removed).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { eventually, useConnectedSuite, viewShows } from '../support/fixtures';

describe('events view', () => {
  const { client, containers } = useConnectedSuite();

  before(async () => {
    // The view follows the engine only while it is shown.
    await vscode.commands.executeCommand('berth.events.focus');
  });

  after(async () => {
    await vscode.commands.executeCommand('berth.events.filter', '');
  });

  it('filters events by object and action and reveals the container of one', async () => {
    const { id, name } = await containers.create({ cmd: ['sleep', '300'] });
    await client.containers.stop(id, { timeoutSeconds: 0 });
    await vscode.commands.executeCommand('berth.events.filter', `${name} die`);
    const rows = await viewShows('events', [], `the die event of ${name}`, (shown) => (shown.some((row) => row.label === `container die ${name}`) ? shown : undefined));
    // The filter lets only that object's die through: its create and start stay out.
    assert.deepEqual(
      rows.map((row) => row.label),
      [`container die ${name}`],
    );
    assert.match(rows[0]?.description ?? '', /exitCode=137/);

    const nodes = await vscode.commands.executeCommand<unknown[]>('berth.internal.viewRowNodes', 'events', []);
    assert.equal(nodes.length, 1);
    const revealed = await vscode.commands.executeCommand<string>('berth.events.reveal', nodes[0]);
    assert.equal(revealed, 'container');
    await eventually('the container row is selected', async () =>
      ((await vscode.commands.executeCommand<string[]>('berth.internal.selectedContainerRows')) ?? []).includes(id) ? true : undefined,
    );

    await client.containers.remove(id, { force: true });
    await eventually('the container is gone from the model', async () => {
      const answer = await vscode.commands.executeCommand<string>('berth.events.reveal', nodes[0]);
      return answer === 'gone' ? true : undefined;
    });
  });
});
