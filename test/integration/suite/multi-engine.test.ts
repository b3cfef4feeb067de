// Several engines at once, in the real trees: `berth.engines` adds the other private engine (Podman in the dockerd
// pass, the dockerd in the Podman pass) beside the one berth.engine.host names. Both become root rows with their
// status, and each engine's containers and images are under its own row.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { EngineClient } from '../../../src/engine';
import { sameReference, type EngineKind } from '../support/engineKind';
import {
  TestContainers, activateBerth, engineClient, engineSummaries, eventually, modelState, setBerthSetting, suiteEngine,
  testEngines, uniqueName, viewRows, viewShows, type EngineSummary, type TreeRow,
} from '../support/fixtures';

interface Side {
  kind: EngineKind;
  host: string;
  client: EngineClient;
  containers: TestContainers;
  summary?: EngineSummary;
}

const PRODUCT: Record<EngineKind, string> = { docker: 'Docker', podman: 'Podman' };
/** `Docker 20.10.24 · API 1.41`, `Podman 4.3.1 · API 1.41`: what a connected engine's row says. */
const CONNECTED_STATUS = /^(Docker|Podman) \S+ · API \d+\.\d+$/;

/** The markdown tooltip with its escapes undone, to look for plain text in it. */
function plainTooltip(row: TreeRow): string {
  return (row.tooltip ?? '').replace(/\\(.)/g, '$1');
}

