// Hostile archives out of a container: copyFromContainer (what `berth cp CONTAINER:SRC DEST` and Download share) gets
// them from an in-process engine speaking the archive endpoint's wire format, and must never write outside the
// destination. Property tests (fast-check) generate symlink chains, `..`, absolute names, duplicates, hard links
// through links, long and unicode names and directories replaced by files; the review's three archives are fixed cases.
import assert from 'node:assert/strict';
import { lstatSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { EngineError } from '../../../../src/engine';
import { copyFromContainer } from '../../../../src/engine/files';
import { useFakeEngine } from '../../../support/fakeEngineSuite';
import { archiveRoute, reviewArchives, sentinelTree, snapshotOutside, tarOf, type ServedArchive, type TarEntrySpec } from '../../../support/hostileArchive';

let served: ServedArchive | undefined;
const engine = useFakeEngine([archiveRoute((path) => (path === '/app' ? served : undefined))]);

/** For assertion messages: what a copy ended with. */
function outcomeText(error: unknown): string {
  if (error === undefined) return 'success';
  return error instanceof Error ? `${error.name}: ${error.message}` : JSON.stringify(error);
}

/** A scratch tree with sentinels; `prepare` may add what the user already had in the destination. */
async function copyInto(entries: readonly TarEntrySpec[], prepare?: (dest: string, outside: string) => void) {
  const base = mkdtempSync(join(tmpdir(), 'berth-extract-'));
  const { outside, dest } = sentinelTree(base);
  prepare?.(dest, outside);
  const root = join(dest, 'app');
  const before = snapshotOutside(base, root);
  served = { kind: 'directory', tar: await tarOf(entries.map((entry) => ({ ...entry, linkname: entry.linkname?.replace('OUTSIDE', outside) }))) };
  const outcome = await copyFromContainer(engine.client, 'hostile', '/app', dest).then(
    (result) => ({ result, error: undefined }),
    (error: unknown) => ({ result: undefined, error }),
  );
  return { base, root, outside, dest, before, after: snapshotOutside(base, root), ...outcome };
}

void describe('archive extraction: the review\'s three archives', () => {
  for (const [index, review] of reviewArchives('OUTSIDE').entries()) {
    void it(`refuses ${review.title}, naming the entry, with nothing outside changed`, async () => {
      const copy = await copyInto(review.entries);
      try {
        assert.ok(copy.error instanceof EngineError, `expected a refusal, got ${outcomeText(copy.error)}`);
        assert.equal(copy.error.kind, 'protocol');
        assert.ok(copy.error.message.startsWith(`Refused the archive entry "${review.refused}": `), copy.error.message);
        assert.match(copy.error.message, /copied before it stay in .*; nothing was written outside it/);
        assert.deepEqual(copy.after, copy.before);
        assert.equal(readFileSync(join(copy.outside, 'victim'), 'utf8'), 'victim: unchanged\n');
        assert.equal(readFileSync(join(copy.dest, '.bashrc'), 'utf8'), 'bashrc: unchanged\n');
        // The entries before the refused one stay, as with docker cp.
        if (index === 0) assert.equal(readlinkSync(join(copy.root, 'x')), join(copy.outside, 'victim'));
      } finally {
        rmSync(copy.base, { recursive: true, force: true });
      }
    });
  }
});

void describe('archive extraction: what docker cp keeps', () => {
  void it('writes files, directories, links as links and hard links to its own files; a link the user had is replaced, not written through', async () => {
    const entries: TarEntrySpec[] = [
      { name: 'app/', type: 'directory' },
      { name: 'app/top.txt', type: 'file', data: 'top', mode: 0o640 },
      { name: 'app/sub/', type: 'directory', mode: 0o700 },
      { name: 'app/sub/dé ep ✓.txt', type: 'file', data: 'deep' },
      { name: 'app/link', type: 'symlink', linkname: '../outside/victim' },
      { name: 'app/hard', type: 'link', linkname: 'app/top.txt' },
      { name: 'app/mine', type: 'file', data: 'new' },
    ];
    const copy = await copyInto(entries, (dest) => {
      mkdirSync(join(dest, 'app'));
      symlinkSync('../../outside/victim', join(dest, 'app', 'mine'));
    });
    try {
      assert.equal(copy.error, undefined, outcomeText(copy.error));
      assert.equal(copy.result?.entries, entries.length);
      assert.equal(readFileSync(join(copy.root, 'sub', 'dé ep ✓.txt'), 'utf8'), 'deep');
      assert.equal(lstatSync(join(copy.root, 'top.txt')).mode & 0o777, 0o640 & ~process.umask());
      assert.equal(readlinkSync(join(copy.root, 'link')), '../outside/victim');
      assert.equal(lstatSync(join(copy.root, 'hard')).ino, lstatSync(join(copy.root, 'top.txt')).ino);
      assert.ok(lstatSync(join(copy.root, 'mine')).isFile());
      assert.equal(readFileSync(join(copy.root, 'mine'), 'utf8'), 'new');
      assert.deepEqual(copy.after, copy.before);
    } finally {
      rmSync(copy.base, { recursive: true, force: true });
    }
  });

  void it('refuses to follow a link the user already had in the destination', async () => {
    const copy = await copyInto([{ name: 'app/', type: 'directory' }, { name: 'app/pre/victim', type: 'file', data: 'pwned\n' }], (dest) => {
      mkdirSync(join(dest, 'app'));
      symlinkSync('../../outside', join(dest, 'app', 'pre'));
    });
    try {
      assert.ok(copy.error instanceof EngineError, outcomeText(copy.error));
      assert.match(copy.error.message, /^Refused the archive entry "app\/pre\/victim": it leads through the link .*app\/pre, which Berth does not follow/);
      assert.deepEqual(copy.after, copy.before);
    } finally {
      rmSync(copy.base, { recursive: true, force: true });
    }
  });
});

const component = fc.constantFrom('a', 'b', 'a', '..', '.', '', 'ü-é ✓', '😀', 'x'.repeat(200), 'y'.repeat(300));
const archiveName = fc
  .tuple(fc.constantFrom('', '', '/', './'), fc.constantFrom('app', 'app', 'app', '..', 'other'), fc.array(component, { maxLength: 4 }), fc.boolean())
  .map(([prefix, first, rest, slash]) => `${prefix}${[first, ...rest].join('/')}${slash ? '/' : ''}`);
const linkTarget = fc.constantFrom('..', '../..', '../../..', '.', 'a', 'a/b', '../outside/victim', '../../outside', 'OUTSIDE', 'OUTSIDE/victim', '/', '/etc/passwd');
const entry: fc.Arbitrary<TarEntrySpec> = fc.oneof(
  fc.record({ name: archiveName, type: fc.constant('file' as const), data: fc.constantFrom('pwned\n', ''), mode: fc.constantFrom(0o644, 0o600, 0o755) }),
  fc.record({ name: archiveName, type: fc.constant('directory' as const), mode: fc.constantFrom(0o755, 0o700) }),
  fc.record({ name: archiveName, type: fc.constant('symlink' as const), linkname: linkTarget }),
  fc.record({ name: archiveName, type: fc.constant('link' as const), linkname: fc.oneof(archiveName, linkTarget) }),
);
/** A user's own links in the destination before the copy: none, or one into `outside` where the archive may write. */
const userLinks = fc.constantFrom('none', 'app is a link', 'app/a is a link');

void describe('archive extraction: generated hostile archives', () => {
  void it('never change anything outside the destination; a failure is a refusal naming the entry, or the file system refusing a name', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(entry, { minLength: 1, maxLength: 8 }), userLinks, async (entries, links) => {
        const copy = await copyInto([{ name: 'app/', type: 'directory' }, ...entries], (dest) => {
          if (links === 'app is a link') symlinkSync('../outside', join(dest, 'app'));
          if (links === 'app/a is a link') {
            mkdirSync(join(dest, 'app'));
            symlinkSync('../../outside', join(dest, 'app', 'a'));
          }
          writeFileSync(join(dest, 'beside'), 'beside: unchanged\n');
        });
        try {
          assert.deepEqual(copy.after, copy.before);
          if (copy.error !== undefined) {
            const refused = copy.error instanceof EngineError && copy.error.message.startsWith('Refused the archive entry ');
            const nameTooLong = copy.error instanceof EngineError && (copy.error.cause as NodeJS.ErrnoException | undefined)?.code === 'ENAMETOOLONG' && copy.error.message.startsWith('Could not write the archive entry ');
            assert.ok(refused || nameTooLong, outcomeText(copy.error));
          }
        } finally {
          rmSync(copy.base, { recursive: true, force: true });
        }
      }),
      { numRuns: 300 },
    );
  });
});
