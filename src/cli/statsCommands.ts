/** `berth stats` and `berth top`, shaped like docker's. */
import type { StatsCommandOptions, TopCommandOptions } from './options';
import { booleanFlag, declareCommand, valueFlag } from './spec';

const load = async (): Promise<typeof import('./actions/stats')> => import('./actions/stats.js');

export const statsCommands = {
  stats: declareCommand({
    usage: 'berth stats [OPTIONS] [CONTAINER...]',
    summary: "Show the containers' live resource use",
    details:
      "docker's table: CONTAINER ID, NAME, CPU %, MEM USAGE / LIMIT, MEM %, NET I/O, BLOCK I/O, PIDS, with CPU % and memory computed as docker " +
      'computes them. It is redrawn in place each second until Ctrl-C; without names it follows containers as they start and stop. ' +
      'A figure the engine does not report (rootless Podman, some cgroup setups) shows as n/a.',
    positionals: { min: 0, max: Infinity },
    flags: {
      all: booleanFlag('all', 'a', 'Show all containers (default: only running ones)'),
      noStream: booleanFlag('no-stream', undefined, 'Print one table and exit'),
      noTrunc: booleanFlag('no-trunc', undefined, 'Show full container IDs'),
      format: valueFlag('format', undefined, 'FORMAT', "docker's --format: table, json (one object per line) or a Go template such as '{{.Name}}\\t{{.CPUPerc}}'"),
    },
    build: (flags, positionals): StatsCommandOptions => ({ ids: [...positionals], all: flags.all, noStream: flags.noStream, noTrunc: flags.noTrunc, format: flags.format }),
    run: async (options, deps): Promise<number> => (await load()).statsCommand(options, deps),
  }),
  top: declareCommand({
    usage: 'berth top CONTAINER [ps OPTIONS]',
    summary: "Show a running container's processes",
    details: "The engine runs ps in the container's PID namespace (default `-ef`); its columns are printed as docker prints them.",
    stopAtFirstPositional: true,
    positionals: { min: 1, max: Infinity },
    flags: {},
    build: (_flags, positionals): TopCommandOptions => {
      const [id, ...psArgs] = positionals as [string, ...string[]];
      return { id, psArgs: psArgs.length > 0 ? psArgs.join(' ') : undefined };
    },
    run: async (options, deps): Promise<number> => (await load()).topCommand(options, deps),
  }),
} as const;
