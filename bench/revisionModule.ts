/**
 * The "before" of a change, measured in the same run as the "after": a module of src/ as it was at a git revision,
 * taken from git into a directory of its own. The files named beside it come from that revision too; every other
 * relative import points at this tree's file, so only what the change touched is old.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';

const root = join(__dirname, '..');
const MAX_SOURCE_BYTES = 16 * 1024 * 1024;

/**
 * Loads FILE (a path under the repository, e.g. `src/engine/files/savedImage.ts`) as it was at REVISION, with the
 * NEIGHBOURS (file names in the same folder) it should take from that revision as well; one missing there is skipped.
 */
export function moduleAtRevision(revision: string, file: string, neighbours: readonly string[] = []): unknown {
  const folder = posix.dirname(file);
  const directory = join(tmpdir(), `berth-bench-before-${revision.replace(/[^\w.-]/g, '_')}`, folder);
  mkdirSync(directory, { recursive: true });
  const present = new Set(execFileSync('git', ['-C', root, 'ls-tree', '--name-only', revision, `${folder}/`], { encoding: 'utf8' }).split('\n'));
  const taken = [posix.basename(file), ...neighbours].filter((name) => present.has(`${folder}/${name}`));
  const takenStems = new Set(taken.map((name) => `./${name.replace(/\.ts$/, '')}`));
  for (const name of taken) {
    const source = execFileSync('git', ['-C', root, 'show', `${revision}:${folder}/${name}`], { encoding: 'utf8', maxBuffer: MAX_SOURCE_BYTES });
    const pointed = source.replace(/from '(\.{1,2}\/[^']*)'/g, (whole, target: string) =>
      takenStems.has(target) ? whole : `from '${join(root, folder, target)}'`,
    );
    writeFileSync(join(directory, name), pointed);
  }
  return createRequire(__filename)(join(directory, posix.basename(file)));
}

