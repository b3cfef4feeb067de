// The "remote" test engines of `bash scripts/engines.sh start-remote` (scripts/lib/remote.sh), as
// $BERTH_STATE_DIR/remote.json describes them: a second private dockerd behind a generated CA on tcp://127.0.0.1,
// and an sshd on 127.0.0.1 whose `docker system dial-stdio` reaches that dockerd. Plain Node: nothing from src/.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { testStateDir } from './engines';

export interface RemoteTls {
  /** tcp://127.0.0.1:PORT, served with a certificate for IP:127.0.0.1 and demanding a client certificate. */
  readonly host: string;
  /** The same daemon on another loopback address the certificate does not name. */
  readonly mismatchedHost: string;
  /** ca.pem, cert.pem, key.pem as DOCKER_CERT_PATH expects them. */
  readonly certPath: string;
  /** The same client certificate, but a ca.pem of a CA that did not sign the server's certificate. */
  readonly untrustedCertPath: string;
}

export interface RemoteSsh {
  /** ssh://root@127.0.0.1:PORT */
  readonly host: string;
  /** A wrapper running the real /usr/bin/ssh with the private client config (never ~/.ssh). */
  readonly command: string;
  readonly configFile: string;
}

export interface RemoteEngines {
  /** unix:// socket of the same remote dockerd, for fixtures and cleanup. */
  readonly dockerHost: string;
  readonly image: string;
  readonly tls: RemoteTls;
  readonly ssh: RemoteSsh;
}

const startRemoteCommand = ['scripts/engines.sh', 'start-remote'];

/**
 * Starts the remote engines (idempotent: about 0.3 s when they already answer) and reads remote.json.
 * It always asks `start-remote` rather than trusting the file: a run that was killed leaves remote.json behind with
 * its engines gone, and the next run on that machine would then fail every remote case with "connection refused".
 */
export function loadRemoteEngines(env: NodeJS.ProcessEnv = process.env): RemoteEngines {
  const file = join(testStateDir(env), 'remote.json');
  const repo = resolve(__dirname, '..', '..');
  execFileSync('bash', startRemoteCommand, { cwd: repo, env, stdio: ['ignore', 'ignore', 'inherit'], timeout: 180_000 });
  const raw = JSON.parse(readFileSync(file, 'utf8')) as RemoteEngines;
  for (const [field, value] of Object.entries({
    dockerHost: raw.dockerHost,
    'tls.host': raw.tls?.host,
    'tls.certPath': raw.tls?.certPath,
    'ssh.host': raw.ssh?.host,
    'ssh.command': raw.ssh?.command,
  })) {
    if (typeof value !== 'string' || value === '') {
      throw new Error(`${file}: "${field}" is missing. Run: bash ${startRemoteCommand.join(' ')}`);
    }
  }
  return raw;
}

/** A private DOCKER_CONFIG directory holding one docker context; removed by `dispose`. */
export interface ContextConfig {
  readonly configDir: string;
  readonly contextName: string;
  dispose(): void;
}

/**
 * Writes a docker CLI context store the way `docker context create` does: contexts/meta/<sha256>/meta.json and,
 * when `tlsFrom` is given, contexts/tls/<sha256>/docker/{ca,cert,key}.pem copied from that directory.
 * `current` also sets `currentContext` in config.json.
 */
export function writeContextConfig(options: {
  readonly contextName: string;
  readonly host: string;
  readonly tlsFrom?: string;
  readonly skipTlsVerify?: boolean;
  readonly current?: boolean;
}): ContextConfig {
  const configDir = mkdtempSync(join(tmpdir(), 'berth-docker-config-'));
  const hash = createHash('sha256').update(options.contextName).digest('hex');
  const metaDir = join(configDir, 'contexts', 'meta', hash);
  mkdirSync(metaDir, { recursive: true });
  const meta = {
    Name: options.contextName,
    Metadata: { Description: 'Berth test context' },
    Endpoints: { docker: { Host: options.host, SkipTLSVerify: options.skipTlsVerify ?? false } },
  };
  writeFileSync(join(metaDir, 'meta.json'), JSON.stringify(meta));
  if (options.tlsFrom !== undefined) {
    const tlsDir = join(configDir, 'contexts', 'tls', hash, 'docker');
    mkdirSync(tlsDir, { recursive: true, mode: 0o700 });
    for (const file of ['ca.pem', 'cert.pem', 'key.pem']) copyFileSync(join(options.tlsFrom, file), join(tlsDir, file));
  }
  if (options.current === true) writeFileSync(join(configDir, 'config.json'), JSON.stringify({ currentContext: options.contextName }));
  return {
    configDir,
    contextName: options.contextName,
    dispose: () => rmSync(configDir, { recursive: true, force: true }),
  };
}
