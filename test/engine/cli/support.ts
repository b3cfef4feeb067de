/**
 * Helpers for the CLI's engine tests: bundle src/cli.ts the way esbuild.js does (into a private temporary
 * directory, so a half-edited extension elsewhere cannot break the build), spawn `node cli.js`, and collect what
 * it printed on each stream.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { EngineClient } from '../../../src/engine';
import { cleanupLabel, loadTestEngines, uniqueName, type TestEngines } from '../../support/engines';

const repoRoot = resolve(__dirname, '..', '..', '..');

export interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly stdoutBytes: Buffer;
}

export interface CliHarness {
  readonly engines: TestEngines;
  /** A client on the test dockerd, to check what the CLI did. */
  readonly client: EngineClient;
  /** `-l` flags every container a test runs must carry: berth.test=1 and this suite's own label. */
  readonly labelArgs: string[];
  /** `label=...` value matching only this suite's containers. */
  readonly labelFilter: string;
  /** `--host <test dockerd>` followed by the arguments. */
  berth(args: readonly string[], options?: SpawnOptions): Promise<CliResult>;
  /** Starts berth without waiting, for tests that signal it. */
  start(args: readonly string[], options?: SpawnOptions): ChildProcess;
  /** Writes a DOCKER_CONFIG directory holding config.json with this content; resolves its path. */
  dockerConfig(config: unknown): string;
  /** Removes this suite's containers, the temporary files and closes the client. */
  dispose(): Promise<void>;
}

export interface SpawnOptions {
  /** Replaces the default environment additions (DOCKER_CONFIG pointing at an empty directory). */
  readonly env?: NodeJS.ProcessEnv;
  /** Leave out `--host`, to test DOCKER_HOST and contexts. */
  readonly noHost?: boolean;
}

export async function createCliHarness(suite: string): Promise<CliHarness> {
  const engines = loadTestEngines();
  const workDir = mkdtempSync(join(tmpdir(), 'berth-cli-test-'));
  const cliPath = join(workDir, 'cli.js');
  await build({
    entryPoints: [join(repoRoot, 'src', 'cli.ts')],
    outfile: cliPath,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    logLevel: 'silent',
  });
  const emptyConfig = join(workDir, 'empty-docker-config');
  writeConfig(emptyConfig, {});
  const suiteLabel = uniqueName(`cli-${suite}`);
  const labels: Record<string, string> = { ...cleanupLabel, 'berth.cli.suite': suiteLabel };
  const client = EngineClient.fromEnvironment({ host: engines.dockerHost, env: {} });
  let configCount = 0;

  const environment = (options: SpawnOptions | undefined): NodeJS.ProcessEnv => ({
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: workDir,
    ...(options?.env ?? { DOCKER_CONFIG: emptyConfig }),
  });
  const argv = (args: readonly string[], options: SpawnOptions | undefined): string[] =>
    options?.noHost ? [cliPath, ...args] : [cliPath, '--host', engines.dockerHost, ...args];
  const start = (args: readonly string[], options?: SpawnOptions): ChildProcess =>
    spawn(process.execPath, argv(args, options), { env: environment(options), stdio: ['ignore', 'pipe', 'pipe'] });

  return {
    engines,
    client,
    labelArgs: Object.entries(labels).flatMap(([key, value]) => ['-l', `${key}=${value}`]),
    labelFilter: `berth.cli.suite=${suiteLabel}`,
    start,
    berth: (args, options) => collect(start(args, options)),
    dockerConfig: (config) => {
      const directory = join(workDir, `docker-config-${++configCount}`);
      writeConfig(directory, config);
      return directory;
    },
    dispose: async () => {
      try {
        const leftovers = await client.listContainers({ all: true, filters: { label: [`berth.cli.suite=${suiteLabel}`] } });
        for (const container of leftovers) await client.removeContainer(container.Id, { force: true });
      } finally {
        await client.close();
        rmSync(workDir, { recursive: true, force: true });
      }
    },
  };
}

function writeConfig(directory: string, config: unknown): void {
  mkdirSync(directory, { recursive: true });
  writeFileSync(join(directory, 'config.json'), JSON.stringify(config));
}

/** Resolves once the process exited and both streams ended. */
export function collect(child: ChildProcess): Promise<CliResult> {
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  child.stdout?.on('data', (chunk: Buffer) => stdout.push(chunk));
  child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk));
  return new Promise((resolvePromise, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      const stdoutBytes = Buffer.concat(stdout);
      resolvePromise({ code, stdout: stdoutBytes.toString('utf8'), stderr: Buffer.concat(stderr).toString('utf8'), stdoutBytes });
    });
  });
}

/** Polls until `check` holds; fails with `what` after `attempts` tries (no timing assertion: a bound on waiting). */
export async function eventually(what: string, check: () => Promise<boolean>, attempts = 100): Promise<void> {
  for (let attempt = 0; attempt < attempts; attempt++) {
    if (await check()) return;
    await new Promise((resolvePromise) => setTimeout(resolvePromise, 100));
  }
  throw new Error(`gave up waiting: ${what}`);
}
