/**
 * The options of a run beyond image and command, in docker run's syntax: published ports, environment variables and
 * env files, bind mounts and named volumes, network, working directory, entrypoint, user, restart policy and labels.
 * Each is checked with a message that names the bad value and says what to write instead; host paths, env files
 * and host ports are checked on this machine when the engine runs here. The CLI's `berth run` and the extension's
 * options step (with its `berth.run.profiles`) resolve them here into the parts of a create body.
 */
import { createServer } from 'node:net';
import { homedir } from 'node:os';
import { isAbsolute, resolve } from 'node:path';
import { EngineError, type ContainerCreateBody, fsPromises } from '../connection';

export interface RunOptionsInput {
  /** `[ip:][hostPort:]containerPort[/protocol]`, e.g. `8080:80`, `127.0.0.1:8080:80/tcp`, `80` (a random host port). */
  readonly ports?: readonly string[] | undefined;
  /** `KEY=VALUE`, or `KEY` alone to take it from `environment`. */
  readonly env?: readonly string[] | undefined;
  readonly envFiles?: readonly string[] | undefined;
  /** `HOST_PATH:CONTAINER_PATH[:ro]`, `VOLUME:CONTAINER_PATH[:ro]`, or `CONTAINER_PATH` for an anonymous volume. */
  readonly volumes?: readonly string[] | undefined;
  readonly network?: string | undefined;
  readonly workdir?: string | undefined;
  /** One word, as `docker run --entrypoint`; the empty string clears the image's entrypoint. */
  readonly entrypoint?: string | undefined;
  readonly user?: string | undefined;
  /** `no`, `always`, `unless-stopped`, `on-failure[:MAX]`. */
  readonly restart?: string | undefined;
  readonly labels?: Readonly<Record<string, string>> | undefined;
}

export interface ResolveRunOptions {
  /** Where relative host paths and env files start. */
  readonly cwd: string;
  /** Where `KEY` alone takes its value from. */
  readonly environment: NodeJS.ProcessEnv;
  /** The engine runs on this machine: host paths must exist and host ports must be free here. */
  readonly engineIsLocal: boolean;
  /** The run removes the container when it exits, which a restart policy contradicts. */
  readonly autoRemove?: boolean | undefined;
}

/** What the options add to a create body. */
export interface ResolvedRunOptions {
  readonly env: string[] | undefined;
  readonly labels: Record<string, string> | undefined;
  readonly networkMode: string | undefined;
  readonly config: Partial<Pick<ContainerCreateBody, 'Entrypoint' | 'WorkingDir'>> & { User?: string; ExposedPorts?: Record<string, object>; Volumes?: Record<string, object> };
  readonly hostConfig: { PortBindings?: Record<string, Array<{ HostIp: string; HostPort: string }>>; Binds?: string[]; RestartPolicy?: { Name: string; MaximumRetryCount: number } };
}

export interface PortSpec {
  readonly hostIp: string;
  /** '' for a port the engine picks. */
  readonly hostPort: string;
  readonly containerPort: number;
  readonly protocol: 'tcp' | 'udp' | 'sctp';
}

function refuse(message: string, hint: string): never {
  throw new EngineError('bad-request', message, { hint });
}

/** docker's `-p` syntax; throws a message such as "port 70000 is out of range". */
export function parsePortSpec(spec: string): PortSpec {
  const hint = 'Write [IP:][HOST_PORT:]CONTAINER_PORT[/tcp|udp], e.g. 8080:80 or 127.0.0.1:8080:80/tcp; leave HOST_PORT out for a random one';
  let rest = spec.trim();
  let protocol: PortSpec['protocol'] = 'tcp';
  const slash = rest.lastIndexOf('/');
  if (slash !== -1) {
    const named = rest.slice(slash + 1).toLowerCase();
    if (named !== 'tcp' && named !== 'udp' && named !== 'sctp') refuse(`invalid protocol "${named}" in port "${spec}"`, hint);
    protocol = named;
    rest = rest.slice(0, slash);
  }
  let hostIp = '';
  const bracket = /^\[([0-9a-fA-F:.]+)\]:(.*)$/.exec(rest);
  if (bracket) {
    hostIp = bracket[1] as string;
    rest = bracket[2] as string;
  }
  const parts = rest.split(':');
  if (parts.length > 3 || (bracket && parts.length > 2)) refuse(`invalid port "${spec}"`, hint);
  if (parts.length === 3) hostIp = parts.shift() as string;
  const containerText = parts.pop() as string;
  const hostText = parts.pop() ?? '';
  if (hostIp !== '' && !/^(\d{1,3}(\.\d{1,3}){3}|[0-9a-fA-F:]+)$/.test(hostIp)) refuse(`invalid IP address "${hostIp}" in port "${spec}"`, hint);
  const containerPort = portNumber(containerText, spec, hint, 'container port');
  if (hostText !== '') portNumber(hostText, spec, hint, 'host port');
  return { hostIp, hostPort: hostText, containerPort, protocol };
}

