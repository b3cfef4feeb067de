/**
 * Helpers for the CLI's engine tests: bundle src/cli.ts with esbuild.js (into a private temporary
 * directory, so a half-edited extension elsewhere cannot break the build), spawn `node cli.js`, and collect what
 * it printed on each stream.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { EngineClient } from '../../../src/engine';
import { writeDockerConfig } from '../../support/dockerHome';
import { cleanupLabel, loadTestEngines, uniqueName, type TestEngines } from '../../support/engines';
import { until } from '../../support/wait';

const repoRoot = resolve(__dirname, '..', '..', '..');
const execFileAsync = promisify(execFile);

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
  /** A client on another engine (the Podman service), closed with the harness. */
  clientFor(host: string): EngineClient;
  /** `-l` flags every container a test runs must carry: berth.test=1 and this suite's own label. */
  readonly labelArgs: string[];
  /** `label=...` value matching only this suite's containers. */
  readonly labelFilter: string;
  /** `--host <test dockerd>` followed by the arguments. */
  berth(args: readonly string[], options?: SpawnOptions): Promise<CliResult>;
  /** Starts berth without waiting, for tests that signal it. */
  start(args: readonly string[], options?: SpawnOptions): ChildProcess;
  /** The words that start berth (node, the bundle, --host), quoted for a shell pipeline in a test. */
  shellCommand(args: readonly string[], options?: SpawnOptions): string;
  /** Runs a fixed shell pipeline (`berth ... | head -1`, with pipefail) in berth's test environment; `berth` in it is berth. */
  shell(script: string, options?: SpawnOptions): Promise<CliResult>;
  /** Writes a DOCKER_CONFIG directory holding config.json with this content; resolves its path. */
  dockerConfig(config: unknown): string;
  /** The bundle (cli.js), to run through its own launcher line. */
  readonly bundle: string;
  /** Removes this suite's containers, the temporary files and closes the client. */
  dispose(): Promise<void>;
}

export interface SpawnOptions {
  /** Replaces the default environment additions (DOCKER_CONFIG pointing at an empty directory). */
  readonly env?: NodeJS.ProcessEnv;
  /** Leave out `--host`, to test DOCKER_HOST and contexts. */
  readonly noHost?: boolean;
  /** Another engine than the private dockerd, e.g. the Podman service. */
  readonly host?: string;
  /** berth's stdin; 'ignore' unless given. */
  readonly stdin?: 'pipe' | 'ignore';
}

export async function createCliHarness(suite: string): Promise<CliHarness> {
  const engines = loadTestEngines();
  const workDir = mkdtempSync(join(tmpdir(), 'berth-cli-test-'));
  const cliPath = join(workDir, 'cli.js');
  // The CLI's own build step (esbuild.js), only the CLI and into the temporary directory.
  await execFileAsync(process.execPath, [join(repoRoot, 'esbuild.js'), `--cli-outdir=${workDir}`], { cwd: repoRoot });
  const emptyConfig = join(workDir, 'empty-docker-config');
  writeDockerConfig(emptyConfig);
  const suiteLabel = uniqueName(`cli-${suite}`);
  const labels: Record<string, string> = { ...cleanupLabel, 'berth.cli.suite': suiteLabel };
  const client = EngineClient.fromEnvironment({ host: engines.dockerHost, env: {} });
  let configCount = 0;
  const otherClients = new Map<string, EngineClient>();
  const clientFor = (host: string): EngineClient => {
    if (host === engines.dockerHost) return client;
    let other = otherClients.get(host);
    if (!other) otherClients.set(host, (other = EngineClient.fromEnvironment({ host, env: {} })));
    return other;
  };

  const environment = (options: SpawnOptions | undefined): NodeJS.ProcessEnv => ({
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: workDir,
    ...(options?.env ?? { DOCKER_CONFIG: emptyConfig }),
  });
  const argv = (args: readonly string[], options: SpawnOptions | undefined): string[] =>
    // `--` as the bundle's launcher puts it: Node would read berth's `--env-file` as its own otherwise.
    options?.noHost ? ['--', cliPath, ...args] : ['--', cliPath, '--host', options?.host ?? engines.dockerHost, ...args];
  // Every process a case starts, so that a failed case cannot leave one running: a live child keeps the test file's
  // process alive, and the whole stage would then wait for its time limit.
  const children = new Set<ChildProcess>();
  const track = (child: ChildProcess): ChildProcess => {
    children.add(child);
    child.on('close', () => children.delete(child));
    return child;
  };
  const start = (args: readonly string[], options?: SpawnOptions): ChildProcess =>
    track(spawn(process.execPath, argv(args, options), { env: environment(options), stdio: [options?.stdin ?? 'ignore', 'pipe', 'pipe'] }));
  const shellCommand = (args: readonly string[], options?: SpawnOptions): string =>
    [process.execPath, ...argv(args, options)].map(shellQuote).join(' ');

  return {
    engines,
    client,
    clientFor,
    bundle: cliPath,
    labelArgs: Object.entries(labels).flatMap(([key, value]) => ['-l', `${key}=${value}`]),
    labelFilter: `berth.cli.suite=${suiteLabel}`,
    start,
    shellCommand,
    shell: (script, options) =>
      collect(
        track(
          spawn('bash', ['-c', `set -o pipefail\nberth() { ${shellCommand([], options)} "$@"; }\n${script}`], {
            env: environment(options),
            stdio: ['ignore', 'pipe', 'pipe'],
            // Its own process group, so that cleanup ends the whole pipeline, not only bash.
            detached: true,
          }),
        ),
      ),
    berth: (args, options) => collect(start(args, options)),
    dockerConfig: (config) => {
      const directory = join(workDir, `docker-config-${++configCount}`);
      writeDockerConfig(directory, config);
      return directory;
    },
    dispose: async () => {
      for (const child of children) killGroupAndProcess(child);
      try {
        for (const engine of [client, ...otherClients.values()]) {
          const leftovers = await engine.containers.list({ all: true, filters: { label: [`berth.cli.suite=${suiteLabel}`] } });
          for (const container of leftovers) await engine.containers.remove(container.Id, { force: true });
        }
      } finally {
        for (const other of otherClients.values()) await other.close();
        await client.close();
        rmSync(workDir, { recursive: true, force: true });
      }
    },
  };
}

function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
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

function killGroupAndProcess(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // Not a group leader (a plain berth child): its own pid is enough.
  }
  child.kill('SIGKILL');
}

/**
 * Polls until `check` holds, every 100 ms, for `attempts` × 100 ms at most (a bound on waiting, not a timing check).
 * The CLI tests' name for test/support/wait.ts `until`.
 */
export function eventually(what: string, check: () => Promise<boolean>, attempts = 100): Promise<void> {
  return until(what, check, { timeoutMs: attempts * 100, intervalMs: 100 });
}
