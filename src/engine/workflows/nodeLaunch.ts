/**
 * Launching a Node.js app in a container for debugging (the `berth-node` debug configuration): the workspace folder
 * copied into the container (what `.dockerignore` leaves out stays out), the app started with the inspector on
 * 127.0.0.1 inside the container, where a port forward reaches it through the container's own network namespace.
 * The folder is copied rather than bind-mounted so that the same configuration works on a remote engine (ssh, TLS)
 * and on rootless Podman, whose bind mounts would need the host path and its permissions.
 */
import { isAbsolute, posix, relative, resolve, sep } from 'node:path';
import type { EngineClient } from '../api';
import { contextTar, parseDockerignore } from '../build';
import { EngineError, fsPromises } from '../connection';
import { tarOf } from '../files';

export interface NodeLaunchSpec {
  readonly image: string;
  /** The script node runs, relative to `remoteRoot` (or absolute in the container). */
  readonly program: string;
  readonly args?: readonly string[] | undefined;
  /** Absolute folder in the container: the working directory, and where the workspace folder is copied to. */
  readonly remoteRoot: string;
  readonly inspectorPort: number;
  /** The container's NetworkMode; the engine's default when undefined. */
  readonly networkMode?: string | undefined;
  readonly env?: Readonly<Record<string, string>> | undefined;
  readonly labels?: Readonly<Record<string, string>> | undefined;
  /** The folder on this machine copied to `remoteRoot` before the app starts; nothing is copied when undefined. */
  readonly workspaceFolder?: string | undefined;
}

export interface LaunchedNodeApp {
  readonly id: string;
  readonly name: string;
}

/** The label every container a `berth-node` configuration started carries. */
export const NODE_LAUNCH_LABEL = 'berth.debug';

/** `node --inspect=127.0.0.1:PORT PROGRAM ARGS…`: the inspector only inside the container, reached by the forward. */
export function nodeLaunchCommand(spec: Pick<NodeLaunchSpec, 'program' | 'args' | 'inspectorPort'>): string[] {
  return ['node', `--inspect=127.0.0.1:${spec.inspectorPort}`, spec.program, ...(spec.args ?? [])];
}

/** A clear refusal for what a configuration cannot mean, before anything is created. */
export function checkNodeLaunchSpec(spec: Pick<NodeLaunchSpec, 'program' | 'remoteRoot' | 'inspectorPort'>): void {
  if (!Number.isInteger(spec.inspectorPort) || spec.inspectorPort < 1 || spec.inspectorPort > 65535) {
    throw new EngineError('bad-request', `Inspector port ${String(spec.inspectorPort)} is not a port`, { hint: 'Set inspectorPort to a number from 1 to 65535' });
  }
  if (!spec.remoteRoot.startsWith('/')) {
    throw new EngineError('bad-request', `remoteRoot ${spec.remoteRoot} is not an absolute path in the container`, { hint: 'Set remoteRoot to a path starting with /, e.g. /app' });
  }
  if (spec.program.trim() === '') {
    throw new EngineError('bad-request', 'The configuration names no program', { hint: 'Set program to the script node runs, relative to the workspace folder, e.g. app.js' });
  }
}

/** The Dockerfile DOCKERFILE (relative to FOLDER) names, as an absolute path; a clear refusal when it is not a file. */
export async function locateLaunchDockerfile(folder: string, dockerfile: string): Promise<string> {
  const path = resolve(folder, dockerfile);
  const found = await fsPromises().stat(path).catch(() => undefined);
  if (found?.isFile() !== true) {
    throw new EngineError('not-found', `The Dockerfile ${dockerfile} does not exist in ${folder}`, {
      hint: 'Correct the dockerfile attribute of the berth-node configuration (a path relative to the workspace folder), or remove it and name an image',
    });
  }
  return path;
}

/** The workspace folder as a tar, with what its `.dockerignore` excludes left out (the build context's rules). */
async function workspaceTar(folder: string, signal?: AbortSignal): Promise<NodeJS.ReadableStream> {
  const ignore = await fsPromises().readFile(resolve(folder, '.dockerignore'), 'utf8').catch(() => '');
  const tar = contextTar({ contextDir: folder, dockerfilePath: '', dockerfileInTar: '', excludes: parseDockerignore(ignore), externalDockerfile: undefined }, signal);
  return tar as unknown as NodeJS.ReadableStream;
}

/** A tar of the directories of ABSOLUTE (`/srv/app` → `srv/`, `srv/app/`), put at `/` so that the path exists. */
function directoriesTar(absolute: string): Promise<Buffer> {
  const parts = posix.normalize(absolute).split('/').filter((part) => part !== '');
  const names = parts.map((_, index) => `${parts.slice(0, index + 1).join('/')}/`);
  return tarOf(names.map((name) => ({ header: { name, type: 'directory', mode: 0o755 } })));
}

/** The program as node is given it: a path inside the workspace folder becomes relative to `remoteRoot`. */
export function programInContainer(program: string, workspaceFolder: string | undefined): string {
  if (workspaceFolder === undefined || !isAbsolute(program)) return program;
  const inside = relative(workspaceFolder, program);
  if (inside.startsWith('..') || isAbsolute(inside)) return program;
  return inside.split(sep).join('/');
}

/**
 * Creates the container, copies the workspace folder into it and starts the app with the inspector on. A failure
 * after the create removes the container again, so nothing is left behind.
 */
export async function launchNodeApp(client: EngineClient, spec: NodeLaunchSpec, signal?: AbortSignal): Promise<LaunchedNodeApp> {
  checkNodeLaunchSpec(spec);
  const created = await client.containers.create(
    {
      Image: spec.image,
      Cmd: nodeLaunchCommand(spec),
      Entrypoint: [],
      WorkingDir: spec.remoteRoot,
      Env: Object.entries(spec.env ?? {}).map(([key, value]) => `${key}=${value}`),
      Labels: { ...spec.labels, [NODE_LAUNCH_LABEL]: 'berth-node' },
      HostConfig: spec.networkMode !== undefined && spec.networkMode !== '' ? { NetworkMode: spec.networkMode } : {},
    },
    { signal },
  );
  try {
    if (spec.workspaceFolder !== undefined) {
      await client.containers.putArchive(created.Id, '/', await directoriesTar(spec.remoteRoot), { signal });
      await client.containers.putArchive(created.Id, spec.remoteRoot, await workspaceTar(spec.workspaceFolder, signal), { signal });
    }
    await client.containers.start(created.Id, { signal });
    const inspect = await client.containers.inspect(created.Id, { signal });
    return { id: created.Id, name: inspect.Name.replace(/^\//, '') };
  } catch (error) {
    await client.containers.remove(created.Id, { force: true }).catch(() => undefined);
    throw error;
  }
}

/**
 * Why the app's inspector never answered, when the container says: it exited (with its status), else undefined.
 * The container is removed by the caller either way.
 */
export async function exitedBeforeInspector(client: EngineClient, id: string): Promise<EngineError | undefined> {
  const inspect = await client.containers.inspect(id).catch(() => undefined);
  if (inspect === undefined || inspect.State.Running) return undefined;
  return new EngineError('server', `The app exited with status ${inspect.State.ExitCode} before its inspector answered`, {
    hint: "Check the program and its arguments in the berth-node configuration (the container's logs say more), then start debugging again",
  });
}
