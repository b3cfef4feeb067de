// The listing saved for the next window (src/model/savedListing.ts, savedListingKeeper.ts): shown only while the
// first connection is made, replaced by the engine's own, aging from the clocks it was saved with, never holding a
// command line or a stray label, and a damaged file is a warning in the log, not an empty view.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ContainerSummary } from '../../../src/engine';
import { EngineModel, type ModelChange } from '../../../src/model/engineModel';
import { ABANDONED_PARTIAL_MS, SavedListingFile, type SavedListing, type SavedListingStore } from '../../../src/model/savedListing';
import { SAVE_AFTER_MS, SAVE_AT_LATEST_MS, SavedListingKeeper } from '../../../src/model/savedListingKeeper';
import { refineClocksAfterListings } from '../../../src/model/clockRefiner';
import { EngineSessions } from '../../../src/model/engineSessions';
import type { EngineDescriptor } from '../../../src/model/engineList';
import { parseHost } from '../../../src/engine/connection';
import { renderClock } from '../../../src/model/statusClock';
import { containerSummary, hex, MemoryEngine, until } from './support';
import { WORKBENCH_BAD_INPUT_CASES } from '../../engine/engine/bad-input-workbench-cases';
import { nextTurn } from '../../support/wait';

/** An engine whose container listing waits until released: the first connection stays "being made". */
class SlowListingEngine extends MemoryEngine {
  private release: (() => void) | undefined;
  private readonly held = new Promise<void>((resolve) => (this.release = resolve));
  override async listContainers(options: { all?: boolean }): Promise<ContainerSummary[]> {
    await this.held;
    return super.listContainers(options);
  }
  answer(): void {
    this.release?.();
  }
}

class MemoryStore implements SavedListingStore {
  saved: SavedListing[] = [];
  constructor(private readonly listing: SavedListing | undefined) {}
  load(): Promise<SavedListing | undefined> {
    return Promise.resolve(this.listing);
  }
  save(listing: SavedListing): Promise<void> {
    this.saved.push(listing);
    return Promise.resolve();
  }
}

const HOUR = 3_600_000;
const savedAt = Date.now() - 5 * 60_000;

function savedOf(...containers: Array<[string, string, ContainerSummary['State']]>): SavedListing {
  return {
    savedAt,
    containers: containers.map(([id, name, state]) => ({
      summary: containerSummary(id, name, { State: state, Status: state === 'running' ? 'Up 2 hours' : 'Exited (0) 2 hours ago' }),
      clock: state === 'running' ? { before: 'Up ', after: '', since: savedAt - 2 * HOUR, exact: true } : { before: 'Exited (0) ', after: ' ago', since: savedAt - 2 * HOUR, exact: true },
    })),
    images: [],
  };
}

void test('a saved listing shows while the first listing is on its way, aging from its own clocks, and the engine\'s listing replaces it', async (t) => {
  const engine = new SlowListingEngine();
  engine.addContainer(hex(1), 'still-here', 'exited');
  const model = new EngineModel(engine);
  t.after(() => model.dispose());
  const changes: ModelChange[] = [];
  model.onDidChange((change) => changes.push(change));
  model.start();
  const rowsKnown = model.whenRowsKnown();
  assert.equal(model.showSavedListing(savedOf([hex(1), 'still-here', 'running'], [hex(2), 'gone-since', 'running'])), true);
  await rowsKnown;
  assert.equal(model.state, 'connecting');
  assert.equal(model.savedListingAt, savedAt);
  assert.deepEqual([...model.containers()].map((record) => record.name).sort(), ['gone-since', 'still-here']);
  assert.deepEqual(changes.map((change) => [change.full, change.saved]), [[true, true]]);
  // Saved two hours after its start, read five minutes later: the clock, not the saved words read as of now.
  const shown = model.container('still-here');
  assert.ok(shown?.clock);
  assert.equal(renderClock(shown.clock, Date.now()), 'Up 2 hours');
  assert.equal(shown.clock.since, savedAt - 2 * HOUR);

  engine.answer();
  await model.whenConnected();
  assert.equal(model.savedListingAt, undefined, 'still flagged as saved after the engine answered');
  assert.deepEqual([...model.containers()].map((record) => `${record.name}:${record.state}`), ['still-here:exited']);
  assert.equal(changes.at(-1)?.saved, undefined);
});

