import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { pollUntil, sleep } from './deadline';
import { freeLoopbackPort } from './ports';

const execFileAsync = promisify(execFile);

export const REPO_ROOT = resolve(__dirname, '..', '..');
export const CODE_SERVER_VERSION = '4.100.3';
export const VSCODE_VERSION = '1.100.3';
/** Where Berth's saved listings (src/model/savedListing.ts) live under a user-data dir: its global storage. */
export const SAVED_LISTINGS_DIR = join('User', 'globalStorage', 'berth.berth', 'listings');

/** Installs code-server into the version-keyed cache when missing (fast when cached) and returns its binary. */
export async function ensureCodeServer(): Promise<string> {
  const { stdout } = await execFileAsync('bash', [join(REPO_ROOT, 'scripts', 'code-server.sh'), 'install'], {
    cwd: REPO_ROOT,
    maxBuffer: 16 * 1024 * 1024,
    env: { ...process.env, CI: process.env.CI ?? 'true' },
  });
  const bin = stdout.trim().split('\n').pop();
  if (!bin) throw new Error('scripts/code-server.sh install printed no binary path');
  return bin;
}

/** Settings that keep the workbench quiet and offline, plus the caller's (e.g. berth.engine.host). */
export function quietSettings(extra: Record<string, unknown>): Record<string, unknown> {
  return {
    'workbench.startupEditor': 'none',
    'workbench.tips.enabled': false,
    'workbench.enableExperiments': false,
    'workbench.welcomePage.walkthroughs.openOnInstall': false,
    'telemetry.telemetryLevel': 'off',
    'update.mode': 'none',
    'extensions.autoCheckUpdates': false,
    'extensions.autoUpdate': false,
    'extensions.ignoreRecommendations': true,
    'security.workspace.trust.enabled': false,
    'git.enabled': false,
    'npm.autoDetect': 'off',
    'typescript.disableAutomaticTypeAcquisition': true,
    'chat.commandCenter.enabled': false,
    'chat.disableAIFeatures': true,
    'window.restoreWindows': 'none',
    'terminal.integrated.enablePersistentSessions': false,
    'terminal.integrated.shellIntegration.enabled': false,
    'terminal.integrated.showTerminalConfigPrompt': false,
    ...extra,
  };
}

/** The gallery points at a loopback port nobody listens on, so extension lookups fail fast and stay on the machine. */
function deadGallery(port: number): string {
  const base = `http://127.0.0.1:${port}`;
  return JSON.stringify({
    serviceUrl: `${base}/gallery`,
    itemUrl: `${base}/items`,
    resourceUrlTemplate: `${base}/resource/{publisher}/{name}/{version}/{path}`,
    controlUrl: '',
    recommendationsUrl: '',
  });
}

export interface CodeServerOptions {
  /** Extra settings merged over the quiet ones. */
  settings?: Record<string, unknown>;
  /** Where code-server's own output goes (a file); defaults to <tempRoot>/code-server.log. */
  logFile?: string;
  /** Extensions dir to reuse (e.g. one a .vsix was installed into); default: a fresh one under the temp dir. */
  extensionsDir?: string;
  /** Extra environment (e.g. DOCKER_HOST for the extension host). */
  env?: NodeJS.ProcessEnv;
  /** The display language (`--locale`); it must be available, e.g. through a language pack in extensionsDir. */
  locale?: string;
  /** Files to write into the user-data dir before the start (path relative to it → content). */
  userDataFiles?: Readonly<Record<string, string>>;
}

export interface CodeServer {
  readonly bin: string;
  readonly port: number;
  readonly origin: string;
  readonly tempRoot: string;
  readonly userDataDir: string;
  readonly extensionsDir: string;
  readonly workspaceDir: string;
  readonly logFile: string;
  readonly pid: number;
  /** The workbench URL, optionally with the extension-development payload (see vscode-testing-notes.md). */
  workbenchUrl(payload?: Array<[string, string]>): string;
  /** A `vscode-remote://` URI the workbench resolves on this server's file system. */
  remoteUri(absPath: string): string;
  /** Ends code-server (its process group, by PID) and removes the temp dir. */
  stop(): Promise<void>;
}

/** A private temp root with user-data, extensions and workspace dirs that nothing else shares. */
export async function makeTempRoot(prefix = 'berth-vscode-'): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

/** Installs a .vsix into an extensions dir with the code-server CLI (offline). */
export async function installVsix(bin: string, vsixPath: string, extensionsDir: string, userDataDir: string): Promise<string> {
  await mkdir(extensionsDir, { recursive: true });
  await mkdir(userDataDir, { recursive: true });
  const { stdout, stderr } = await execFileAsync(
    bin,
    ['--extensions-dir', extensionsDir, '--user-data-dir', userDataDir, '--install-extension', vsixPath],
    { env: { ...process.env, EXTENSIONS_GALLERY: deadGallery(await freeLoopbackPort()) }, maxBuffer: 4 * 1024 * 1024 },
  );
  return `${stdout}${stderr}`;
}

