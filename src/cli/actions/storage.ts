/** `volume …`, `network …`, the prunes and `system df`: the engine's answers printed as docker prints them. */
import {
  PRUNE_TITLES,
  keepsWhatRemovedContainersUse,
  diskUsageLines,
  isEngineError,
  planIsEmpty,
  planPrune,
  planTotal,
  removeNetworkNamingEndpoints,
  removeVolumeNamingUsers,
  runPrune,
  type ListFilters,
  type PruneKind,
  type PrunePlan,
} from '../../engine';
import { createdAgo, goSize, renderTable, shortId } from '../format';
import { VOLUME_TABLE, volumeFormatTarget, volumeInspectContext } from '../formatContexts';
import { executeFormatted, prepareFormat, renderFormatted } from '../formatOption';
import { UsageError } from '../args';
import type { CliIo, CommandDeps } from '../io';
import { DISK_USAGE_TABLE, diskUsageFormatTarget } from '../usageFormatContexts';
import { printJson } from './output';

export { goSize } from '../format';

/** Runs `work` for each name in order; a failure is printed on its own line and the others still run (exit 1). */
async function eachName(io: CliIo, names: readonly string[], work: (name: string) => Promise<void>): Promise<number> {
  let status = 0;
  for (const name of names) {
    try {
      await work(name);
    } catch (error) {
      if (isEngineError(error, 'cancelled')) throw error;
      io.stderr.write(`berth: ${error instanceof Error ? error.message : String(error)}\n`);
      status = 1;
    }
  }
  return status;
}

export async function volumeLs(options: { filters: ListFilters; quiet: boolean; format: string | undefined }, { io, signal, client }: CommandDeps): Promise<number> {
  const prepared = options.format !== undefined && !options.quiet ? prepareFormat(options.format, VOLUME_TABLE) : undefined;
  // docker sorts by name, digits as numbers (sortorder.NaturalLess); the engine's order is its own.
  const volumes = (await client().volumes.list({ filters: options.filters, signal })).sort((a, b) => a.Name.localeCompare(b.Name, 'en', { numeric: true }));
  if (prepared) io.stdout.write(renderFormatted(prepared, volumeFormatTarget(volumes)));
  else if (options.quiet) io.stdout.write(volumes.map((volume) => `${volume.Name}\n`).join(''));
  else io.stdout.write(renderTable(['DRIVER', 'VOLUME NAME'], volumes.map((volume) => [volume.Driver, volume.Name])));
  return 0;
}

export async function volumeCreate(
  options: { name: string | undefined; driver: string | undefined; labels: Record<string, string>; driverOpts: Record<string, string> },
  { io, signal, client }: CommandDeps,
): Promise<number> {
  const body = { ...(options.name !== undefined ? { Name: options.name } : {}), Driver: options.driver ?? 'local', Labels: options.labels, DriverOpts: options.driverOpts };
  const volume = await client().volumes.create(body, { signal });
  io.stdout.write(`${volume.Name}\n`);
  return 0;
}

/** `inspect A B`: a JSON array of what was found, as docker prints it; a name not found is its own line and exit 1. */
async function inspectEach(io: CliIo, names: readonly string[], inspect: (name: string) => Promise<unknown>): Promise<number> {
  const found: unknown[] = [];
  const status = await eachName(io, names, async (name) => {
    found.push(await inspect(name));
  });
  printJson(io, found);
  return status;
}

export async function volumeInspect(options: { names: string[]; format: string | undefined }, { io, signal, client }: CommandDeps): Promise<number> {
  if (options.format === undefined) return inspectEach(io, options.names, (name) => client().volumes.inspect(name, { signal }));
  // `-f TEMPLATE`: one line per volume found, in the order given; the template is checked before the engine is asked.
  const prepared = prepareFormat(options.format, '');
  return eachName(io, options.names, async (name) => {
    io.stdout.write(executeFormatted(prepared, volumeInspectContext(await client().volumes.inspect(name, { signal }))));
  });
}

export async function volumeRm(options: { names: string[]; force: boolean }, { io, signal, client }: CommandDeps): Promise<number> {
  return eachName(io, options.names, async (name) => {
    await removeVolumeNamingUsers(client(), name, { force: options.force, signal });
    io.stdout.write(`${name}\n`);
  });
}