void test('a saved listing read after the engine answered is not shown; one shown is cleared when the engine is unreachable', async (t) => {
  const engine = new MemoryEngine();
  engine.addContainer(hex(1), 'live', 'running');
  const model = new EngineModel(engine);
  t.after(() => model.dispose());
  model.start();
  await model.whenConnected();
  assert.equal(model.showSavedListing(savedOf([hex(9), 'stale', 'running'])), false);
  assert.equal(model.container('stale'), undefined);

  const down = new MemoryEngine();
  down.down = new Error('connect ECONNREFUSED /run/nothing.sock');
  const unreachable = new EngineModel(down, { backoff: { initialMs: 1_000_000, maxMs: 1_000_000 } });
  t.after(() => unreachable.dispose());
  assert.equal(unreachable.showSavedListing(savedOf([hex(9), 'stale', 'running'])), true);
  const rowsKnown = unreachable.whenRowsKnown();
  unreachable.start();
  await until(() => unreachable.state === 'unreachable', 'unreachable');
  await rowsKnown; // resolved by the saved rows before the engine refused
  assert.equal(unreachable.containerCount, 0, 'saved rows left in an unreachable engine\'s view');
  assert.equal(unreachable.savedListingAt, undefined);
  // Nothing saved and the engine refusing: a waiting view hears the refusal, in the engine's words.
  const bare = new EngineModel(down, { backoff: { initialMs: 1_000_000, maxMs: 1_000_000 } });
  t.after(() => bare.dispose());
  const waiting = bare.whenRowsKnown();
  bare.start();
  await assert.rejects(waiting, /ECONNREFUSED/);
});

void test('the clock refiner inspects nothing for a saved listing, and does after the engine\'s', async (t) => {
  const engine = new SlowListingEngine();
  engine.addContainer(hex(1), 'old', 'running', { Status: 'Up 3 hours' });
  const model = new EngineModel(engine);
  t.after(() => model.dispose());
  const refiner = refineClocksAfterListings(model, () => undefined);
  t.after(() => refiner.dispose());
  model.start();
  model.showSavedListing(savedOf([hex(1), 'old', 'running']));
  await nextTurn();
  assert.deepEqual(engine.calls.filter((call) => call.startsWith('inspectContainer')), []);
  engine.answer();
  await model.whenConnected();
  await until(() => engine.calls.some((call) => call.startsWith('inspectContainer')), 'the refiner inspecting after the engine\'s listing');
});

void test('the file keeps what rows draw: no command line, only Compose and Podman labels, no host in its name; it reads back', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'berth-saved-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const host = 'unix:///run/user/1000/secret-host.sock';
  const store = new SavedListingFile(dir, host);
  const summary = containerSummary(hex(1), 'web', {
    Command: 'server --password=hunter2',
    Labels: { 'com.docker.compose.project': 'shop', 'io.podman.compose.project': 'shop', 'api.token': 'tok-123' },
  });
  await store.save({ savedAt, containers: [{ summary, clock: undefined }], images: [] });
  const files = readdirSync(dir);
  assert.equal(files.length, 1, `one file, no leftover partial one: ${files.join(', ')}`);
  assert.ok(!files[0]?.includes('secret-host'), files[0]);
  const text = readFileSync(join(dir, files[0] ?? ''), 'utf8');
  for (const secret of ['hunter2', 'tok-123', 'api.token', 'secret-host']) assert.ok(!text.includes(secret), `${secret} written to disk`);
  const loaded = await store.load();
  assert.equal(loaded?.savedAt, savedAt);
  assert.deepEqual(loaded?.containers[0]?.summary.Labels, { 'com.docker.compose.project': 'shop', 'io.podman.compose.project': 'shop' });
  assert.equal(loaded?.containers[0]?.summary.Names[0], '/web');
  assert.equal(await new SavedListingFile(dir, 'unix:///another.sock').load(), undefined, 'another engine reads this one\'s list');
});

