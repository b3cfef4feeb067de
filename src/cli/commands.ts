/**
 * The berth commands, each written once: usage, typed flags, how its options are built from the command line, how
 * it runs (its action module is loaded only then), its help and its row in docs/cli.md. `parse.ts` turns argv into one of
 * these commands; `help.ts` and docs/cli.md's command table are generated from them.
 */
import type { FlagSpec } from './args';
import type {
  CommitCommandOptions,
  ImagesOptions,
  LogsCommandOptions,
  PsOptions,
  PullCommandOptions,
  RunOptions,
  StopAllOptions,
  StopOptions,
  WaitOptions,
} from './options';
import { booleanFlag, declareCommand, listFlag, valueFlag, type DeclaredCommand, type FlagTable } from './spec';
import { buildCommands, runOptionFlags, runOptionValues } from './buildCommands';
import { composeCommands } from './composeCommands';
import { agentCommands } from './agentCommands';
import { statsCommands } from './statsCommands';
import { eventsCommands } from './eventsCommands';
import { forwardCommands } from './forwardCommands';
import { changesCommands } from './changesCommands';
import { storageCommands } from './storageCommands';
import { layerCommands } from './layerCommands';
import { checkEnvEntry, nonEmpty, parseCopyArguments, parseFilters, parseKeyValues, parseLast, parseSeconds, parseTail, splitRepositoryTag, timeoutOf } from './values';

const timeFlag = valueFlag('time', 't', 'SECONDS', 'Seconds to wait before killing the container (engine default: 10; -1 waits without limit)');
const timeoutFlag = valueFlag('timeout', undefined, 'SECONDS', 'The same as --time (docker\'s newer name)');
const filterFlag = listFlag('filter', 'f', 'KEY=VALUE', 'Only containers matching the filter, e.g. label=team=a or name=web (repeatable)');
const jsonFlag = booleanFlag('json', undefined, "Print the engine's JSON");
const formatFlag = valueFlag('format', undefined, 'FORMAT', "docker's --format: table, json (one object per line) or a Go template such as '{{.ID}}\\t{{.Names}}'");

export const globalFlags: readonly FlagSpec[] = [
  {
    key: 'host',
    long: 'host',
    short: 'H',
    kind: 'value',
    valueName: 'HOST',
    description: 'Engine to talk to, e.g. unix:///run/docker.sock or tcp://host:2376 (default: DOCKER_HOST, the context)',
  },
  { key: 'version', long: 'version', short: 'v', kind: 'boolean', description: "Print berth's version and exit" },
];

const run = declareCommand({
  usage: 'berth run [OPTIONS] IMAGE [COMMAND] [ARG...]',
  summary: 'Create and run a container, pulling the image if it is missing',
  details:
    "The container's stdout goes to stdout and its stderr to stderr as it runs, and berth exits with the container's status. " +
    'SIGTERM, SIGHUP and SIGQUIT are passed on to the container (one that ignores SIGTERM is killed 10 s later, or at a second SIGTERM); ' +
    'Ctrl-C stops it (and shows what it prints while stopping). ' +
    '`-d` prints the id and returns; `-t` merges the streams into a TTY of your terminal\'s size; `-i` passes stdin (`-it` needs a terminal there, as with docker); ' +
    '`--rm` has the engine remove the container whatever happens to berth. `-e KEY` alone takes the value from berth\'s environment.',
  stopAtFirstPositional: true,
  runStatuses: true,
  positionals: { min: 1, max: Infinity },
  flags: {
    detach: booleanFlag('detach', 'd', 'Run in the background and print the container ID'),
    interactive: booleanFlag('interactive', 'i', "Pass berth's stdin to the container"),
    tty: booleanFlag('tty', 't', 'Allocate a pseudo-TTY (output is not split into stdout and stderr)'),
    rm: booleanFlag('rm', undefined, 'Have the engine remove the container when it exits'),
    name: valueFlag('name', undefined, 'NAME', 'Name the container'),
    network: valueFlag('network', undefined, 'MODE', "Network mode, e.g. none or host (default: the engine's)"),
    env: listFlag('env', 'e', 'KEY=VALUE', 'Set an environment variable (repeatable); KEY alone takes its value from here'),
    label: listFlag('label', 'l', 'KEY=VALUE', 'Set a label on the container (repeatable)'),
    ...runOptionFlags,
  },
  build: (flags, positionals): RunOptions => {
    const [image, ...cmd] = positionals as [string, ...string[]];
    return {
      image,
      cmd,
      detach: flags.detach,
      interactive: flags.interactive,
      tty: flags.tty,
      autoRemove: flags.rm,
      name: nonEmpty(flags.name, '--name'),
      network: nonEmpty(flags.network, '--network'),
      env: flags.env.map(checkEnvEntry),
      labels: parseKeyValues(flags.label, '--label'),
      ...runOptionValues(flags),
    };
  },
  run: async (options, deps): Promise<number> => (await import('./actions/run.js')).runCommand(options, deps),
});

