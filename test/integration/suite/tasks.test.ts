// The berth-build and berth-run task types in the real extension host: tasks written in the workspace's
// .vscode/tasks.json are found and run (the image is built, the container started in the background), the provider
// offers a build task per Dockerfile, and a failing RUN becomes a diagnostic on its Dockerfile line through the
// $berth-build problem matcher.
import * as assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { isEngineError } from '../../../src/engine';
import { eventually, useConnectedSuite } from '../support/fixtures';

describe('Tasks', () => {
  const { engines, client, containers } = useConnectedSuite();
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath as string;
  const stamp = Date.now().toString(36);
  const tag = containers.trackImage(`berth-it/task-${stamp}:latest`);
  const runName = `berth-it-task-run-${stamp}`;

  before(() => {
    assert.ok(folder, 'the test workbench opened a folder');
    mkdirSync(join(folder, 'task-app'), { recursive: true });
    mkdirSync(join(folder, 'task-failing'), { recursive: true });
    mkdirSync(join(folder, '.vscode'), { recursive: true });
    writeFileSync(join(folder, 'task-app', 'Dockerfile'), `FROM ${engines.image}\nLABEL from=task\n`);
    writeFileSync(join(folder, 'task-failing', 'Dockerfile'), `FROM ${engines.image}\n# a comment\n\nRUN exit 4\n`);
    const tasks = {
      version: '2.0.0',
      tasks: [
        { type: 'berth-build', label: `it build ${stamp}`, dockerfile: 'task-app/Dockerfile', tag },
        { type: 'berth-build', label: `it failing ${stamp}`, dockerfile: 'task-failing/Dockerfile', tag: `berth-it/task-failing-${stamp}` },
        { type: 'berth-run', label: `it run ${stamp}`, image: tag, command: ['sleep', '30'], name: runName, env: ['FROM_TASK=1'], labels: { 'berth.test': '1' } },
      ],
    };
    writeFileSync(join(folder, '.vscode', 'tasks.json'), JSON.stringify(tasks, null, 2));
  });

  async function taskNamed(label: string): Promise<vscode.Task> {
    return eventually(`task "${label}" from tasks.json`, async () => (await vscode.tasks.fetchTasks()).find((task) => task.name === label), 30_000);
  }

  async function runToEnd(task: vscode.Task): Promise<void> {
    const ended = new Promise<void>((resolve) => {
      const subscription = vscode.tasks.onDidEndTask((event) => {
        if (event.execution.task.name === task.name) {
          subscription.dispose();
          resolve();
        }
      });
    });
    await vscode.tasks.executeTask(task);
    await Promise.race([ended, new Promise((_, reject) => setTimeout(() => reject(new Error(`task ${task.name} did not end`)), 60_000))]);
  }

  it('runs a berth-build task from tasks.json, then a berth-run task of the image it built', async () => {
    await runToEnd(await taskNamed(`it build ${stamp}`));
    assert.equal((await client.images.inspect(tag)).Config?.Labels?.from, 'task');
    await runToEnd(await taskNamed(`it run ${stamp}`));
    const inspected = await client.containers.inspect(runName);
    containers.track(inspected.Id);
    assert.ok(inspected.State.Running, 'the berth-run task left the container running');
    assert.ok(inspected.Config.Env?.includes('FROM_TASK=1'));
  });

  it('offers a build task for each Dockerfile of the workspace', async () => {
    const provided = await vscode.tasks.fetchTasks({ type: 'berth-build' });
    const dockerfiles = provided.map((task) => String(task.definition['dockerfile']));
    assert.ok(dockerfiles.includes('task-app/Dockerfile') && dockerfiles.includes('task-failing/Dockerfile'), dockerfiles.join(', '));
  });

  it('a failing RUN becomes a diagnostic on its line of the Dockerfile', async () => {
    await runToEnd(await taskNamed(`it failing ${stamp}`));
    const uri = vscode.Uri.file(join(folder, 'task-failing', 'Dockerfile'));
    const diagnostic = await eventually('the build diagnostic', () => vscode.languages.getDiagnostics(uri).find((each) => each.source === 'berth'), 20_000);
    assert.equal(diagnostic.range.start.line, 3, 'line 4 of the Dockerfile (0-based 3), the RUN step');
    // dockerd: "returned a non-zero code: 4"; Buildah: "exit status 4".
    assert.match(diagnostic.message, /returned a non-zero code: 4|exit status 4/);
    await assert.rejects(client.images.inspect(`berth-it/task-failing-${stamp}`), (error: unknown) => isEngineError(error, 'not-found'));
  });
});