void test('a save removes partial files a window left by dying mid-write, only old ones and only of its own engine; a failed write leaves none', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'berth-saved-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const store = new SavedListingFile(dir, 'unix:///one.sock');
  await store.save({ savedAt, containers: [], images: [] });
  const [file] = readdirSync(dir);
  assert.ok(file);
  const now = Date.now();
  const abandoned = `${file}.4242.${now - ABANDONED_PARTIAL_MS - 1000}`;
  const beingWritten = `${file}.4343.${now - 1000}`;
  // Another engine's old partial is that engine's save to clean up.
  await new SavedListingFile(dir, 'unix:///two.sock').save({ savedAt, containers: [], images: [] });
  const other = readdirSync(dir).find((name) => name !== file);
  assert.ok(other);
  const othersAbandoned = `${other}.4444.${now - ABANDONED_PARTIAL_MS - 1000}`;
  for (const name of [abandoned, beingWritten, othersAbandoned]) writeFileSync(join(dir, name), '{"format":1');
  await store.save({ savedAt, containers: [], images: [] });
  assert.deepEqual(readdirSync(dir).sort(), [file, beingWritten, other, othersAbandoned].sort(), 'the old partial of this engine is gone; one still being written and the other engine\'s stay');
  // A write that fails (here: the target is a directory, so the rename fails) leaves no partial file behind.
  const blocked = mkdtempSync(join(tmpdir(), 'berth-saved-blocked-'));
  t.after(() => rmSync(blocked, { recursive: true, force: true }));
  const blockedStore = new SavedListingFile(blocked, 'unix:///three.sock');
  await blockedStore.save({ savedAt, containers: [], images: [] });
  const [target] = readdirSync(blocked);
  assert.ok(target);
  rmSync(join(blocked, target));
  mkdirSync(join(blocked, target));
  writeFileSync(join(blocked, target, 'keep'), '');
  await assert.rejects(blockedStore.save({ savedAt, containers: [], images: [] }), /EISDIR|ENOTEMPTY|EEXIST|EPERM/);
  assert.deepEqual(readdirSync(blocked), [target], 'no partial file left after the failed save');
});

void test('a damaged file is named in the log and shows nothing; a file of another format is passed over quietly (bad-input row saved-listing-damaged)', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'berth-saved-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const store = new SavedListingFile(dir, 'unix:///run/docker.sock');
  await store.save({ savedAt, containers: [], images: [] });
  const file = join(dir, readdirSync(dir)[0] ?? '');
  const cases: Array<[string, RegExp | undefined]> = [
    ['{"format":1,"savedAt":1,"containers":[{"summary":{"Id":"x"', /JSON/],
    ['{"format":1,"savedAt":"yesterday","containers":[],"images":[]}', /no savedAt time/],
    ['{"format":1,"savedAt":1,"containers":[{"summary":{"Names":["/x"]}}],"images":[]}', /without an Id or State/],
    ['[]', /not a JSON object/],
    ['{"savedAt":1,"containers":[],"images":[]}', /no format number/],
    ['{"format":99,"savedAt":1}', undefined],
  ];
  for (const [text, expected] of cases) {
    writeFileSync(file, text);
    const reasons: string[] = [];
    assert.equal(await store.load((reason) => reasons.push(reason)), undefined, text);
    if (expected) {
      assert.equal(reasons.length, 1, `no reason for ${text}`);
      assert.match(reasons[0] ?? '', expected);
      assert.ok(reasons[0]?.includes(file), 'the reason names the file');
    } else assert.deepEqual(reasons, [], `another format is not damage: ${text}`);
  }
  // Through the keeper, as a window opens: the log line of the bad-input row, and no rows.
  writeFileSync(file, '{"format":1,"savedAt":');
  const row = WORKBENCH_BAD_INPUT_CASES.find((entry) => entry.id === 'saved-listing-damaged');
  const quoted = /"(The saved listing[^"]+)"/.exec(row?.message ?? '')?.[1];
  assert.ok(quoted, 'the bad-input row quotes the log line');
  const pattern = new RegExp(`^${quoted.split(/<[^>]+>/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.+')}$`);
  const model = new EngineModel(new MemoryEngine());
  t.after(() => model.dispose());
  const lines: string[] = [];
  const keeper = new SavedListingKeeper(model, { store, show: true, log: (level, line) => lines.push(`${level} ${line}`) });
  t.after(() => keeper.dispose());
  await until(() => lines.length > 0, 'the warning');
  assert.equal(lines.length, 1, lines.join('\n'));
  assert.ok(lines[0]?.startsWith('warn '), lines[0]);
  assert.match(lines[0]?.slice('warn '.length) ?? '', pattern);
  assert.equal(model.containerCount, 0);
  assert.equal(model.savedListingAt, undefined);
});

