import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { loadTestEngines, type TestEngines } from '../support/engines';
import { REPO_ROOT } from './codeServer';

const execFileAsync = promisify(execFile);

/**
 * The private engines from scripts/engines.sh. A standalone `npm run test:integration` starts them when they are not
 * running (the CI script starts them before this stage and stops them after).
 */
export async function prepareEngines(): Promise<TestEngines> {
  try {
    return loadTestEngines();
  } catch (error) {
    console.log(`${(error as Error).message}; starting them`);
    await execFileAsync('bash', ['scripts/engines.sh', 'start'], { cwd: REPO_ROOT, maxBuffer: 16 * 1024 * 1024 });
    return loadTestEngines();
  }
}

/**
 * Settings every Berth test run uses: the private engine it targets (the dockerd, or Podman in the matrix's Podman
 * pass) and no container networking (the engines have no bridge).
 */
export function berthTestSettings(engineHost: string): Record<string, unknown> {
  return { 'berth.run.network': 'none', 'berth.build.network': 'none', 'berth.engine.host': engineHost };
}
