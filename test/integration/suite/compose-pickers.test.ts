// Issue 31 item 4: the Compose pickers (Compose Up's file pick from the palette, Select Services…, Select
// Profiles…) take the highlighted item on Enter when nothing is ticked, as every multi-pick of Berth does. They
// showed the item highlighted and did nothing on Enter. Driven as a user does: the command, then Enter.
// On both engines: the file pick through Compose Restart (it creates nothing) and the two pickers themselves; on
// dockerd also Select Services… and Select Profiles… through to the run (podman-compose always adds a network).
import * as assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { COMPOSE_LABELS, readComposeModel } from '../../../src/engine';
import { pickProfiles, pickServices } from '../../../src/compose/runCommands';
import { COMPOSE_FILE_GLOB } from '../../../src/compose/files';
import { composeYaml } from '../../support/composeProject';
import { eventually, suiteEngine, uniqueName, useConnectedSuite } from '../support/fixtures';

interface RunResult {
  exitCode: number | undefined;
  implementation: string;
  args: string[];
}

/** Presses Enter in the quick input until `work` settles (a picker shows a moment after the command starts). */
async function enterUntilSettled<T>(work: Thenable<T>): Promise<T> {
  let settled = false;
  const running = Promise.resolve(work).finally(() => (settled = true));
  await eventually(
    'the picker accepted Enter',
    async () => {
      if (settled) return true;
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
      return undefined;
    },
    120_000,
  );
  return running;
}

describe('Compose pickers: Enter with nothing ticked takes the highlighted item', () => {
  // Runs before the suite's client closes: what the dockerd case brought up goes, then the folder.
  const suite = useConnectedSuite(async () => {
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    const left = await suite.client.containers.list({ all: true, filters: { label: [`${COMPOSE_LABELS.project}=${project}`] } });
    for (const container of left) await suite.client.containers.remove(container.Id, { force: true }).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  });
  const { engines, client } = suite;
  const workspace = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath as string;
  const project = uniqueName('itpick').toLowerCase().replace(/[^a-z0-9]/g, '');
  const dir = join(workspace ?? '', project);
  const first = join(dir, 'compose.yaml');
  const second = join(dir, 'docker-compose.yml');
  const services = {
    web: { command: ['sleep', '600'] },
    db: { command: ['sleep', '600'] },
    debug: { command: ['sleep', '600'], profiles: ['debug'] },
    tools: { command: ['sleep', '600'], profiles: ['tools'] },
  };

  before(() => {
    assert.ok(workspace, 'the test workbench opened a folder');
    mkdirSync(dir, { recursive: true });
    writeFileSync(first, composeYaml(engines.image, services));
    writeFileSync(second, composeYaml(engines.image, { other: { command: ['sleep', '600'] } }));
  });

  it('the palette\'s compose file pick: Enter takes the highlighted (first) file alone', async () => {
    const found = await vscode.workspace.findFiles(COMPOSE_FILE_GLOB, '**/node_modules/**', 200);
    const highlighted = found.map((uri) => ({ label: vscode.workspace.asRelativePath(uri), path: uri.fsPath })).sort((a, b) => a.label.localeCompare(b.label))[0];
    assert.equal(highlighted?.path, first, 'precondition: this suite\'s compose.yaml sorts first in the workspace');
    // Restart of a project with no containers: the run creates nothing, and its arguments say which file was taken.
    const result = await enterUntilSettled(vscode.commands.executeCommand<RunResult | undefined>('berth.compose.restart'));
    assert.ok(result, 'Enter with nothing ticked did nothing (the command ended without a run)');
    const files = result.args.flatMap((arg, index) => (result.args[index - 1] === '-f' ? [arg] : []));
    assert.deepEqual(files, [first]);
  });

  it('Select Services… and Select Profiles…: Enter takes the highlighted service, then profile', async () => {
    const model = await readComposeModel([first]);
    assert.deepEqual(await enterUntilSettled(pickServices(model)), ['db'], 'services are sorted by name: db is highlighted');
    assert.deepEqual(await enterUntilSettled(pickProfiles(model)), ['debug'], 'profiles are sorted: debug is highlighted');
  });

  it('Compose Up – Select Services… and – Select Profiles… run what Enter took (dockerd)', async function () {
    if (suiteEngine().kind !== 'docker') {
      console.log('      skipped on podman: podman-compose 1.0.3 always adds its own network to an up; the pickers are checked above');
      this.skip();
    }
    this.timeout(180_000);
    const servicesRun = await enterUntilSettled(vscode.commands.executeCommand<RunResult | undefined>('berth.compose.upServices', { files: [first], projectName: project }));
    assert.equal(servicesRun?.exitCode, 0);
    assert.deepEqual(servicesRun.args.slice(-3), ['-d', '--', 'db']);
    const profilesRun = await enterUntilSettled(vscode.commands.executeCommand<RunResult | undefined>('berth.compose.upProfiles', { files: [first], projectName: project }));
    assert.equal(profilesRun?.exitCode, 0);
    await eventually('db, web and the debug profile\'s service are up, not tools', async () => {
      const list = await client.containers.list({ all: true, filters: { label: [`${COMPOSE_LABELS.project}=${project}`] } });
      const names = list.map((container) => container.Labels?.[COMPOSE_LABELS.service] ?? '').sort();
      return names.join(',') === 'db,debug,web' ? true : undefined;
    });
  });
});