const ps = declareCommand({
  usage: 'berth ps [OPTIONS]',
  summary: 'List containers',
  details: "A table like docker's: CONTAINER ID, IMAGE, COMMAND, CREATED, STATUS, NAMES. `--json` prints the engine's own objects.",
  positionals: { min: 0, max: 0 },
  flags: {
    all: booleanFlag('all', 'a', 'Show all containers (default: only running ones)'),
    filter: filterFlag,
    json: jsonFlag,
    format: formatFlag,
    quiet: booleanFlag('quiet', 'q', 'Only print container IDs'),
    noTrunc: booleanFlag('no-trunc', undefined, 'Do not shorten IDs and commands'),
    last: valueFlag('last', 'n', 'N', 'Show the N most recently created containers, in any state'),
    latest: booleanFlag('latest', 'l', 'Show the most recently created container, in any state'),
    size: booleanFlag('size', 's', 'Add a SIZE column: what each container wrote, and its image (the engine takes longer)'),
  },
  build: (flags): PsOptions => ({
    all: flags.all,
    json: flags.json,
    format: flags.format,
    quiet: flags.quiet,
    noTrunc: flags.noTrunc,
    filters: parseFilters(flags.filter),
    last: parseLast(flags.last, flags.latest),
    size: flags.size,
  }),
  run: async (options, deps): Promise<number> => (await import('./actions/containers.js')).listContainersCommand(options, deps),
});

const stop = declareCommand({
  usage: 'berth stop [OPTIONS] CONTAINER [CONTAINER...]',
  summary: 'Stop one or more running containers',
  details: 'Stops them in parallel (a few at a time) and prints each name as given, in the order given. A failure gets its own line; the others are still stopped.',
  positionals: { min: 1, max: Infinity },
  flags: { time: timeFlag, timeout: timeoutFlag, signal: valueFlag('signal', 's', 'SIGNAL', "Signal to send instead of the container's stop signal (engine API 1.42 or later)") },
  build: (flags, positionals): StopOptions => ({
    ids: [...positionals],
    timeoutSeconds: parseSeconds(timeoutOf(flags.time, flags.timeout)),
    stopSignal: nonEmpty(flags.signal, '--signal'),
  }),
  run: async (options, deps): Promise<number> => (await import('./actions/containers.js')).stopCommand(options, deps),
});

const stopAll = declareCommand({
  usage: 'berth stop-all [OPTIONS]',
  summary: 'Stop every running, paused or restarting container (or those matching --filter)',
  details: 'Prints the short id of each container it stopped, like `docker stop $(docker ps -q)`.',
  positionals: { min: 0, max: 0 },
  flags: { time: timeFlag, timeout: timeoutFlag, filter: filterFlag },
  build: (flags): StopAllOptions => ({ timeoutSeconds: parseSeconds(timeoutOf(flags.time, flags.timeout)), filters: parseFilters(flags.filter) }),
  run: async (options, deps): Promise<number> => (await import('./actions/containers.js')).stopAllCommand(options, deps),
});

