// Health in the Containers view, as VS Code renders the rows, from a real healthcheck on the private dockerd: a
// container whose check fails shows "(unhealthy)" with the check's own output in its tooltip, one whose check passes
// "(healthy)", each moved by the engine's health_status events; berth.containers.onlyUnhealthy leaves only the
// unhealthy one. The Podman pass skips it: Podman 4.3 runs healthchecks from systemd timers, which its private
// service here does not have (its containers stay "starting" and no health_status event comes).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { containerSpec } from '../../support/containerSpec';
import { execOutput, setBerthSetting, uniqueName, useConnectedSuite, viewShows, type TreeRow } from '../support/fixtures';

const SECOND_NS = 1_000_000_000;
const CHECK = 'test -f /tmp/ready || { echo "not ready: /tmp/ready is missing"; exit 1; }';

describe('health in the Containers view', () => {
  const { client, containers, engines, engine } = useConnectedSuite();

  before(function () {
    if (engine.kind !== 'docker') this.skip();
  });

  after(async () => {
    await setBerthSetting('containers.onlyUnhealthy', undefined);
    await setBerthSetting('containers.showStats', undefined);
  });

  async function withHealthcheck(): Promise<{ id: string; name: string }> {
    const name = uniqueName('berth-it-health');
    const body = containerSpec(engines.image, ['sleep', '600'], {
      Healthcheck: { Test: ['CMD-SHELL', CHECK], Interval: SECOND_NS / 2, Timeout: 5 * SECOND_NS, Retries: 1 },
    });
    const { Id } = await client.containers.create(body, { name });
    containers.track(Id);
    await client.containers.start(Id);
    return { id: Id, name };
  }

  const rowOf = (name: string) => (rows: TreeRow[]) => rows.find((row) => row.label === name);

  it('a failing check shows (unhealthy) and its output in the tooltip; a passing one (healthy); only-unhealthy leaves the failing one', async () => {
    // The stats figures would share the description and tooltip: off, so the health text stands alone.
    await setBerthSetting('containers.showStats', false);
    const failing = await withHealthcheck();
    const passing = await withHealthcheck();
    await execOutput(client, passing.id, ['touch', '/tmp/ready']);

    const unhealthy = await viewShows('containers', [], `${failing.name} unhealthy, with the check's output`, (rows) => {
      const row = rowOf(failing.name)(rows);
      return row?.description?.includes('(unhealthy)') && row.tooltip?.includes('not ready') ? row : undefined;
    });
    assert.match(unhealthy.tooltip ?? '', /Last health check \(exit code 1\): not ready/);
    assert.match(unhealthy.tooltip ?? '', /ready is missing/);
    await viewShows('containers', [], `${passing.name} healthy`, (rows) => (rowOf(passing.name)(rows)?.description?.includes('(healthy)') ? true : undefined));

    await setBerthSetting('containers.onlyUnhealthy', true);
    const filtered = await viewShows('containers', [], 'only the unhealthy container', (rows) =>
      rowOf(failing.name)(rows) !== undefined && rowOf(passing.name)(rows) === undefined ? rows : undefined,
    );
    assert.ok(filtered.every((row) => !row.contextValue?.startsWith('berth:container:') || row.description?.includes('(unhealthy)')), filtered.map((row) => `${row.label}: ${row.description ?? ''}`).join('; '));

    // The failing one recovers: its health_status event moves it out of the filtered view.
    await execOutput(client, failing.id, ['touch', '/tmp/ready']);
    await viewShows('containers', [], `${failing.name} gone from the unhealthy-only view once healthy`, (rows) => (rowOf(failing.name)(rows) === undefined ? true : undefined));
    await setBerthSetting('containers.onlyUnhealthy', undefined);
    await viewShows('containers', [], `${failing.name} back, now healthy`, (rows) => (rowOf(failing.name)(rows)?.description?.includes('(healthy)') ? true : undefined));
    await vscode.commands.executeCommand('berth.containers.focus');
  });
});
