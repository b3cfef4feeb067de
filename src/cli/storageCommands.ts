/**
 * The volume, network, prune and disk-usage commands, shaped like docker's (`berth volume ls`, `berth system df -v`,
 * `berth volume prune -f --filter label=a=b`). Two-word names: the parser joins `volume` and `ls`.
 */
import { booleanFlag, declareCommand, listFlag, valueFlag } from './spec';
import { nonEmpty, parseFilters, parseKeyValues } from './values';

const pruneFilter = listFlag('filter', undefined, 'KEY=VALUE', 'Only what matches, e.g. label=team=a, label!=keep or until=24h (repeatable)');
const force = booleanFlag('force', 'f', 'Do not prompt for confirmation');
const quiet = (what: string): ReturnType<typeof booleanFlag> => booleanFlag('quiet', 'q', `Only print ${what}`);
const listFilter = listFlag('filter', 'f', 'KEY=VALUE', 'Only what matches, e.g. label=team=a or name=x (repeatable)');
const load = async (): Promise<typeof import('./actions/storage')> => import('./actions/storage.js');

const pruneDetails =
  'Lists exactly what will be removed (names and sizes) and what is kept because it is in use, then asks (unless `-f`); ' +
  'prints what the engine removed and the space it reclaimed. Nothing to remove: says so, without a prompt.';

/** `berth NOUN prune`: one kind of unused object, with --force and --filter. */
function prunesOne(noun: string, kind: 'volumes' | 'networks' | 'containers', summary: string) {
  return declareCommand({
    usage: `berth ${noun} prune [OPTIONS]`,
    summary,
    details: pruneDetails,
    positionals: { min: 0, max: 0 },
    flags: { force, filter: pruneFilter },
    build: (flags) => ({ kinds: [kind] as const, force: flags.force, filters: parseFilters(flags.filter) }),
    run: async (options, deps): Promise<number> => (await load()).pruneCommand(options, deps),
  });
}