export async function networkLs(options: { filters: ListFilters; quiet: boolean; noTrunc: boolean }, { io, signal, client }: CommandDeps): Promise<number> {
  const networks = (await client().networks.list({ filters: options.filters, signal })).sort((a, b) => a.Name.localeCompare(b.Name));
  const idOf = (id: string): string => (options.noTrunc ? id : shortId(id));
  if (options.quiet) io.stdout.write(networks.map((network) => `${idOf(network.Id)}\n`).join(''));
  else io.stdout.write(renderTable(['NETWORK ID', 'NAME', 'DRIVER', 'SCOPE'], networks.map((network) => [idOf(network.Id), network.Name, network.Driver, network.Scope])));
  return 0;
}

export function networkInspect(options: { names: string[] }, { io, signal, client }: CommandDeps): Promise<number> {
  return inspectEach(io, options.names, (name) => client().networks.inspect(name, { signal }));
}

export async function networkRm(options: { names: string[]; force: boolean }, { io, signal, client }: CommandDeps): Promise<number> {
  return eachName(io, options.names, async (name) => {
    try {
      await removeNetworkNamingEndpoints(client(), name, signal);
    } catch (error) {
      // docker's -f: a network that is not there is passed over without a word, and is not printed.
      if (options.force && isEngineError(error, 'not-found')) return;
      throw error;
    }
    io.stdout.write(`${name}\n`);
  });
}

export async function networkConnect(options: { network: string; container: string; connect: boolean; force?: boolean }, { signal, client }: CommandDeps): Promise<number> {
  if (options.connect) await client().networks.connect(options.network, options.container, { signal });
  else await client().networks.disconnect(options.network, options.container, { force: options.force === true, signal });
  return 0;
}

function printPlan(io: CliIo, plan: PrunePlan): void {
  for (const part of plan.parts) {
    if (part.remove.length > 0) {
      io.stdout.write(`Will remove these ${PRUNE_TITLES[part.kind]}:\n`);
      io.stdout.write(part.remove.map((item) => `  ${item.name}${item.size !== undefined ? ` (${goSize(item.size)})` : ''}\n`).join(''));
    }
    if (part.kept.length > 0) io.stdout.write(`Keeping (in use):\n${part.kept.map((item) => `  ${item.name}\n`).join('')}`);
  }
  const semantics = keepsWhatRemovedContainersUse(plan);
  if (semantics !== undefined) io.stdout.write(`${semantics}\n`);
  io.stdout.write(`Total: ${goSize(planTotal(plan))}\n`);
}

/** One line from stdin: true only for y/yes. The end of input (or Ctrl-C) is a no. */
function askYes(io: CliIo, signal: AbortSignal): Promise<boolean> {
  io.stdout.write('Are you sure you want to continue? [y/N] ');
  return new Promise((resolve) => {
    let text = '';
    const finish = (answer: boolean): void => {
      io.stdin.removeListener('data', onData);
      io.stdin.removeListener('end', onEnd);
      signal.removeEventListener('abort', onEnd);
      io.stdin.pause();
      resolve(answer);
    };
    const onData = (chunk: Buffer | string): void => {
      text += chunk.toString();
      const newline = text.indexOf('\n');
      if (newline !== -1) finish(/^\s*y(es)?\s*$/i.test(text.slice(0, newline)));
    };
    const onEnd = (): void => finish(/^\s*y(es)?\s*$/i.test(text));
    io.stdin.on('data', onData);
    io.stdin.once('end', onEnd);
    signal.addEventListener('abort', onEnd, { once: true });
    io.stdin.resume();
  });
}

const DELETED_HEADERS: Readonly<Record<PruneKind, string>> = {
  containers: 'Deleted Containers:',
  'dangling-images': 'Deleted Images:',
  'unused-images': 'Deleted Images:',
  volumes: 'Deleted Volumes:',
  networks: 'Deleted Networks:',
  'build-cache': 'Deleted build cache objects:',
};

