/**
 * The production bundles, built by the project's own `node esbuild.js --production` in a staging directory (src
 * and node_modules linked in), so the dist/ that test runs beside the benchmark load is never swapped under them.
 * The staging directory is also a complete extension folder (package.json, dist, media, syntaxes): the
 * activation benchmark loads exactly these bundles.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';

const execFileAsync = promisify(execFile);

export interface BundleSize {
  readonly file: string;
  /** When VS Code loads it. */
  readonly loaded: string;
  readonly bytes: number;
  readonly gzipBytes: number;
}

export interface StagedExtension {
  /** The extension folder: extensionDevelopmentPath for the workbench. */
  readonly dir: string;
  readonly sizes: readonly BundleSize[];
  readonly buildMs: number;
  dispose(): void;
}

const BUNDLES: ReadonlyArray<{ file: string; loaded: string }> = [
  { file: 'dist/extension.js', loaded: 'at activation' },
  { file: 'dist/language.js', loaded: 'when a Dockerfile or Compose file opens' },
  { file: 'dist/server/dockerfile-language-server.js', loaded: 'own process, with the first Dockerfile' },
  { file: 'dist/server/compose-language-server.js', loaded: 'own process, with the first Compose file' },
  { file: 'dist/cli.js', loaded: 'the berth CLI (not in the .vsix)' },
];

export async function stageProductionBuild(repoRoot: string): Promise<StagedExtension> {
  const dir = mkdtempSync(join(tmpdir(), 'berth-bench-ext-'));
  try {
    for (const linked of ['src', 'node_modules', 'media', 'l10n']) symlinkSync(join(repoRoot, linked), join(dir, linked));
    for (const copied of ['package.json', 'package.nls.json', 'tsconfig.json', 'README.md']) copyFileSync(join(repoRoot, copied), join(dir, copied));
    const started = performance.now();
    await execFileAsync(process.execPath, [join(repoRoot, 'esbuild.js'), '--production'], { cwd: dir, maxBuffer: 16 << 20 });
    const buildMs = performance.now() - started;
    const sizes = BUNDLES.map(({ file, loaded }) => {
      const path = join(dir, file);
      return { file, loaded, bytes: statSync(path).size, gzipBytes: gzipSync(readFileSync(path), { level: 9 }).length };
    });
    return { dir, sizes, buildMs, dispose: () => rmSync(dir, { recursive: true, force: true }) };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

/**
 * The production bundles of the repository at REVISION (git's tree, exported to a temporary folder with this tree's
 * node_modules), for a "before" launched in the same run as the current build.
 */
export async function stageRevision(revision: string, repoRoot = join(__dirname, '..')): Promise<{ dir: string; commit: string; dispose(): void }> {
  const source = mkdtempSync(join(tmpdir(), 'berth-bench-revision-'));
  try {
    const commit = (await execFileAsync('git', ['-C', repoRoot, 'rev-parse', '--short', revision])).stdout.trim();
    const archive = join(source, 'tree.tar');
    await execFileAsync('git', ['-C', repoRoot, 'archive', '--format=tar', '-o', archive, commit]);
    await execFileAsync('tar', ['-xf', archive, '-C', source]);
    rmSync(archive);
    symlinkSync(realpathSync(join(repoRoot, 'node_modules')), join(source, 'node_modules'));
    const staged = await stageProductionBuild(source);
    return {
      dir: staged.dir,
      commit,
      dispose: () => {
        staged.dispose();
        rmSync(source, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(source, { recursive: true, force: true });
    throw error;
  }
}
