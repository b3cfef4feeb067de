/** Who uses what: volumes and networks in use, read from the containers' own summaries (their mounts and networks). */
import { EngineError, isEngineError, type ContainerSummary } from '../connection';
import { type EngineClient, isVolumeHelper, VOLUME_HELPER_LABEL } from '../api';

/** Networks every engine creates itself and refuses to remove. */
export const PREDEFINED_NETWORKS: ReadonlySet<string> = new Set(['bridge', 'host', 'none', 'podman']);

interface MountLike {
  Type?: unknown;
  Name?: unknown;
}

export function containerName(container: ContainerSummary): string {
  return container.Names[0]?.replace(/^\//, '') ?? container.Id.slice(0, 12);
}

/** The names of the volumes a container mounts. */
export function mountedVolumes(container: ContainerSummary): string[] {
  const names: string[] = [];
  for (const mount of (container.Mounts ?? []) as MountLike[]) {
    if (mount.Type === 'volume' && typeof mount.Name === 'string') names.push(mount.Name);
  }
  return names;
}

/** Volume name → the names of the containers that mount it. */
export function volumesUsedBy(containers: readonly ContainerSummary[]): Map<string, string[]> {
  const used = new Map<string, string[]>();
  for (const container of containers) {
    for (const volume of mountedVolumes(container)) {
      const users = used.get(volume) ?? [];
      users.push(containerName(container));
      used.set(volume, users);
    }
  }
  return used;
}

/** Network name → the names of the containers attached to it. */
export function networksUsedBy(containers: readonly ContainerSummary[]): Map<string, string[]> {
  const used = new Map<string, string[]>();
  for (const container of containers) {
    for (const network of Object.keys(container.NetworkSettings?.Networks ?? {})) {
      const users = used.get(network) ?? [];
      users.push(containerName(container));
      used.set(network, users);
    }
  }
  return used;
}

/** An anonymous volume's name is 64 hex digits: shown shortened, and marked. */
export function isAnonymousVolume(name: string): boolean {
  return /^[0-9a-f]{64}$/.test(name);
}

/**
 * Removes a volume; when the engine refuses because it is in use (it names container ids), the error names the
 * containers instead, with what to do next. Berth's own helpers are not users: when only they hold the volume, they
 * are removed and the volume after them.
 */
export async function removeVolumeNamingUsers(client: EngineClient, name: string, options: { force?: boolean; signal?: AbortSignal } = {}): Promise<void> {
  try {
    await client.volumes.remove(name, options);
  } catch (error) {
    if (!isEngineError(error, 'conflict')) throw error;
    const users = await client.containers.list({ all: true, filters: { volume: [name] }, signal: options.signal }).catch(() => []);
    const helpers = await client.containers.list({ all: true, filters: { label: [`${VOLUME_HELPER_LABEL}=${name}`] }, signal: options.signal });
    const helperIds = new Set(helpers.map((helper) => helper.Id));
    const names = users.filter((user) => !isVolumeHelper(user) && !helperIds.has(user.Id)).map(containerName);
    if (names.length === 0 && helpers.length > 0) {
      for (const helper of helpers) await removeHelper(client, helper.Id, options.signal);
      await client.volumes.remove(name, options);
      return;
    }
    const who = names.length > 0 ? `container${names.length === 1 ? '' : 's'} ${names.join(', ')}` : 'a container';
    throw new EngineError('conflict', `Volume ${name} is in use by ${who} (the engine said "${error.engineMessage ?? error.message}")`, {
      status: error.status,
      engineMessage: error.engineMessage,
      endpoint: error.endpoint,
      hint: 'Remove those containers first, then remove the volume',
      cause: error,
    });
  }
}

/** Removes a network; a refusal because containers are attached names them (from the network's inspect). */
export async function removeNetworkNamingEndpoints(client: EngineClient, name: string, signal?: AbortSignal): Promise<void> {
  try {
    await client.networks.remove(name, { signal });
  } catch (error) {
    if (!isEngineError(error) || !/active endpoints|being used|in use/i.test(error.engineMessage ?? '')) throw error;
    const network = await client.networks.inspect(name, { signal }).catch(() => undefined);
    const names = Object.values(network?.Containers ?? {}).map((endpoint) => endpoint.Name);
    const who = names.length > 0 ? `container${names.length === 1 ? '' : 's'} ${names.join(', ')}` : 'containers';
    throw new EngineError('conflict', `Network ${name} has endpoints: ${who} (the engine said "${error.engineMessage ?? error.message}")`, {
      status: error.status,
      engineMessage: error.engineMessage,
      endpoint: error.endpoint,
      hint: 'Disconnect those containers (or remove them) first, then remove the network',
      cause: error,
    });
  }
}

/** Removes one helper container; one another client removed meanwhile is gone all the same. */
export async function removeHelper(client: EngineClient, id: string, signal?: AbortSignal): Promise<void> {
  try {
    await client.containers.remove(id, { force: true, signal });
  } catch (error) {
    if (!isEngineError(error, 'not-found')) throw error;
  }
}

/**
 * Creates (never starts) a helper container that mounts VOLUME at MOUNT_PATH, with no network, from IMAGE. The volume
 * must exist: the engine creates a named volume a container mounts, so a helper made for a volume removed meanwhile
 * (Remove Volume while its Files row is open) would bring it back, empty. Resolves the helper's id.
 */
export async function createVolumeHelper(client: EngineClient, volume: string, image: string, mountPath: string, signal?: AbortSignal): Promise<string> {
  try {
    await client.volumes.inspect(volume, { signal });
  } catch (error) {
    if (!isEngineError(error, 'not-found')) throw error;
    throw new EngineError('not-found', `Volume ${volume} no longer exists: it was removed, so there are no files to show`, {
      status: error.status,
      engineMessage: error.engineMessage,
      endpoint: error.endpoint,
      hint: 'Refresh the Volumes view',
      cause: error,
    });
  }
  const { Id } = await client.containers.create(
    {
      Image: image,
      // Never started: the command only has to exist for the create to pass.
      Cmd: ['true'],
      Labels: { [VOLUME_HELPER_LABEL]: volume },
      HostConfig: { NetworkMode: 'none', Binds: [`${volume}:${mountPath}`] },
    },
    { signal },
  );
  return Id;
}
