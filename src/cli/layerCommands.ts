/** `berth history`, shaped like docker's. */
import type { HistoryCommandOptions } from './options';
import { booleanFlag, declareCommand, valueFlag } from './spec';

export const layerCommands = {
  history: declareCommand({
    usage: 'berth history [OPTIONS] IMAGE',
    summary: 'Show the history of an image',
    details:
      "docker's table: IMAGE, CREATED, CREATED BY, SIZE, COMMENT, newest step first; `<missing>` marks steps that were not built on this engine. " +
      '`-H=false` prints times as RFC 3339 and sizes in bytes.',
    positionals: { min: 1, max: 1 },
    flags: {
      noTrunc: booleanFlag('no-trunc', undefined, "Don't truncate output"),
      quiet: booleanFlag('quiet', 'q', 'Only show image IDs'),
      human: booleanFlag('human', 'H', 'Print sizes and dates in human readable format (default true; -H=false turns it off)', true),
      format: valueFlag('format', undefined, 'FORMAT', "docker's --format: table, json (one object per line) or a Go template such as '{{.ID}}\\t{{.Size}}'"),
    },
    build: (flags, positionals): HistoryCommandOptions => ({
      image: positionals[0] as string,
      noTrunc: flags.noTrunc,
      quiet: flags.quiet,
      human: flags.human,
      format: flags.format,
    }),
    run: async (options, deps): Promise<number> => (await import('./actions/history.js')).historyCommand(options, deps),
  }),
} as const;
