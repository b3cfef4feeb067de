// Compose in the real extension host. On dockerd: a project brought up by Debian's docker-compose OUTSIDE the
// extension is grouped (with its place in the tooltip); Compose Up with a service subset and with a profile, and
// Compose Down, run as tasks of the same docker-compose against the engine the explorer shows; the merged logs
// document follows a restart and a scale-up. On both engines: the group actions through the API.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { COMPOSE_LABELS } from '../../../src/engine';
import { composeFixture, type ComposeFixture } from '../../support/composeProject';
import { eventually, modelShowsContainer, skipUnlessDocker, uniqueName, useConnectedSuite, viewRows, viewShows } from '../support/fixtures';

const ticker = (name: string): string[] => ['sh', '-c', `i=0; while true; do echo ${name} $i; i=$((i+1)); sleep 0.3; done`];
const projectName = (prefix: string): string => uniqueName(prefix).toLowerCase().replace(/[^a-z0-9]/g, '');

interface RunResult {
  exitCode: number | undefined;
  implementation: string;
  args: string[];
}

type Client = ReturnType<typeof useConnectedSuite>['client'];

/** The project's containers as the engine lists them. */
async function projectContainers(client: Client, project: string): Promise<Array<{ id: string; state: string; service: string }>> {
  const list = await client.containers.list({ all: true, filters: { label: [`${COMPOSE_LABELS.project}=${project}`] } });
  return list.map((container) => ({ id: container.Id, state: container.State, service: container.Labels?.[COMPOSE_LABELS.service] ?? '' }));
}