const logs = declareCommand({
  usage: 'berth logs [OPTIONS] CONTAINER [CONTAINER...]',
  summary: "Print a container's logs (its stdout to stdout, its stderr to stderr), or several containers' logs merged",
  details:
    '`-f` follows them until the container stops. As with docker, a `--tail` that is not a whole number prints every line. ' +
    "Several containers are merged in the order of the engine's timestamps, each line prefixed with its container's name " +
    "as `docker compose logs` does (coloured on a terminal unless `--no-color`); `--tail` then counts each container's lines.",
  positionals: { min: 1, max: Infinity },
  flags: {
    follow: booleanFlag('follow', 'f', 'Keep printing new output until the container stops'),
    tail: valueFlag('tail', 'n', 'N', 'Only the last N lines (default: all)'),
    timestamps: booleanFlag('timestamps', 't', 'Prefix each line with its timestamp'),
    since: valueFlag('since', undefined, 'TIME', 'Only lines since a time (2024-05-01T13:23:37Z), Unix seconds, or a duration before now (10m, 1h30m)'),
    until: valueFlag('until', undefined, 'TIME', 'Only lines before a time, Unix seconds, or a duration before now'),
    details: booleanFlag('details', undefined, "Show the extra attributes the container's log driver was given"),
    noColor: booleanFlag('no-color', undefined, 'Several containers: no colours in the name prefixes'),
    noLogPrefix: booleanFlag('no-log-prefix', undefined, 'Several containers: no name prefixes'),
  },
  build: (flags, positionals): LogsCommandOptions => ({
    ids: [...positionals],
    follow: flags.follow,
    tail: parseTail(flags.tail),
    timestamps: flags.timestamps,
    since: nonEmpty(flags.since, '--since'),
    until: nonEmpty(flags.until, '--until'),
    details: flags.details,
    noColor: flags.noColor,
    noLogPrefix: flags.noLogPrefix,
  }),
  run: async (options, deps): Promise<number> =>
    options.ids.length === 1 ? (await import('./actions/containers.js')).logsCommand(options, deps) : (await import('./actions/mergedLogs.js')).mergedLogsCommand(options, deps),
});

const images = declareCommand({
  usage: 'berth images [OPTIONS] [REPOSITORY[:TAG]]',
  summary: 'List images',
  details: 'A table: REPOSITORY, TAG, IMAGE ID, CREATED, SIZE. `REPOSITORY[:TAG]` (wildcards as docker allows them) lists only the images it names.',
  positionals: { min: 0, max: 1 },
  flags: {
    all: booleanFlag('all', 'a', 'Show intermediate images too'),
    digests: booleanFlag('digests', undefined, 'Add a DIGEST column (a row per digest)'),
    filter: listFlag('filter', 'f', 'KEY=VALUE', 'Only images matching the filter, e.g. dangling=true, label=team=a or reference=app:* (repeatable)'),
    json: jsonFlag,
    format: formatFlag,
    quiet: booleanFlag('quiet', 'q', 'Only print image IDs'),
  },
  build: (flags, positionals): ImagesOptions => {
    const filters = parseFilters(flags.filter);
    if (positionals[0] !== undefined) filters.reference = [...(filters.reference ?? []), positionals[0]];
    return { all: flags.all, digests: flags.digests, json: flags.json, format: flags.format, quiet: flags.quiet, filters };
  },
  run: async (options, deps): Promise<number> => (await import('./actions/images.js')).imagesCommand(options, deps),
});

const pull = declareCommand({
  usage: 'berth pull IMAGE[:TAG|@DIGEST]',
  summary: 'Pull an image; credentials come from the docker configuration (DOCKER_CONFIG)',
  details:
    'Progress goes to stderr; the full reference (with `:latest` when no tag was given) is printed on stdout. Credentials come from ' +
    '`auths`, `credsStore` or `credHelpers`; a `credsStore` helper that is not installed falls back to `auths`, as with docker.',
  positionals: { min: 1, max: 1 },
  flags: {},
  build: (_flags, positionals): PullCommandOptions => ({ image: positionals[0] as string }),
  run: async (options, deps): Promise<number> => (await import('./actions/images.js')).pullCommand(options, deps),
});

