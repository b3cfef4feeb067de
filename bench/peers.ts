/**
 * The four ways of asking the engine something that the benchmarks compare, behind one shape: Berth's
 * EngineClient, dockerode (over docker-modem), the docker CLI spawned per call (as VS Code's Container Tools does),
 * and the raw-socket floor. Each call returns only once its result is parsed, as a caller would need it.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import Docker from 'dockerode';
import { EngineClient } from '../src/engine';
import { RawHttpConnection } from './raw-http';

const execFileAsync = promisify(execFile);

export interface Peer {
  readonly name: string;
  ping?(): Promise<unknown>;
  inspect(id: string): Promise<unknown>;
  /** All containers matching the label filter; resolves their count. */
  list(labelFilter: string): Promise<number>;
  close(): Promise<void>;
}

export interface PeerSetup {
  /** `unix:///path` of the engine. */
  readonly host: string;
  readonly socketPath: string;
  /** e.g. `1.41`; every peer uses the same path version. */
  readonly apiVersion: string;
  /** The docker CLI's path, when installed. */
  readonly dockerCli: string | undefined;
}

function labelFilters(labelFilter: string): Record<string, string[]> {
  return { label: [labelFilter] };
}

export function berthPeer(setup: PeerSetup): Peer {
  const client = EngineClient.fromEnvironment({ host: setup.host, env: {} });
  return {
    name: 'Berth (undici)',
    ping: () => client.system.ping(),
    inspect: (id) => client.containers.inspect(id),
    list: async (labelFilter) => (await client.containers.list({ all: true, filters: labelFilters(labelFilter) })).length,
    close: () => client.close(),
  };
}

export function dockerodePeer(setup: PeerSetup): Peer {
  const docker = new Docker({ socketPath: setup.socketPath, version: `v${setup.apiVersion}` });
  return {
    name: 'dockerode',
    ping: () => docker.ping(),
    inspect: (id) => docker.getContainer(id).inspect(),
    list: async (labelFilter) => (await docker.listContainers({ all: true, filters: labelFilters(labelFilter) })).length,
    close: () => Promise.resolve(),
  };
}

export async function rawPeer(setup: PeerSetup): Promise<Peer> {
  const connection = await RawHttpConnection.open(setup.socketPath);
  const prefix = `/v${setup.apiVersion}`;
  const getJson = async (path: string): Promise<unknown> => {
    const response = await connection.request('GET', `${prefix}${path}`);
    if (response.status !== 200) throw new Error(`raw GET ${path}: HTTP ${response.status}`);
    return JSON.parse(response.body.toString('utf8')) as unknown;
  };
  return {
    name: 'raw socket (floor)',
    ping: async () => {
      const response = await connection.request('GET', `${prefix}/_ping`);
      if (response.status !== 200) throw new Error(`raw ping: HTTP ${response.status}`);
      return response.body.toString('latin1');
    },
    inspect: (id) => getJson(`/containers/${id}/json`),
    list: async (labelFilter) => {
      const query = `all=1&filters=${encodeURIComponent(JSON.stringify(labelFilters(labelFilter)))}`;
      return ((await getJson(`/containers/json?${query}`)) as unknown[]).length;
    },
    close: () => {
      connection.close();
      return Promise.resolve();
    },
  };
}

/** The docker CLI, one process per call; `--format '{{json .}}'` is how editor extensions read its output. */
export function cliPeer(setup: PeerSetup): Peer | undefined {
  const cli = setup.dockerCli;
  if (cli === undefined) return undefined;
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/root' };
  const docker = async (args: string[]): Promise<string> => (await execFileAsync(cli, ['-H', setup.host, ...args], { env, maxBuffer: 64 << 20 })).stdout;
  return {
    name: 'docker CLI per call',
    inspect: async (id) => JSON.parse(await docker(['inspect', id])) as unknown,
    list: async (labelFilter) => {
      const output = await docker(['ps', '-a', '--no-trunc', '--filter', `label=${labelFilter}`, '--format', '{{json .}}']);
      return output.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as unknown).length;
    },
    close: () => Promise.resolve(),
  };
}