export const storageCommands = {
  'volume ls': declareCommand({
    usage: 'berth volume ls [OPTIONS]',
    summary: 'List volumes',
    details: 'DRIVER and VOLUME NAME, like docker.',
    positionals: { min: 0, max: 0 },
    flags: { filter: listFilter, quiet: quiet('volume names'), format: valueFlag('format', undefined, 'FORMAT', "docker's --format: table, json (one object per line) or a Go template such as '{{.Name}}'") },
    build: (flags) => ({ filters: parseFilters(flags.filter), quiet: flags.quiet, format: flags.format }),
    run: async (options, deps): Promise<number> => (await load()).volumeLs(options, deps),
  }),
  'volume create': declareCommand({
    usage: 'berth volume create [OPTIONS] [VOLUME]',
    summary: 'Create a volume and print its name',
    details: "A name the engine refuses gets the engine's reason.",
    positionals: { min: 0, max: 1 },
    flags: {
      driver: valueFlag('driver', 'd', 'DRIVER', 'Volume driver (default: local)'),
      label: listFlag('label', undefined, 'KEY=VALUE', 'Set a label (repeatable)'),
      opt: listFlag('opt', 'o', 'KEY=VALUE', "Set a driver option, e.g. type=tmpfs for the local driver (repeatable)"),
    },
    build: (flags, positionals) => ({
      name: positionals[0],
      driver: nonEmpty(flags.driver, '--driver'),
      labels: parseKeyValues(flags.label, '--label'),
      driverOpts: parseKeyValues(flags.opt, '--opt'),
    }),
    run: async (options, deps): Promise<number> => (await load()).volumeCreate(options, deps),
  }),
  'volume inspect': declareCommand({
    usage: 'berth volume inspect VOLUME [VOLUME...]',
    summary: "Print volumes' details as JSON",
    details: 'A JSON array, like docker; a missing volume exits 1.',
    positionals: { min: 1, max: Infinity },
    flags: { format: valueFlag('format', 'f', 'TEMPLATE', "One line per volume through a Go template, e.g. '{{.Mountpoint}}' (docker's)") },
    build: (flags, positionals) => ({ names: [...positionals], format: flags.format }),
    run: async (options, deps): Promise<number> => (await load()).volumeInspect(options, deps),
  }),
  'volume rm': declareCommand({
    usage: 'berth volume rm [OPTIONS] VOLUME [VOLUME...]',
    summary: 'Remove volumes',
    details: 'Prints each name removed; a volume in use is refused with the names of the containers using it, and exits 1.',
    positionals: { min: 1, max: Infinity },
    flags: { force: booleanFlag('force', 'f', 'Force the removal') },
    build: (flags, positionals) => ({ names: [...positionals], force: flags.force }),
    run: async (options, deps): Promise<number> => (await load()).volumeRm(options, deps),
  }),
  'volume prune': prunesOne('volume', 'volumes', 'Remove unused volumes'),
  'network ls': declareCommand({
    usage: 'berth network ls [OPTIONS]',
    summary: 'List networks',
    details: 'NETWORK ID, NAME, DRIVER and SCOPE, like docker.',
    positionals: { min: 0, max: 0 },
    flags: { filter: listFilter, quiet: quiet('network IDs'), noTrunc: booleanFlag('no-trunc', undefined, 'Do not shorten network IDs') },
    build: (flags) => ({ filters: parseFilters(flags.filter), quiet: flags.quiet, noTrunc: flags.noTrunc }),
    run: async (options, deps): Promise<number> => (await load()).networkLs(options, deps),
  }),
  'network inspect': declareCommand({
    usage: 'berth network inspect NETWORK [NETWORK...]',
    summary: "Print networks' details as JSON",
    details: 'A JSON array, like docker; a missing network exits 1.',
    positionals: { min: 1, max: Infinity },
    flags: {},
    build: (_flags, positionals) => ({ names: [...positionals] }),
    run: async (options, deps): Promise<number> => (await load()).networkInspect(options, deps),
  }),
  'network rm': declareCommand({
    usage: 'berth network rm [OPTIONS] NETWORK [NETWORK...]',
    summary: 'Remove networks',
    details: "A predefined network is refused with the engine's words; one with endpoints names the attached containers. `-f` passes over a network that is not there.",
    positionals: { min: 1, max: Infinity },
    flags: { force: booleanFlag('force', 'f', 'Do not fail when a network does not exist') },
    build: (flags, positionals) => ({ names: [...positionals], force: flags.force }),
    run: async (options, deps): Promise<number> => (await load()).networkRm(options, deps),
  }),
  'network connect': declareCommand({
    usage: 'berth network connect NETWORK CONTAINER',
    summary: 'Connect a container to a network',
    details: 'Prints nothing on success, like docker.',
    positionals: { min: 2, max: 2 },
    flags: {},
    build: (_flags, positionals) => ({ network: positionals[0] as string, container: positionals[1] as string, connect: true }),
    run: async (options, deps): Promise<number> => (await load()).networkConnect(options, deps),
  }),
  'network disconnect': declareCommand({
    usage: 'berth network disconnect [OPTIONS] NETWORK CONTAINER',
    summary: 'Disconnect a container from a network',
    details: 'Prints nothing on success, like docker.',
    positionals: { min: 2, max: 2 },
    flags: { force: booleanFlag('force', 'f', 'Force the container to disconnect') },
    build: (flags, positionals) => ({ network: positionals[0] as string, container: positionals[1] as string, connect: false, force: flags.force }),
    run: async (options, deps): Promise<number> => (await load()).networkConnect(options, deps),
  }),
  'network prune': prunesOne('network', 'networks', 'Remove unused networks'),
  'container prune': prunesOne('container', 'containers', 'Remove all stopped containers'),
  'image prune': declareCommand({
    usage: 'berth image prune [OPTIONS]',
    summary: 'Remove dangling images (-a: every image no container uses)',
    details: pruneDetails,
    positionals: { min: 0, max: 0 },
    flags: { all: booleanFlag('all', 'a', 'Remove all unused images, not just dangling ones'), force, filter: pruneFilter },
    build: (flags) => ({ kinds: [flags.all ? 'unused-images' : 'dangling-images'] as const, force: flags.force, filters: parseFilters(flags.filter) }),
    run: async (options, deps): Promise<number> => (await load()).pruneCommand(options, deps),
  }),
  'system prune': declareCommand({
    usage: 'berth system prune [OPTIONS]',
    summary: 'Remove stopped containers, unused networks, dangling images and build cache (--volumes: unused volumes too)',
    details: pruneDetails,
    positionals: { min: 0, max: 0 },
    flags: {
      all: booleanFlag('all', 'a', 'Remove all unused images, not just dangling ones'),
      volumes: booleanFlag('volumes', undefined, 'Prune unused volumes too'),
      force,
      filter: pruneFilter,
    },
    build: (flags) => ({
      kinds: [
        'containers',
        'networks',
        ...(flags.volumes ? (['volumes'] as const) : []),
        flags.all ? 'unused-images' : 'dangling-images',
        'build-cache',
      ] as const,
      force: flags.force,
      filters: parseFilters(flags.filter),
    }),
    run: async (options, deps): Promise<number> => (await load()).pruneCommand(options, deps),
  }),
  'system df': declareCommand({
    usage: 'berth system df [OPTIONS]',
    summary: "Show the engine's disk usage",
    details: 'TYPE, TOTAL, ACTIVE, SIZE and RECLAIMABLE like docker; `-v` adds the images, containers, volumes and build cache one by one.',
    positionals: { min: 0, max: 0 },
    flags: {
      verbose: booleanFlag('verbose', 'v', 'Show detailed information on space usage'),
      format: valueFlag('format', undefined, 'FORMAT', "docker's --format: table, json (one object per line) or a Go template such as '{{.Type}}\\t{{.Size}}'"),
    },
    build: (flags) => ({ verbose: flags.verbose, format: flags.format }),
    run: async (options, deps): Promise<number> => (await load()).systemDf(options, deps),
  }),
} as const;