describe('Compose', () => {
  const { engine, engines, client, containers } = useConnectedSuite();

  describe('with docker-compose on dockerd', () => {
    let fixture: ComposeFixture | undefined;
    before(function () {
      skipUnlessDocker(this, 'podman-compose 1.0.3 cannot run a network_mode: none service (it always adds its own network); the group actions below run on Podman');
    });
    afterEach(async () => {
      await fixture?.dispose();
      fixture = undefined;
    });

    it('groups a project brought up outside the extension, with its working dir and config files', async () => {
      fixture = await composeFixture(engine.host, engines.image, projectName('itgrp'), { web: { command: ['sleep', '600'] }, db: { command: ['sleep', '600'] } });
      await fixture.compose(['up', '-d']);
      const group = await viewShows('containers', [], `the group row of ${fixture.project}`, (rows) => rows.find((row) => row.label === fixture?.project && row.description === '2/2 running'));
      assert.equal(group.contextValue, 'berth:group:compose');
      // Markdown-escaped in the tooltip: compare with the escapes taken out.
      const tooltip = (group.tooltip ?? '').replace(/\\(.)/g, '$1');
      assert.ok(tooltip.includes(`Working directory: ${fixture.dir}`), tooltip);
      assert.ok(tooltip.includes(`- ${fixture.file}`), tooltip);
      const members = await viewRows('containers', [fixture.project]);
      assert.deepEqual(members.map((row) => row.label).sort(), [`${fixture.project}_db_1`, `${fixture.project}_web_1`]);
    });

    it('Compose Up with a service subset, then with a profile; Compose Down removes the project', async () => {
      fixture = await composeFixture(engine.host, engines.image, projectName('itup'), {
        web: { command: ['sleep', '600'] },
        db: { command: ['sleep', '600'] },
        debug: { command: ['sleep', '600'], profiles: ['debug'] },
      });
      const project = fixture.project;
      const files = [fixture.file];
      const subset = await vscode.commands.executeCommand<RunResult>('berth.compose.up', { files, projectName: project, services: ['web'] });
      assert.equal(subset.exitCode, 0);
      assert.equal(subset.implementation, 'docker-compose');
      assert.deepEqual(subset.args, ['-f', fixture.file, '-p', project, 'up', '-d', '--', 'web']);
      await eventually('only web is up', async () => {
        const list = await projectContainers(client, project);
        return list.length === 1 && list[0]?.service === 'web' && list[0].state === 'running' ? true : undefined;
      });
      const withProfile = await vscode.commands.executeCommand<RunResult>('berth.compose.up', { files, projectName: project, profiles: ['debug'] });
      assert.equal(withProfile.exitCode, 0);
      await eventually('web, db and the debug profile\'s service are up', async () => {
        const services = (await projectContainers(client, project)).map((container) => container.service).sort();
        return services.join(',') === 'db,debug,web' ? true : undefined;
      });
      const down = await vscode.commands.executeCommand<RunResult>('berth.compose.down', { files, projectName: project, volumes: false });
      assert.equal(down.exitCode, 0);
      await eventually('the project is gone', async () => ((await projectContainers(client, project)).length === 0 ? true : undefined));
      await viewShows('containers', [], 'no group row left', (rows) => (rows.some((row) => row.label === project) ? undefined : true));
    });

    it('refuses an unknown service before any process starts', async () => {
      fixture = await composeFixture(engine.host, engines.image, projectName('itbad'), { web: { command: ['sleep', '600'] } });
      await assert.rejects(
        Promise.resolve(vscode.commands.executeCommand('berth.compose.up', { files: [fixture.file], services: ['api'] })),
        (error: Error) => error.message === `No service "api" in ${fixture?.file ?? ''}. Services there: web`,
      );
      assert.equal((await projectContainers(client, fixture.project)).length, 0);
    });

    it('the merged logs document follows a restarted service and a scaled-up one', async () => {
      fixture = await composeFixture(engine.host, engines.image, projectName('itlogs'), { web: { command: ticker('web') }, db: { command: ticker('db') } });
      await fixture.compose(['up', '-d']);
      const project = fixture.project;
      await eventually('the model knows the project', async () => ((await projectContainers(client, project)).length === 2 ? true : undefined));
      const opened = await vscode.commands.executeCommand<{ uri: string }>('berth.compose.logsInEditor', { project });
      const document = () => vscode.workspace.textDocuments.find((candidate) => candidate.uri.toString() === opened.uri);
      await eventually('both services in the document, prefixed', () => {
        const text = document()?.getText() ?? '';
        return /^web \| web \d+$/m.test(text) && /^db {2}\| db \d+$/m.test(text) ? true : undefined;
      });
      const web = (await projectContainers(client, project)).find((container) => container.service === 'web');
      assert.ok(web);
      await client.containers.restart(web.id, { timeoutSeconds: 0 });
      await eventually('the restart is told and web writes from 0 again', () => {
        const text = document()?.getText() ?? '';
        const after = text.slice(text.indexOf('[Berth] web restarted'));
        return text.includes('[Berth] web restarted') && /web \| web 0$/m.test(after) ? true : undefined;
      }, 30_000);
      await fixture.compose(['up', '-d', '--scale', 'web=2', '--no-recreate']);
      await eventually('the second web container joins', () => (/^web-2 \| web \d+$/m.test(document()?.getText() ?? '') ? true : undefined), 30_000);
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    });
  });

  describe('group actions through the API', () => {
    const project = projectName('itapi');
    const labels = (service: string): Record<string, string> => ({ [COMPOSE_LABELS.project]: project, [COMPOSE_LABELS.service]: service });

    it('stop, start, restart and remove every container of the project, under one progress', async () => {
      const made = [await containers.create({ cmd: ['sleep', '600'], labels: labels('a') }), await containers.create({ cmd: ['sleep', '600'], labels: labels('b') }), await containers.create({ cmd: ['sleep', '600'], labels: labels('c') })];
      for (const container of made) await modelShowsContainer(container.id, 'running');
      await viewShows('containers', [], 'the group row', (rows) => rows.find((row) => row.label === project && row.description === '3/3 running'));
      const stopped = await vscode.commands.executeCommand<{ done: string[]; failed: string[] }>('berth.compose.stopProject', { project });
      assert.equal(stopped.done.length, 3);
      assert.deepEqual(stopped.failed, []);
      await viewShows('containers', [], 'the group row at 0/3', (rows) => rows.find((row) => row.label === project && row.description === '0/3 running'));
      const started = await vscode.commands.executeCommand<{ done: string[] }>('berth.compose.startProject', { project });
      assert.equal(started.done.length, 3);
      for (const container of made) await modelShowsContainer(container.id, 'running');
      const restarted = await vscode.commands.executeCommand<{ done: string[] }>('berth.compose.restartProject', { project });
      assert.deepEqual([...restarted.done].sort(), made.map((container) => container.name).sort());
      const removed = await vscode.commands.executeCommand<{ done: string[] }>('berth.compose.removeProject', { project, confirmed: true });
      assert.equal(removed.done.length, 3);
      for (const container of made) await modelShowsContainer(container.id, 'absent');
      await viewShows('containers', [], 'no group row left', (rows) => (rows.some((row) => row.label === project) ? undefined : true));
    });
  });
});
