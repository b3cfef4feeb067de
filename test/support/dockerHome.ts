// The docker home of a test's own, for the docker CLI and for berth: a DOCKER_CONFIG directory that the test writes,
// so that neither reads the user's ~/.docker (credentials, contexts, a currentContext pointing elsewhere). Also the
// docker CLI spawned against one engine with no home at all, for the output comparisons.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Writes DIRECTORY/config.json and returns DIRECTORY, to pass as DOCKER_CONFIG. CONFIG is written as JSON, or as
 * given when it is a string (a test of a malformed file writes the broken text itself).
 */
export function writeDockerConfig(directory: string, config: unknown = {}): string {
  mkdirSync(directory, { recursive: true });
  writeFileSync(join(directory, 'config.json'), typeof config === 'string' ? config : JSON.stringify(config));
  return directory;
}

/** A new temporary DOCKER_CONFIG directory (named after PREFIX) holding config.json with CONFIG. */
export function temporaryDockerConfig(prefix: string, config: unknown = {}): string {
  return writeDockerConfig(mkdtempSync(join(tmpdir(), `${prefix}-`)), config);
}

export interface DockerCliResult<Output> {
  readonly status: number | null;
  readonly stdout: Output;
  readonly stderr: Output;
}

// HOME points nowhere, so the CLI reads no config.json, no context and no credential helper of the machine's user.
const cliEnvironment = (): NodeJS.ProcessEnv => ({ PATH: process.env.PATH ?? '', HOME: '/nonexistent' });

/** The docker CLI on HOST (`-H`), its output as text. */
export function dockerCli(host: string, args: readonly string[]): DockerCliResult<string> {
  const result = spawnSync('docker', ['-H', host, ...args], { encoding: 'utf8', env: cliEnvironment() });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The docker CLI on HOST (`-H`), its two streams as bytes (up to 64 MiB each). */
export function dockerCliBytes(host: string, args: readonly string[]): DockerCliResult<Buffer> {
  const result = spawnSync('docker', ['-H', host, ...args], { maxBuffer: 64 * 1024 * 1024, env: cliEnvironment() });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The DOCKER_CONFIG that scripts/engines.sh writes beside the private engines (STATE_DIR is engines.json's stateDir). */
export function enginesDockerConfig(stateDir: string): string {
  return join(stateDir, 'docker-config');
}
