/** `berth diff`, shaped like docker's. */
import type { DiffCommandOptions } from './options';
import { declareCommand } from './spec';

export const changesCommands = {
  diff: declareCommand({
    usage: 'berth diff CONTAINER',
    summary: "Show what a container changed in its file system: A added, C changed, D deleted",
    details:
      "docker's lines, in the engine's order, printed as the engine's answer arrives. Works on running, stopped and " +
      'shell-less containers (the engine compares the container with its image).',
    positionals: { min: 1, max: 1 },
    flags: {},
    build: (_flags, positionals): DiffCommandOptions => ({ id: positionals[0] as string }),
    run: async (options, deps): Promise<number> => (await import('./actions/changes.js')).diffCommand(options, deps),
  }),
} as const;