const commit = declareCommand({
  usage: 'berth commit [OPTIONS] CONTAINER [REPOSITORY[:TAG]]',
  summary: "Create a new image from a container's changes and print its ID",
  details: 'An invalid REPOSITORY[:TAG] exits 1, as with docker.',
  positionals: { min: 1, max: 2 },
  flags: {
    message: valueFlag('message', 'm', 'MESSAGE', 'Commit message'),
    author: valueFlag('author', 'a', 'AUTHOR', 'Author, e.g. "Jane <jane@example.com>"'),
    change: listFlag('change', 'c', 'INSTRUCTION', 'Apply a Dockerfile instruction, e.g. CMD ["sh"] (repeatable)'),
  },
  build: (flags, positionals): CommitCommandOptions => {
    const [id, reference] = positionals as [string, string | undefined];
    return { id, ...splitRepositoryTag(reference), message: flags.message, author: flags.author, changes: flags.change };
  },
  run: async (options, deps): Promise<number> => (await import('./actions/containers.js')).commitCommand(options, deps),
});

const wait = declareCommand({
  usage: 'berth wait CONTAINER [CONTAINER...]',
  summary: 'Wait until containers stop and print their exit statuses',
  details: 'One status per line, in the order given; a container that is not there gets its own error line and exit status 1.',
  positionals: { min: 1, max: Infinity },
  flags: {},
  build: (_flags, positionals): WaitOptions => ({ ids: [...positionals] }),
  run: async (options, deps): Promise<number> => (await import('./actions/containers.js')).waitCommand(options, deps),
});

const cp = declareCommand({
  usage: 'berth cp CONTAINER:SRC_PATH DEST_PATH | SRC_PATH CONTAINER:DEST_PATH',
  summary: 'Copy files or folders between a container and the host',
  details:
    "Like `docker cp`, through the Engine API's archive endpoints, so it works on stopped containers and on images without a shell. " +
    'Into an existing directory the source keeps its name; to a new path it takes that name; `SRC/.` copies the contents. ' +
    'Symlinks are copied as links; an archive entry that would land outside the destination is refused. ' +
    'With `-` as the host side the tar archive itself goes to stdout (`cp C:SRC -`) or comes from stdin (`cp - C:DIR`), as with docker. ' +
    '`-L` copies what a symlink named as the source points to, under the link\'s name.',
  positionals: { min: 2, max: 2 },
  flags: { followLink: booleanFlag('follow-link', 'L', 'Always follow symbol link in SRC_PATH') },
  build: (flags, positionals) => ({ ...parseCopyArguments(positionals[0] as string, positionals[1] as string), followLink: flags.followLink }),
  run: async (options, deps): Promise<number> => (await import('./actions/copy.js')).copyCommand(options, deps),
});

const version = declareCommand({
  usage: 'berth version',
  summary: "Show the engine's version, its API version and the negotiated one",
  details: "Also the endpoint and berth's own version (`berth --version` prints only berth's).",
  positionals: { min: 0, max: 0 },
  flags: {},
  build: () => ({}),
  run: async (_options, deps): Promise<number> => (await import('./actions/images.js')).versionCommand(deps),
});

/** Every command, in the order `berth help` and docs/cli.md list them. */
export const commandTable = { run, ps, stop, 'stop-all': stopAll, logs, images, pull, commit, wait, cp, version, ...buildCommands, ...storageCommands, ...statsCommands, ...layerCommands, ...eventsCommands, ...forwardCommands, ...changesCommands, ...composeCommands, ...agentCommands } as const;

type Table = typeof commandTable;
export type CommandName = keyof Table;
type OptionsOf<E> = E extends DeclaredCommand<infer _F, infer O> ? O : never;
export type CommandOptions<N extends CommandName> = OptionsOf<Table[N]>;
export type Command = { [N in CommandName]: { readonly name: N; readonly options: CommandOptions<N> } }[CommandName];


/** The table's entries with their names, for the parser, help and docs/cli.md's table. */
export const commandEntries = Object.entries(commandTable).map(([name, entry]) => ({ name: name as CommandName, entry }));

export function findCommand(name: string): { name: CommandName; entry: DeclaredCommand<FlagTable, unknown> } | undefined {
  const found = commandEntries.find((candidate) => candidate.name === name);
  return found ? { name: found.name, entry: found.entry as unknown as DeclaredCommand<FlagTable, unknown> } : undefined;
}