describe('several engines: dockerd and Podman side by side', function () {
  this.timeout(120_000);
  const engines = testEngines();
  const engine = suiteEngine(engines);
  const otherName = 'berth-it-other';
  let sides: { current: Side; other: Side } | undefined;
  let enginesBefore = 0;

  before(async function () {
    const podmanHost = engines.podmanHost;
    if (!podmanHost) {
      console.log('      skipped: engines.json has no podmanHost (Podman cannot run containers here)');
      this.skip();
    }
    await activateBerth();
    await modelState('connected');
    // busybox sh as PID 1 ignores SIGTERM: a short graceful wait keeps Stop quick.
    await setBerthSetting('stop.timeoutSeconds', 1);
    enginesBefore = (await engineSummaries()).length;
    const otherKind: EngineKind = engine.kind === 'docker' ? 'podman' : 'docker';
    const otherHost = otherKind === 'docker' ? engines.dockerHost : podmanHost;
    const side = (kind: EngineKind, host: string): Side => {
      const client = engineClient(host);
      return { kind, host, client, containers: new TestContainers(client, engines.image) };
    };
    sides = { current: side(engine.kind, engine.host), other: side(otherKind, otherHost) };
    await setBerthSetting('engines', [{ name: otherName, host: otherHost }]);
    const summaries = await eventually('both engines connected', async () => {
      const all = await engineSummaries();
      const current = all.find((summary) => summary.endpoint === engine.host);
      const other = all.find((summary) => summary.endpoint === otherHost);
      return current?.state === 'connected' && other?.state === 'connected' && other.product ? { current, other } : undefined;
    }, 60_000);
    sides.current.summary = summaries.current;
    sides.other.summary = summaries.other;
  });

  after(async () => {
    for (const side of [sides?.current, sides?.other]) {
      await side?.containers.cleanup();
      await side?.client.close();
    }
    await setBerthSetting('engines', undefined);
    await setBerthSetting('stop.timeoutSeconds', undefined);
    // Leave one engine for whatever runs next: the views lose their engine level again.
    await eventually('the added engine gone', async () => ((await engineSummaries()).length === enginesBefore ? true : undefined), 30_000);
  });

  function both(): { current: Required<Side>; other: Required<Side> } {
    assert.ok(sides?.current.summary && sides.other.summary, 'the engines were set up');
    return sides as { current: Required<Side>; other: Required<Side> };
  }

  it('lists the added engine with its product, the current one unchanged', () => {
    const { current, other } = both();
    assert.equal(current.summary.current, true);
    assert.equal(current.summary.product, PRODUCT[current.kind]);
    assert.equal(other.summary.id, `settings:${otherName}`);
    assert.equal(other.summary.name, otherName);
    assert.equal(other.summary.origin, 'settings');
    assert.equal(other.summary.current, false);
    assert.equal(other.summary.product, PRODUCT[other.kind]);
  });

  for (const view of ['containers', 'images'] as const) {
    it(`the ${view} view has one root row per engine with its status`, async () => {
      const { current, other } = both();
      const roots = await viewShows(view, [], 'both engine rows, connected', (rows) => {
        const currentRow = rows.find((row) => row.label === current.summary.name);
        const otherRow = rows.find((row) => row.label === otherName);
        return currentRow?.contextValue === 'berth:engine:connected' && otherRow?.contextValue === 'berth:engine:connected'
          ? { currentRow, otherRow }
          : undefined;
      });
      for (const [side, row] of [[current, roots.currentRow], [other, roots.otherRow]] as const) {
        const status = side.summary.current ? row.description?.replace(/ · current$/, '') : row.description;
        assert.match(status ?? '', CONNECTED_STATUS, `${row.label}: ${row.description ?? ''}`);
        assert.ok(status?.startsWith(`${PRODUCT[side.kind]} `), `${row.label} is ${PRODUCT[side.kind]}: ${row.description ?? ''}`);
        assert.equal(row.id, `engine:${side.summary.id}`);
        assert.equal(row.collapsible, true);
        assert.ok(plainTooltip(row).includes(`Endpoint: ${side.host}`), plainTooltip(row));
      }
      assert.ok(roots.currentRow.description?.endsWith(' · current'), roots.currentRow.description);
      assert.ok(!roots.otherRow.description?.includes('current'), roots.otherRow.description);
    });
  }

  it('each engine\'s containers are under its own row, and only there', async () => {
    const { current, other } = both();
    const mine = await current.containers.create({ cmd: ['sleep', '300'] });
    const theirs = await other.containers.create({ cmd: ['sleep', '300'] });
    for (const [side, made, foreign] of [[current, mine, theirs], [other, theirs, mine]] as const) {
      const rows = await viewShows('containers', [side.summary.name], `${made.name} under ${side.summary.name}`, (current) =>
        current.some((row) => row.label === made.name && row.contextValue === 'berth:container:running') ? current : undefined);
      const row = rows.find((candidate) => candidate.label === made.name);
      assert.equal(row?.id, `engine:${side.summary.id}/container:${made.id.slice(0, 12)}`);
      assert.equal(rows.some((candidate) => candidate.label === foreign.name), false, `${foreign.name} is not under ${side.summary.name}`);
    }
  });

  it('Filter… keeps the matching containers under each engine\'s row and counts both engines in N of M', async () => {
    const { current, other } = both();
    const stem = uniqueName('berth-it-mfilter');
    const made = async (side: Side, suffix: string): Promise<{ id: string; name: string }> => side.containers.create({ cmd: ['sleep', '300'], name: `${stem}-${suffix}` });
    const pairs = [
      { side: current, kept: await made(current, 'kept-a'), hidden: await made(current, 'hid-a') },
      { side: other, kept: await made(other, 'kept-b'), hidden: await made(other, 'hid-b') },
    ];
    try {
      await vscode.commands.executeCommand('berth.containers.filter', `${stem}-KEPT`);
      for (const { side, kept, hidden } of pairs) {
        await viewShows('containers', [side.summary.name], `only ${kept.name} under ${side.summary.name}`, (rows) =>
          rows.some((row) => row.label === kept.name) && !rows.some((row) => row.label === hidden.name) ? true : undefined);
      }
      const counts = await eventually('N of M over both engines', async () => {
        const match = /^(\d+) of (\d+)$/.exec((await vscode.commands.executeCommand<string | undefined>('berth.internal.viewDescription', 'containers')) ?? '');
        return match?.[1] === '2' ? Number(match[2]) : undefined;
      });
      assert.ok(counts >= 4, `M counts the rows of both engines: ${counts}`);
    } finally {
      await vscode.commands.executeCommand('berth.containers.clearFilter');
    }
  });

  it('each engine\'s row holds its own images, spelled as that engine names them', async () => {
    const { current, other } = both();
    for (const side of [current, other]) {
      const rows = await viewRows('images', [side.summary.name]);
      const image = rows.find((row) => sameReference(side.kind, row.label, engines.image));
      assert.ok(image, `${engines.image} under ${side.summary.name}: ${rows.map((row) => row.label).join(', ')}`);
      assert.equal(image.contextValue, 'berth:image:tagged');
      assert.ok(image.id?.startsWith(`engine:${side.summary.id}/image:`), image.id);
    }
  });

  it('an item command given the other engine acts there, and that engine\'s row follows', async () => {
    const { other } = both();
    const { id, name } = await other.containers.create({ cmd: ['sleep', '300'] });
    await viewShows('containers', [otherName], `${name} running under ${otherName}`, (rows) =>
      rows.some((row) => row.label === name && row.contextValue === 'berth:container:running') ? true : undefined);
    const result = await vscode.commands.executeCommand<{ stopped: string[] }>('berth.stop', id, {
      engine: other.summary.id,
      confirmed: true,
    });
    assert.deepEqual(result?.stopped, [id]);
    assert.equal((await other.client.containers.inspect(id)).State.Running, false);
    await viewShows('containers', [otherName], `${name} stopped under ${otherName}`, (rows) =>
      rows.some((row) => row.label === name && row.contextValue === 'berth:container:exited') ? true : undefined);
  });

  it('Use Engine makes the named engine current, and Switch Context switches back', async () => {
    const { current, other } = both();
    const currentEndpoint = async (): Promise<string | undefined> => (await engineSummaries()).find((summary) => summary.current)?.endpoint;
    assert.equal(await currentEndpoint(), current.host);
    try {
      const used = await vscode.commands.executeCommand<{ engine: string; name: string } | undefined>('berth.useEngine', otherName);
      assert.deepEqual(used, { engine: other.summary.id, name: otherName });
      await eventually(`${otherName} current`, async () => ((await currentEndpoint()) === other.host ? true : undefined));
      const switched = await vscode.commands.executeCommand<{ engine: string; name: string } | undefined>('berth.switchContext', current.summary.id);
      assert.equal(switched?.engine, current.summary.id);
      await eventually('the suite engine current again', async () => ((await currentEndpoint()) === current.host ? true : undefined));
    } finally {
      if ((await currentEndpoint()) !== current.host) await vscode.commands.executeCommand('berth.useEngine', current.summary.id);
    }
  });
});
