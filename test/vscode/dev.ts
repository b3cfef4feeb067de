// The body of scripts/dev.sh: code-server with Berth loaded from this folder, against the local engine when one
// answers, else the private test engine (started here, stopped on Ctrl-C). Prints the URL, stays in the foreground.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { EngineClient } from '../../src/engine';
import { loadTestEngines } from '../support/engines';
import { REPO_ROOT, startCodeServer } from './codeServer';

const execFileAsync = promisify(execFile);

interface EngineChoice {
  /** Settings for Berth; empty when the extension should find the engine like the CLI does. */
  settings: Record<string, unknown>;
  description: string;
  startedPrivateEngine: boolean;
}

/** Pings the engine the CLI would use (DOCKER_HOST, context, default sockets). Never starts anything there. */
async function localEngine(): Promise<string | undefined> {
  let client: EngineClient | undefined;
  try {
    client = EngineClient.fromEnvironment();
    await client.system.ping({ signal: AbortSignal.timeout(3000) });
    return client.endpoint.display;
  } catch {
    return undefined;
  } finally {
    await client?.close().catch(() => undefined);
  }
}

async function chooseEngine(): Promise<EngineChoice> {
  const found = await localEngine();
  if (found) return { settings: {}, description: `local engine at ${found}`, startedPrivateEngine: false };
  console.log('No local engine answers; starting the private test engine (bash scripts/engines.sh start)…');
  let alreadyRunning = false;
  try {
    loadTestEngines();
    alreadyRunning = true;
  } catch {
    alreadyRunning = false;
  }
  await execFileAsync('bash', ['scripts/engines.sh', 'start'], { cwd: REPO_ROOT, maxBuffer: 16 * 1024 * 1024 });
  const engines = loadTestEngines();
  return {
    // The private engine has no bridge network, so containers Berth runs get none.
    settings: { 'berth.engine.host': engines.dockerHost, 'berth.run.network': 'none' },
    description: `private engine at ${engines.dockerHost}`,
    startedPrivateEngine: !alreadyRunning,
  };
}

async function main(): Promise<void> {
  const engine = await chooseEngine();
  const server = await startCodeServer({ settings: engine.settings });
  const url = server.workbenchUrl([['extensionDevelopmentPath', server.remoteUri(REPO_ROOT)]]);
  console.log(`\nBerth in VS Code (code-server), ${engine.description}:\n\n  ${url}\n\nCtrl-C stops it.`);

  let stopping = false;
  const stop = async (): Promise<void> => {
    if (stopping) return;
    stopping = true;
    console.log('\nstopping code-server…');
    await server.stop();
    if (engine.startedPrivateEngine) {
      console.log('stopping the private engine…');
      await execFileAsync('bash', ['scripts/engines.sh', 'stop'], { cwd: REPO_ROOT }).catch((error: unknown) => {
        console.error(String(error));
      });
    }
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
  // Keeps the event loop (and so the foreground) alive until a signal arrives.
  setInterval(() => undefined, 1 << 30);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
