/**
 * `berth compose ls|logs|start|stop|restart|rm`: Compose projects found by their containers' labels and acted on
 * through the Engine API, so no compose implementation is needed. Two-word names, like `berth volume ls`.
 */
import { booleanFlag, declareCommand, valueFlag } from './spec';
import { parseSeconds, parseTail } from './values';

const load = async (): Promise<typeof import('./actions/compose')> => import('./actions/compose.js');
const timeFlag = valueFlag('time', 't', 'SECONDS', 'Seconds to wait before killing a container (engine default: 10)');
const groupDetails = (verb: string): string =>
  `${verb} every container of the project, several at a time, and prints each name as it is done. A failure gets its own line on stderr (exit 1); the others go on.`;

/** start / stop / restart: the same shape, `-t` where a stop is involved; SERVICE names narrow it, as with docker compose. */
function groupCommand(action: 'start' | 'stop' | 'restart', summary: string, verb: string, timed: boolean) {
  return declareCommand({
    usage: `berth compose ${action}${timed ? ' [OPTIONS]' : ''} PROJECT [SERVICE...]`,
    summary,
    details: `${groupDetails(verb)} With SERVICE names, only their containers; a name the project does not have is refused before anything is done.`,
    positionals: { min: 1, max: Infinity },
    flags: timed ? { time: timeFlag } : {},
    build: (flags: { time?: string | undefined }, positionals: readonly string[]) => ({
      project: positionals[0] as string,
      services: positionals.slice(1),
      action,
      timeoutSeconds: parseSeconds(flags.time),
      force: false,
    }),
    run: async (options, deps): Promise<number> => (await load()).composeGroup(options, deps),
  });
}

export const composeCommands = {
  'compose ls': declareCommand({
    usage: 'berth compose ls [OPTIONS]',
    summary: 'List Compose projects (from the containers\' labels)',
    details: 'NAME, STATUS (e.g. `running(2), exited(1)`) and CONFIG FILES, like `docker compose ls`: projects with a running container, all with `-a`; `-q` prints only the names.',
    positionals: { min: 0, max: 0 },
    flags: {
      all: booleanFlag('all', 'a', 'Also projects with no running container'),
      quiet: booleanFlag('quiet', 'q', 'Only print project names'),
      format: valueFlag('format', undefined, 'FORMAT', "table, json (docker compose's array) or a Go template such as '{{.Name}}\\t{{.Status}}'"),
    },
    build: (flags) => ({ all: flags.all, quiet: flags.quiet, format: flags.format }),
    run: async (options, deps): Promise<number> => (await load()).composeLs(options, deps),
  }),
  'compose ps': declareCommand({
    usage: 'berth compose ps [OPTIONS] PROJECT [SERVICE...]',
    summary: "List a Compose project's containers",
    details: "docker compose's table: NAME, IMAGE, COMMAND, SERVICE, CREATED, STATUS, PORTS; running ones unless `-a`; `-q` prints full IDs. SERVICE names narrow it.",
    positionals: { min: 1, max: Infinity },
    flags: { all: booleanFlag('all', 'a', 'Also stopped containers'), quiet: booleanFlag('quiet', 'q', 'Only print container IDs') },
    build: (flags, positionals) => ({ project: positionals[0] as string, services: positionals.slice(1), all: flags.all, quiet: flags.quiet }),
    run: async (options, deps): Promise<number> => (await load()).composePs(options, deps),
  }),
  'compose logs': declareCommand({
    usage: 'berth compose logs [OPTIONS] PROJECT [SERVICE...]',
    summary: "Print a project's logs merged, each line prefixed with its service",
    details:
      "In the order of the engine's timestamps; colours on a terminal unless `--no-color`. `-f` keeps following: a container that restarts is read again after its last line, one that joins the project (scale-up, another `up`) is added. Ctrl-C ends it.",
    positionals: { min: 1, max: Infinity },
    flags: {
      follow: booleanFlag('follow', 'f', 'Keep following (restarts and new containers included)'),
      tail: valueFlag('tail', 'n', 'N', 'Only the last N lines of each container (default: all)'),
      noColor: booleanFlag('no-color', undefined, 'No colours in the prefixes'),
    },
    build: (flags, positionals) => ({ project: positionals[0] as string, services: positionals.slice(1), follow: flags.follow, tail: parseTail(flags.tail) ?? 'all', noColor: flags.noColor }),
    run: async (options, deps): Promise<number> => (await load()).composeLogs(options, deps),
  }),
  'compose start': groupCommand('start', 'Start the stopped containers of a Compose project', 'Starts', false),
  'compose stop': groupCommand('stop', 'Stop the running containers of a Compose project', 'Stops', true),
  'compose restart': groupCommand('restart', 'Restart every container of a Compose project', 'Restarts', true),
  'compose rm': declareCommand({
    usage: 'berth compose rm [OPTIONS] PROJECT',
    summary: 'Remove the containers of a Compose project',
    details: 'Removes the stopped ones; a running one is kept and named (exit 1) unless `-f`, which removes it too. Volumes and networks stay.',
    positionals: { min: 1, max: 1 },
    flags: { force: booleanFlag('force', 'f', 'Also remove running containers') },
    build: (flags, positionals) => ({ project: positionals[0] as string, services: [], action: 'remove' as const, timeoutSeconds: undefined, force: flags.force }),
    run: async (options, deps): Promise<number> => (await load()).composeGroup(options, deps),
  }),
};