void test('the keeper shows the saved listing, and saves once changes settle, at the latest a minute after the first', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout', 'Date'], now: 1_800_000_000_000 });
  const engine = new MemoryEngine();
  engine.addContainer(hex(1), 'one', 'running');
  const model = new EngineModel(engine, { scheduler: (run) => {
    const handle = setImmediate(run);
    return { dispose: () => clearImmediate(handle) };
  } });
  t.after(() => model.dispose());
  const store = new MemoryStore(savedOf([hex(1), 'one', 'running'], [hex(2), 'two', 'exited']));
  const keeper = new SavedListingKeeper(model, { store, show: true, log: () => undefined });
  t.after(() => keeper.dispose());
  await until(() => model.savedListingAt !== undefined, 'the saved listing shown');
  assert.equal(model.containerCount, 2);
  assert.equal(store.saved.length, 0, 'a saved listing is saved back');

  model.start();
  await model.whenConnected();
  t.mock.timers.tick(SAVE_AFTER_MS - 1);
  assert.equal(store.saved.length, 0, 'saved before the changes settled');
  t.mock.timers.tick(1);
  await until(() => store.saved.length === 1, 'saved after the listing');
  assert.deepEqual(store.saved[0]?.containers.map((saved) => saved.summary.Names[0]), ['/one']);

  // An engine that changes every 5 s: saved 60 s after the first change, not never.
  for (let elapsed = 0; elapsed < SAVE_AT_LATEST_MS; elapsed += 5_000) {
    engine.addContainer(hex(100 + elapsed / 1000), `c${elapsed}`, 'exited');
    engine.emit('container', 'create', hex(100 + elapsed / 1000));
    await until(() => {
      const record = model.container(`c${elapsed}`);
      return record !== undefined && !model.isFromCreateEvent(record);
    }, `c${elapsed} inspected`);
    await model.whenIdle();
    t.mock.timers.tick(5_000);
  }
  await until(() => store.saved.length === 2, 'saved at the latest a minute after the first unsaved change');
});

void test("a window's first engines show their saved list; an engine added later is saved for the next window, not shown", async (t) => {
  const stores = new Map<string, MemoryStore>();
  const sessions = new EngineSessions({
    log: () => undefined,
    savedListings: (descriptor) => {
      const store = new MemoryStore(savedOf([hex(1), `saved-on-${descriptor.id}`, 'exited']));
      stores.set(descriptor.id, store);
      return store;
    },
  });
  t.after(() => sessions.dispose());
  const engine = (id: string): EngineDescriptor => ({
    id,
    name: id,
    origin: 'settings',
    aliases: [],
    // No engine answers here: the first connection stays being made long enough to look, then fails.
    endpoint: parseHost(`unix:///nonexistent/berth-${id}.sock`),
    configError: undefined,
    display: id,
    sourceText: 'test',
  });
  sessions.update([engine('first')]);
  const first = sessions.find('first');
  await until(() => first?.model.savedListingAt !== undefined, "the first engine's saved list shown");
  assert.equal(first?.model.container('saved-on-first')?.state, 'exited');
  sessions.start();
  sessions.update([engine('first'), engine('later')]);
  const later = sessions.find('later');
  assert.ok(later && stores.has('later'), 'the later engine has a store to save to');
  // Watched from now: the store answers a promise later, so a saved list would come after this listener.
  let shownSaved = false;
  later.model.onDidChange((change) => (shownSaved ||= change.saved === true));
  for (let round = 0; round < 50; round++) await nextTurn();
  assert.equal(shownSaved, false, 'an engine added later showed a saved list');
  assert.equal(later.model.container('saved-on-later'), undefined);
});

void test("the engine's listing over a saved one is a difference: what is gone, what is new, and the rows still there with their saved clocks", async (t) => {
  const engine = new SlowListingEngine();
  engine.addContainer(hex(1), 'kept', 'running', { Status: 'Up 2 hours' });
  engine.addContainer(hex(3), 'new', 'exited', { Status: 'Exited (0) 3 seconds ago' });
  const model = new EngineModel(engine);
  t.after(() => model.dispose());
  const changes: ModelChange[] = [];
  model.onDidChange((change) => changes.push(change));
  model.start();
  model.showSavedListing(savedOf([hex(1), 'kept', 'running'], [hex(2), 'gone', 'exited']));
  engine.answer();
  await model.whenConnected();
  const relisted = changes.at(-1);
  assert.ok(relisted?.relisted, 'not reported as the listing over a saved one');
  assert.equal(relisted.full, false);
  assert.deepEqual(relisted.containers.added.map((record) => record.name), ['new']);
  assert.deepEqual(relisted.containers.removed.map((record) => record.name), ['gone']);
  assert.deepEqual(relisted.containers.updated.map(({ current }) => current.name), ['kept']);
  const kept = model.container('kept');
  assert.equal(kept?.clock?.exact, true, 'the saved exact clock was replaced by an estimate from the words');
  assert.equal(kept?.clock?.since, savedAt - 2 * HOUR);
  assert.equal(kept?.summary.Command, engine.containers.get(hex(1))?.Command, "the record is the engine's, not the saved one");
});