function portNumber(text: string, spec: string, hint: string, what: string): number {
  if (text.includes('-')) refuse(`port ranges such as "${text}" are not supported (in "${spec}")`, 'Publish each port with its own -p');
  if (!/^\d+$/.test(text)) refuse(`invalid ${what} "${text}" in "${spec}"`, hint);
  const port = Number(text);
  if (port < 1 || port > 65535) refuse(`port ${port} is out of range`, 'Ports go from 1 to 65535');
  return port;
}

/** A `-v` value: a bind mount (its host path absolute or starting with `.`), a named volume, or an anonymous one. */
export function parseVolumeSpec(spec: string, cwd: string): { kind: 'bind' | 'volume' | 'anonymous'; source: string; target: string; readOnly: boolean } {
  const hint = 'Write HOST_PATH:CONTAINER_PATH[:ro] or VOLUME_NAME:CONTAINER_PATH[:ro]; the container path is absolute';
  const parts = spec.split(':');
  let readOnly = false;
  const last = parts[parts.length - 1] as string;
  if (parts.length >= 2 && /^(ro|rw|z|Z|ro,z|ro,Z)$/.test(last)) {
    readOnly = last.startsWith('ro');
    parts.pop();
  }
  if (parts.length === 1) {
    const target = parts[0] as string;
    if (!target.startsWith('/')) refuse(`invalid volume "${spec}": the container path must be absolute`, hint);
    return { kind: 'anonymous', source: '', target, readOnly };
  }
  if (parts.length !== 2) refuse(`invalid volume "${spec}"`, hint);
  const [source, target] = parts as [string, string];
  if (!target.startsWith('/')) refuse(`invalid volume "${spec}": the container path "${target}" must be absolute`, hint);
  if (source.startsWith('~')) return { kind: 'bind', source: homePath(source, spec), target, readOnly };
  if (source.startsWith('/') || source.startsWith('.')) {
    return { kind: 'bind', source: resolve(cwd, source), target, readOnly };
  }
  if (!/^[a-zA-Z0-9][a-zA-Z0-9_.-]*$/.test(source)) refuse(`invalid volume name "${source}" in "${spec}"`, 'Volume names use letters, digits, _ . and -; a host path starts with / or .');
  return { kind: 'volume', source, target, readOnly };
}

/**
 * `~` and `~/…` as a shell would expand them before docker saw the value: the options box has no shell, and
 * resolving them against the workspace folder named a path nobody meant. Another user's `~name` is refused rather
 * than guessed.
 */
function homePath(source: string, spec: string): string {
  if (source === '~' || source.startsWith('~/')) return resolve(homedir(), `.${source.slice(1)}`);
  const user = source.split('/')[0] as string;
  return refuse(`invalid volume "${spec}": "${user}" names another user's home folder, which is not expanded here`, 'Write the full host path instead, or ~/… for your own home folder');
}

/** A `-e` value: `KEY=VALUE`, or `KEY` alone; an empty key (`=x`) is refused. */
export function checkEnvEntry(entry: string): void {
  if (entry === '' || entry.startsWith('=')) refuse(`invalid environment variable "${entry}"`, 'Write KEY=VALUE, or KEY alone to pass on its value from here');
}

/** `on-failure:3` → `{ Name: 'on-failure', MaximumRetryCount: 3 }`. */
export function parseRestartPolicy(text: string): { Name: string; MaximumRetryCount: number } {
  const [name, count, extra] = text.trim().split(':');
  const hint = 'Use no, always, unless-stopped or on-failure[:MAX_RETRIES]';
  if (extra !== undefined || !['no', 'always', 'unless-stopped', 'on-failure'].includes(name ?? '')) refuse(`invalid restart policy "${text}"`, hint);
  if (count !== undefined && (name !== 'on-failure' || !/^\d+$/.test(count))) refuse(`invalid restart policy "${text}": only on-failure takes a retry count`, hint);
  return { Name: name as string, MaximumRetryCount: count === undefined ? 0 : Number(count) };
}

/** An env file as docker reads it: `KEY=VALUE` lines as they are, `KEY` alone from the environment, `#` comments. */
export function parseEnvFile(text: string, file: string, environment: NodeJS.ProcessEnv): string[] {
  const entries: string[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.replace(/^\s+/, '');
    if (line === '' || line.startsWith('#')) return;
    const equals = line.indexOf('=');
    const key = equals === -1 ? line.trimEnd() : line.slice(0, equals);
    if (key === '' || /\s/.test(key)) refuse(`invalid line ${index + 1} in env file ${file}: "${key}" is not a variable name`, 'Write one KEY=VALUE per line');
    if (equals !== -1) entries.push(line);
    else if (environment[key] !== undefined) entries.push(`${key}=${environment[key]}`);
  });
  return entries;
}