export async function startCodeServer(options: CodeServerOptions = {}): Promise<CodeServer> {
  const bin = await ensureCodeServer();
  const tempRoot = await makeTempRoot();
  const userDataDir = join(tempRoot, 'user-data');
  const extensionsDir = options.extensionsDir ?? join(tempRoot, 'extensions');
  const workspaceDir = join(tempRoot, 'workspace');
  const logFile = options.logFile ?? join(tempRoot, 'code-server.log');
  await mkdir(join(userDataDir, 'User'), { recursive: true });
  await mkdir(extensionsDir, { recursive: true });
  await mkdir(workspaceDir, { recursive: true });
  await writeFile(
    join(userDataDir, 'User', 'settings.json'),
    JSON.stringify(quietSettings(options.settings ?? {}), null, 2),
  );
  // The remote ("Machine") settings too: once any setting is written, the workbench re-sends the configuration
  // without user-level values of machine-scoped settings (berth.engine.host is machine-overridable).
  await mkdir(join(userDataDir, 'Machine'), { recursive: true });
  await writeFile(join(userDataDir, 'Machine', 'settings.json'), JSON.stringify(options.settings ?? {}, null, 2));
  await writeFile(join(workspaceDir, 'README.txt'), 'Berth test workspace\n');
  for (const [path, content] of Object.entries(options.userDataFiles ?? {})) {
    await mkdir(dirname(join(userDataDir, path)), { recursive: true });
    await writeFile(join(userDataDir, path), content);
  }

  const port = await freeLoopbackPort();
  const galleryPort = await freeLoopbackPort();
  const log = createWriteStream(logFile, { flags: 'a' });
  const child: ChildProcess = spawn(
    bin,
    [
      '--auth', 'none',
      '--bind-addr', `127.0.0.1:${port}`,
      '--user-data-dir', userDataDir,
      '--extensions-dir', extensionsDir,
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      '--disable-getting-started-override',
      ...(options.locale ? ['--locale', options.locale] : []),
      workspaceDir,
    ],
    {
      cwd: tempRoot,
      // Its own process group, so stop() ends the server, its extension hosts and pty hosts together by PID.
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      // BERTH_VSCODE_USER_DATA_DIR lets a suite in the extension host find the log files under it.
      env: {
        ...process.env,
        ...options.env,
        EXTENSIONS_GALLERY: deadGallery(galleryPort),
        BERTH_VSCODE_USER_DATA_DIR: userDataDir,
      },
    },
  );
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  const pid = child.pid;
  if (pid === undefined) throw new Error(`could not start ${bin}`);
  const exited = new Promise<void>((resolveExit) => child.once('exit', () => resolveExit()));

  const origin = `http://127.0.0.1:${port}`;
  // If the launcher exits without stop() (a deadline hit, an uncaught error), the detached server must not outlive it.
  const killOnExit = (): void => signalGroup(pid, 'SIGKILL');
  process.once('exit', killOnExit);
  const stop = async (): Promise<void> => {
    process.removeListener('exit', killOnExit);
    if (child.exitCode === null && child.signalCode === null) {
      signalGroup(pid, 'SIGTERM');
      const ended = await Promise.race([exited.then(() => true), sleep(5000).then(() => false)]);
      if (!ended) signalGroup(pid, 'SIGKILL');
    }
    // Leftover children of the group (extension host, pty host) get the same treatment.
    signalGroup(pid, 'SIGKILL');
    log.end();
    // BERTH_KEEP_VSCODE_TEMP=1 keeps user data and logs (the extension's Berth.log among them) for debugging.
    if (process.env.BERTH_KEEP_VSCODE_TEMP === '1') console.log(`kept ${tempRoot}`);
    else await rm(tempRoot, { recursive: true, force: true, maxRetries: 3 });
  };

  try {
    await pollUntil(
      async () => {
        if (child.exitCode !== null) throw new Error(`code-server exited with ${child.exitCode}; see ${logFile}`);
        const response = await fetch(`${origin}/healthz`);
        return response.ok ? true : undefined;
      },
      30_000,
      `code-server /healthz on ${origin}`,
    );
  } catch (error) {
    await stop();
    throw error;
  }

  const remoteUri = (absPath: string): string => `vscode-remote://127.0.0.1:${port}${absPath}`;
  return {
    bin,
    port,
    origin,
    tempRoot,
    userDataDir,
    extensionsDir,
    workspaceDir,
    logFile,
    pid,
    remoteUri,
    workbenchUrl(payload?: Array<[string, string]>): string {
      const query = new URLSearchParams({ folder: workspaceDir });
      if (payload && payload.length > 0) query.set('payload', JSON.stringify(payload));
      return `${origin}/?${query.toString()}`;
    },
    stop,
  };
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}
