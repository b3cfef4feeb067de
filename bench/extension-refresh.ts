/**
 * A full refresh: what Berth does once per connection (list all containers and all images over the API, in
 * parallel) against what Microsoft's Container Tools extension does on every refresh (spawn
 * `docker container ls --all --no-trunc --format '{{json .}}'` and `docker image ls --format '{{json .}}'` and
 * parse their JSON lines). Both run in parallel pairs and return parsed rows, interleaved round by round.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { EngineClient } from '../src/engine';
import { measureInterleaved, pairedRatio, type Contender } from './measure';
import { summarize, type Summary } from './stats';

const execFileAsync = promisify(execFile);

export const BERTH_REFRESH = 'Berth: listContainers + listImages (API)';
export const CLI_REFRESH = 'docker container ls + docker image ls (spawned, as Microsoft\'s extension)';

export interface RefreshResult {
  readonly containers: number;
  readonly peer: string;
  readonly summary: Summary;
  /** This process's CPU per refresh (for the CLI: spawning and parsing, not the children's own CPU), ms. */
  readonly cpuMs: number;
  /** Median over rounds of this peer's round median / Berth's round median. */
  readonly pairedRatio: number;
}

function jsonLines(output: string): unknown[] {
  return output
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as unknown);
}

export async function measureRefresh(client: EngineClient, host: string, dockerCli: string | undefined, expected: number, samples: { berth: number; cli: number; rounds: number }): Promise<RefreshResult[]> {
  const check = (count: number, who: string): void => {
    if (count !== expected) throw new Error(`${who} listed ${count} containers, expected ${expected}`);
  };
  const contenders: Contender[] = [
    {
      name: BERTH_REFRESH,
      samples: samples.berth,
      warmup: 3,
      run: async () => {
        const [containers] = await Promise.all([client.containers.list({ all: true }), client.images.list()]);
        check(containers.length, 'Berth');
      },
    },
  ];
  if (dockerCli) {
    const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/root' };
    const docker = async (args: string[]): Promise<unknown[]> => jsonLines((await execFileAsync(dockerCli, ['-H', host, ...args], { env, maxBuffer: 256 << 20 })).stdout);
    contenders.push({
      name: CLI_REFRESH,
      samples: samples.cli,
      warmup: 1,
      run: async () => {
        const [containers] = await Promise.all([
          docker(['container', 'ls', '--all', '--no-trunc', '--format', '{{json .}}']),
          docker(['image', 'ls', '--format', '{{json .}}']),
        ]);
        check(containers.length, 'docker container ls');
      },
    });
  }
  const measured = await measureInterleaved(contenders, samples.rounds);
  const berth = measured.get(BERTH_REFRESH);
  return [...measured].map(([peer, measurement]) => ({
    containers: expected,
    peer,
    summary: summarize(measurement.samples),
    cpuMs: measurement.cpuMsPerCall,
    pairedRatio: berth ? pairedRatio(measurement, berth) : Number.NaN,
  }));
}
