/**
 * Helpers for the build tests: contexts written into a temporary folder, and the docker CLI's classic builder
 * (`DOCKER_BUILDKIT=0 docker build`) on the same private engine, as the oracle Berth is compared with.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export interface ProcessResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** A file tree: path → content; a value of `null` makes an empty directory, `{ link }` a symlink. */
export type Tree = Readonly<Record<string, string | null | { readonly link: string }>>;

export function writeTree(root: string, tree: Tree): void {
  mkdirSync(root, { recursive: true });
  for (const [path, content] of Object.entries(tree)) {
    const target = join(root, path);
    if (content === null) {
      mkdirSync(target, { recursive: true });
      continue;
    }
    mkdirSync(dirname(target), { recursive: true });
    if (typeof content === 'string') writeFileSync(target, content);
    else symlinkSync(content.link, target);
  }
}

/** A temporary folder for the suite; `dispose` removes it. */
export function scratchFolder(prefix: string): { readonly path: string; dispose(): void } {
  const path = mkdtempSync(join(tmpdir(), `berth-${prefix}-`));
  return { path, dispose: () => rmSync(path, { recursive: true, force: true }) };
}

/** `DOCKER_BUILDKIT=0 docker build ARGS` against `host`, with `--force-rm` so a failed step leaves no container. */
export function dockerBuild(host: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<ProcessResult> {
  return new Promise((resolve) => {
    execFile(
      'docker',
      ['build', '--force-rm', ...args],
      { cwd, env: { PATH: process.env.PATH, HOME: cwd, DOCKER_HOST: host, DOCKER_BUILDKIT: '0', ...env }, timeout: 120_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** The `Step N/M : …` lines of a build's output, in order. */
export function stepLines(output: string): string[] {
  return output.split('\n').filter((line) => /^Step \d+\/\d+ : /.test(line));
}