/** An engine on this machine (its socket, or loopback TCP): host paths and ports are checked here. */
export function isLocalEngine(endpoint: { readonly kind: string; readonly host: string }): boolean {
  return endpoint.kind === 'unix' || /^tcp:\/\/(127\.\d+\.\d+\.\d+|localhost|\[::1\])(:|$)/.test(endpoint.host);
}

/** Checks every option and turns them into create-body parts; the first bad one throws its message. */
export async function resolveRunOptions(input: RunOptionsInput, context: ResolveRunOptions): Promise<ResolvedRunOptions> {
  const config: ResolvedRunOptions['config'] = {};
  const hostConfig: ResolvedRunOptions['hostConfig'] = {};
  const env: string[] = [];
  for (const file of input.envFiles ?? []) {
    const path = resolve(context.cwd, file);
    let text: string;
    try {
      text = await fsPromises().readFile(path, 'utf8');
    } catch (error) {
      refuse(`cannot read env file ${file}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'it does not exist' : (error as Error).message}`, 'Check the path (relative paths start from the current folder)');
    }
    env.push(...parseEnvFile(text, file, context.environment));
  }
  for (const entry of input.env ?? []) {
    checkEnvEntry(entry);
    if (entry.includes('=')) env.push(entry);
    else if (context.environment[entry] !== undefined) env.push(`${entry}=${context.environment[entry]}`);
  }
  for (const spec of input.ports ?? []) {
    const port = parsePortSpec(spec);
    const key = `${port.containerPort}/${port.protocol}`;
    (config.ExposedPorts ??= {})[key] = {};
    ((hostConfig.PortBindings ??= {})[key] ??= []).push({ HostIp: port.hostIp, HostPort: port.hostPort });
    if (context.engineIsLocal && port.hostPort !== '' && port.protocol === 'tcp') await assertPortFree(Number(port.hostPort), port.hostIp);
  }
  for (const spec of input.volumes ?? []) {
    const volume = parseVolumeSpec(spec, context.cwd);
    if (volume.kind === 'anonymous') {
      (config.Volumes ??= {})[volume.target] = {};
      continue;
    }
    if (volume.kind === 'bind' && context.engineIsLocal) await assertHostPathExists(volume.source);
    (hostConfig.Binds ??= []).push(`${volume.source}:${volume.target}${volume.readOnly ? ':ro' : ''}`);
  }
  if (input.workdir !== undefined && input.workdir !== '') {
    if (!input.workdir.startsWith('/')) refuse(`the working directory "${input.workdir}" is not an absolute path`, 'Give an absolute path in the container, e.g. /app');
    config.WorkingDir = input.workdir;
  }
  if (input.entrypoint !== undefined) config.Entrypoint = [input.entrypoint];
  if (input.user !== undefined && input.user !== '') {
    if (/\s/.test(input.user)) refuse(`invalid user "${input.user}"`, 'Write NAME or UID, optionally :GROUP or :GID');
    config.User = input.user;
  }
  if (input.restart !== undefined && input.restart !== '') {
    hostConfig.RestartPolicy = parseRestartPolicy(input.restart);
    if (context.autoRemove && hostConfig.RestartPolicy.Name !== 'no') refuse(`a restart policy (${input.restart}) and remove-when-done contradict each other`, 'Choose one of them');
  }
  const labels = input.labels && Object.keys(input.labels).length > 0 ? { ...input.labels } : undefined;
  const network = input.network?.trim();
  return { env: env.length > 0 ? env : undefined, labels, networkMode: network || undefined, config, hostConfig };
}

async function assertHostPathExists(path: string): Promise<void> {
  if (!isAbsolute(path)) return;
  try {
    await fsPromises().stat(path);
  } catch {
    refuse(`${path} does not exist on this machine`, 'Create it first, or fix the path of the bind mount (a named volume is written without a leading / or .)');
  }
}

/** A host port in use here makes the start fail late; say so before anything is created. */
function assertPortFree(port: number, hostIp: string): Promise<void> {
  return new Promise((resolveCheck, reject) => {
    const server = createServer();
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') {
        reject(new EngineError('conflict', `port ${port} is already in use on this machine`, { hint: 'Stop what listens there, or publish another host port (or leave it out for a random one)' }));
      } else resolveCheck(); // Not ours to judge (e.g. an address of another machine): the engine decides.
    });
    server.listen({ port, host: hostIp === '' ? undefined : hostIp, exclusive: true }, () => server.close(() => resolveCheck()));
  });
}
