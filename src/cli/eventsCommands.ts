/** `berth events`, shaped like docker's. */
import type { EventsCommandOptions } from './options';
import { declareCommand, listFlag, valueFlag } from './spec';
import { nonEmpty, parseFilters } from './values';

export const eventsCommands = {
  events: declareCommand({
    usage: 'berth events [OPTIONS]',
    summary: 'Print what happens on the engine, one event per line',
    details:
      "docker's line: `<time> <type> <action> <id> (<attribute>=<value>, ...)`, the time in nanoseconds in the local time zone and the " +
      'attributes sorted by name. Without `--until` it follows new events until Ctrl-C (exit 0). On a terminal, control characters ' +
      'in names and labels are shown escaped. Podman 4.3 prints nothing for an `--until` already past.',
    positionals: { min: 0, max: 0 },
    flags: {
      since: valueFlag('since', undefined, 'TIME', 'Events since a time (2024-05-01T13:23:37Z), Unix seconds, or a duration before now (10m, 1h30m)'),
      until: valueFlag('until', undefined, 'TIME', 'Events until a time, Unix seconds, or a duration before now; then berth exits'),
      filter: listFlag('filter', 'f', 'KEY=VALUE', 'Only events matching the filter, e.g. type=container, event=die or container=web (repeatable)'),
      format: valueFlag('format', undefined, 'FORMAT', "json (one event per line) or a Go template such as '{{.Type}} {{.Action}} {{.Actor.ID}}' (docker's)"),
    },
    build: (flags): EventsCommandOptions => ({
      since: nonEmpty(flags.since, '--since'),
      until: nonEmpty(flags.until, '--until'),
      filters: parseFilters(flags.filter),
      format: flags.format,
    }),
    run: async (options, deps): Promise<number> => (await import('./actions/events.js')).eventsCommand(options, deps),
  }),
} as const;
