// Relative times in the real workbench (issue 18): a container started while Berth's views are hidden, the view
// opened, and 70 s later its row reads what `docker ps` prints for it at that moment. The row must have moved on
// from the seconds it showed first: computed when shown and refreshed at its own boundaries, not once per fetch.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { EngineClient } from '../../src/engine';
import { containerSpec } from '../support/containerSpec';
import { uniqueName } from '../support/engines';
import type { WorkbenchDriver } from './driver';

const execFileAsync = promisify(execFile);

export const AGING_ROW_CASE = 'a container started before the view opened reads, 70 s later, what `docker ps` prints for it';
const WAIT_MS = 70_000;

export interface AgingRowSetup {
  driver: WorkbenchDriver;
  client: EngineClient;
  image: string;
  dockerHost: string;
  cleanup: string[];
}

/** `docker ps`'s STATUS; the listing's `Status` (what docker ps prints) where the CLI is not installed. */
async function dockerPsStatus(client: EngineClient, dockerHost: string, id: string): Promise<{ status: string; from: string }> {
  try {
    const { stdout } = await execFileAsync('docker', ['-H', dockerHost, 'ps', '--all', '--no-trunc', '--filter', `id=${id}`, '--format', '{{.Status}}']);
    return { status: stdout.trim(), from: 'docker ps' };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    const [listed] = await client.containers.list({ all: true, filters: { id: [id] } });
    return { status: listed?.Status ?? '', from: 'GET /containers/json (no docker CLI here)' };
  }
}

export async function agingRow(setup: AgingRowSetup, screenshot: () => Promise<void>): Promise<void> {
  const { driver, client } = setup;
  // Berth's views hidden: the Explorer shown in the side bar instead.
  await driver.openViewContainer('Explorer');
  const name = uniqueName('berth-e2e-aging');
  const { Id } = await client.containers.create(containerSpec(setup.image, ['sleep', '600']), { name });
  setup.cleanup.push(Id);
  await client.containers.start(Id);
  await driver.openViewContainer('Berth');
  const row = driver.treeRow('Containers', name);
  const first = await driver.waitForText(() => row.innerText(), /Up (Less than a second|\d+ seconds?)/, 'the new row in seconds');
  await driver.page.waitForTimeout(WAIT_MS);
  const shown = (await row.innerText()).replace(/\s+/g, ' ').trim();
  const docker = await dockerPsStatus(client, setup.dockerHost, Id);
  if (docker.status !== 'Up About a minute') throw new Error(`${docker.from} says "${docker.status}" after ${WAIT_MS / 1000} s: the case's timing is off`);
  // The status ends the model's part of the row; live CPU and memory (`· 0.0% · 592 KiB`) may follow it.
  const at = shown.lastIndexOf(`· ${docker.status}`);
  const after = at < 0 ? undefined : shown.slice(at + `· ${docker.status}`.length);
  if (after === undefined || !/^(?: · (?:\d+(?:\.\d+)?%|n\/a) · \S+(?: \S+)?)?$/.test(after)) {
    throw new Error(`the row reads "${shown}" while ${docker.from} says "${docker.status}" (it first read "${first.replace(/\s+/g, ' ').trim()}")`);
  }
  await screenshot();
}