export async function pruneCommand(options: { kinds: readonly PruneKind[]; force: boolean; filters: ListFilters }, { io, signal, client }: CommandDeps): Promise<number> {
  const engine = client();
  const plan = await planPrune(engine, options.kinds, options.filters, signal);
  if (planIsEmpty(plan)) {
    const kept = plan.parts.reduce((sum, part) => sum + part.kept.length, 0);
    io.stdout.write(`Nothing to remove${kept > 0 ? ` (${kept} in use, kept)` : ''}\n`);
    return 0;
  }
  printPlan(io, plan);
  if (!options.force && !(await askYes(io, signal))) return 0;
  const outcomes = await runPrune(engine, plan, signal);
  let reclaimed = 0;
  for (const outcome of outcomes) {
    reclaimed += outcome.spaceReclaimed;
    const lines = outcome.engineLines ?? outcome.removed;
    if (lines.length > 0) io.stdout.write(`${DELETED_HEADERS[outcome.kind]}\n${lines.map((name) => `${name}\n`).join('')}\n`);
    if (outcome.refused) io.stdout.write(`Kept (the engine refused to remove them):\n${outcome.refused.map((reason) => `  ${reason}\n`).join('')}\n`);
  }
  io.stdout.write(`Total reclaimed space: ${goSize(reclaimed)}\n`);
  return 0;
}

export async function systemDf(options: { verbose: boolean; format: string | undefined }, { io, signal, client }: CommandDeps): Promise<number> {
  // The template is checked before the engine is asked (the usage takes it a while to compute).
  const prepared = options.format !== undefined && !options.verbose ? prepareFormat(options.format, DISK_USAGE_TABLE) : undefined;
  if (options.verbose && options.format !== undefined && options.format.trim() !== 'table') {
    throw new UsageError(`--format ${JSON.stringify(options.format)} with -v is not supported: berth prints -v only as docker's tables. Leave out -v, or use --format table`);
  }
  const usage = await client().system.df({ signal });
  if (!options.verbose) {
    io.stdout.write(renderFormatted(prepared ?? prepareFormat('table', DISK_USAGE_TABLE), diskUsageFormatTarget(diskUsageLines(usage))));
    return 0;
  }
  const now = io.now();
  io.stdout.write('Images space usage:\n\n');
  io.stdout.write(
    renderTable(
      ['REPOSITORY', 'TAG', 'IMAGE ID', 'CREATED', 'SIZE', 'SHARED SIZE', 'UNIQUE SIZE', 'CONTAINERS'],
      (usage.Images ?? []).flatMap((image) =>
        (image.RepoTags?.length ? image.RepoTags : ['<none>:<none>']).map((tag) => {
          const at = tag.lastIndexOf(':');
          return [
            tag.slice(0, at),
            tag.slice(at + 1),
            shortId(image.Id.replace(/^sha256:/, '')),
            createdAgo(image.Created, now),
            goSize(image.Size, 3),
            goSize(Math.max(0, image.SharedSize)),
            goSize(image.Size - Math.max(0, image.SharedSize)),
            String(image.Containers),
          ];
        }),
      ),
    ),
  );
  io.stdout.write('\nContainers space usage:\n\n');
  io.stdout.write(
    renderTable(
      ['CONTAINER ID', 'IMAGE', 'COMMAND', 'LOCAL VOLUMES', 'SIZE', 'CREATED', 'STATUS', 'NAMES'],
      (usage.Containers ?? []).map((container) => [
        shortId(container.Id),
        container.Image,
        '',
        '',
        goSize(container.SizeRw ?? 0),
        createdAgo(container.Created, now),
        container.Status,
        (container.Names[0] ?? '').replace(/^\//, ''),
      ]),
    ),
  );
  io.stdout.write('\nLocal Volumes space usage:\n\n');
  io.stdout.write(
    renderTable(
      ['VOLUME NAME', 'LINKS', 'SIZE'],
      (usage.Volumes ?? []).map((volume) => [volume.Name, String(volume.UsageData?.RefCount ?? 0), goSize(volume.UsageData?.Size ?? 0)]),
    ),
  );
  const caches = usage.BuildCache ?? [];
  io.stdout.write(`\nBuild cache usage: ${goSize(caches.reduce((sum, cache) => sum + cache.Size, 0))}\n\n`);
  io.stdout.write(
    renderTable(
      ['CACHE ID', 'CACHE TYPE', 'SIZE', 'CREATED', 'LAST USED', 'USAGE', 'SHARED'],
      caches.map((cache) => [cache.ID.slice(0, 12), cache.Type, goSize(cache.Size), cache.CreatedAt, cache.LastUsedAt ?? '', String(cache.UsageCount), String(cache.Shared)]),
    ),
  );
  return 0;
}
