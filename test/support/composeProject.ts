// A Compose project on disk for tests and benches: a compose file whose every service has `network_mode: none`
// (so Compose creates no network on the test engines) and the cleanup labels, run with Debian's docker-compose
// against a private engine (DOCKER_HOST only; never a shell). `down` at the end removes what `up` made.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cleanupLabel } from './engines';

export interface ServiceSpec {
  readonly command: readonly string[];
  readonly profiles?: readonly string[];
  readonly restart?: string;
}

export interface ComposeFixture {
  readonly dir: string;
  readonly file: string;
  readonly project: string;
  /** Runs docker-compose with `-f file -p project` and these arguments; rejects with its stderr on a non-zero exit. */
  readonly compose: (args: readonly string[]) => Promise<{ stdout: string; stderr: string }>;
  readonly dispose: () => Promise<void>;
}

/** The compose file's text: YAML written by hand, every value JSON-quoted (JSON is YAML). */
export function composeYaml(image: string, services: Readonly<Record<string, ServiceSpec>>, labels: Readonly<Record<string, string>> = {}): string {
  const lines = ['services:'];
  for (const [name, spec] of Object.entries(services)) {
    // `$$` is Compose's escape for a literal `$`: the shell, not Compose, expands these variables.
    const command = spec.command.map((word) => word.replace(/\$/g, '$$$$'));
    lines.push(`  ${name}:`, `    image: ${JSON.stringify(image)}`, '    network_mode: "none"', `    command: ${JSON.stringify(command)}`);
    lines.push(`    labels: ${JSON.stringify({ ...labels, ...cleanupLabel })}`);
    if (spec.profiles) lines.push(`    profiles: ${JSON.stringify(spec.profiles)}`);
    if (spec.restart) lines.push(`    restart: ${JSON.stringify(spec.restart)}`);
  }
  return `${lines.join('\n')}\n`;
}

export function runProgram(command: string, args: readonly string[], env: NodeJS.ProcessEnv, cwd?: string): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(command, [...args], { env, cwd, timeout: 120_000, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${command} ${args.join(' ')} failed: ${stderr || error.message}`));
      else resolve({ stdout, stderr });
    });
  });
}

export async function composeFixture(host: string, image: string, project: string, services: Readonly<Record<string, ServiceSpec>>): Promise<ComposeFixture> {
  const dir = await mkdtemp(join(tmpdir(), `berth-${project}-`));
  const file = join(dir, 'compose.yaml');
  await writeFile(file, composeYaml(image, services));
  const env = { ...process.env, DOCKER_HOST: host, DOCKER_CONTEXT: '', COMPOSE_INTERACTIVE_NO_CLI: '1' };
  const compose = (args: readonly string[]): Promise<{ stdout: string; stderr: string }> => runProgram('docker-compose', ['-f', file, '-p', project, ...args], env, dir);
  return {
    dir,
    file,
    project,
    compose,
    dispose: async () => {
      await compose(['down', '-t', '0', '--remove-orphans']).catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
