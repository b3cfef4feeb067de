// Download in the real extension host from a hostile engine: an in-process fake on a Unix socket (a quiet engine plus
// the archive endpoint's wire format) serves the security review's three archives (issue 32). Download must refuse
// each with the bad-input row's words, and every sentinel beside the destination must stay unchanged.
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { expectedMessage } from '../../engine/engine/bad-input-cases';
import { quietEngineRoute, sendJson, startFakeEngine, type FakeEngine } from '../../support/fakeEngine';
import { archiveRoute, reviewArchives, sentinelTree, snapshotOutside, tarOf, type ServedArchive } from '../../support/hostileArchive';
import { activateBerth, berthLogText, eventually, modelState, setBerthSetting, snapshot } from '../support/fixtures';

describe('Download from a hostile engine', function () {
  this.timeout(120_000);
  let fake: FakeEngine;
  let served: ServedArchive | undefined;
  let scratch = '';
  let engineId = '';

  before(async () => {
    await activateBerth();
    fake = await startFakeEngine([quietEngineRoute((response) => sendJson(response, 200, [])), archiveRoute((path) => (path === '/app' ? served : undefined))]);
    scratch = mkdtempSync(join(tmpdir(), 'berth-it-hostile-'));
    await setBerthSetting('engine.host', fake.host);
    await eventually('the model connected to the fake engine', async () => {
      const current = await snapshot();
      return current.state === 'connected' && current.endpoint === fake.host ? current : undefined;
    });
    engineId = (await vscode.commands.executeCommand<{ engine: string }>('berth.internal.modelSnapshot'))?.engine ?? 'local';
  });

  after(async () => {
    await setBerthSetting('engine.host', undefined);
    await modelState('connected');
    await fake?.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  for (const [index, review] of reviewArchives('OUTSIDE').entries()) {
    it(`refuses ${review.title}, naming the entry, and changes nothing beside the destination`, async () => {
      const base = join(scratch, `review-${index}`);
      mkdirSync(base);
      const { outside, dest } = sentinelTree(base);
      served = { kind: 'directory', tar: await tarOf(review.entries.map((entry) => ({ ...entry, linkname: entry.linkname?.replace('OUTSIDE', outside) }))) };
      const destination = join(dest, 'app');
      const before = snapshotOutside(base, destination);
      const source = vscode.Uri.from({ scheme: 'berth-container', authority: engineId, path: '/hostile/app' });
      const result = await vscode.commands.executeCommand<string | undefined>('berth.files.download', source, { destination });
      assert.equal(result, undefined);
      const expected = `Downloading from the container failed: EngineError: ${expectedMessage(review.id, { destination: join(realpathSync(dest), 'app') })}`;
      await eventually('the refusal in the log', async () => ((await berthLogText()).includes(expected) ? true : undefined));
      assert.deepEqual(snapshotOutside(base, destination), before);
      assert.equal(readFileSync(join(outside, 'victim'), 'utf8'), 'victim: unchanged\n');
      assert.equal(readFileSync(join(dest, '.bashrc'), 'utf8'), 'bashrc: unchanged\n');
    });
  }
});
