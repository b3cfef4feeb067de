import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { REPO_ROOT } from './codeServer';

const execFileAsync = promisify(execFile);

export const EXTENSION_BUNDLE = join(REPO_ROOT, 'dist', 'extension.js');
export const VSIX_PATH = join(REPO_ROOT, 'dist', 'berth.vsix');

/** Bundles the extension with the project's esbuild.js (dist/extension.js). */
export async function buildExtension(): Promise<void> {
  if (!existsSync(join(REPO_ROOT, 'src', 'extension.ts'))) {
    console.log('src/extension.ts does not exist yet: the suite runs without the extension');
    return;
  }
  await execFileAsync(process.execPath, [join(REPO_ROOT, 'esbuild.js')], { cwd: REPO_ROOT, maxBuffer: 8 * 1024 * 1024 });
}

/**
 * Bundles test/<kind>/suite/*.ts into out/test/<outName>/ (one file per entry, `vscode` and npm packages external, so
 * mocha and undici load from the repo's node_modules). Returns the absolute path of the suite's index.js.
 * Each pass of the matrix bundles into its own folder, so a run of one pass never deletes the other's bundle.
 */
export async function buildSuite(kind: 'integration', outName: string = kind): Promise<string> {
  const sourceDir = join(REPO_ROOT, 'test', kind, 'suite');
  const outDir = join(REPO_ROOT, 'out', 'test', outName);
  await rm(outDir, { recursive: true, force: true });
  const entryPoints = readdirSync(sourceDir)
    .filter((name) => name.endsWith('.ts'))
    .map((name) => join(sourceDir, name));
  await build({
    entryPoints,
    outdir: outDir,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    sourcemap: 'inline',
    packages: 'external',
    external: ['vscode'],
    logLevel: 'warning',
  });
  return join(outDir, 'index.js');
}

export function buildIntegrationSuite(outName = 'integration'): Promise<string> {
  return buildSuite('integration', outName);
}

/** `npm run package`: vsce 3.x (its prepublish makes the production bundle and the icon), to dist/berth.vsix. */
export async function packageVsix(): Promise<string> {
  await rm(VSIX_PATH, { force: true });
  await execFileAsync('npm', ['run', 'package'], {
    cwd: REPO_ROOT,
    maxBuffer: 16 * 1024 * 1024,
    env: { ...process.env, CI: process.env.CI ?? 'true' },
  });
  if (!existsSync(VSIX_PATH)) throw new Error(`npm run package did not produce ${VSIX_PATH}`);
  return VSIX_PATH;
}
