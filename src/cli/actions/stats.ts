/**
 * `berth stats` and `berth top`. Stats follows one stream per container (engine/stats/statsStream.ts: stall timeout and a
 * quiet reconnect) and redraws docker's table in place each second; without names it follows the container events,
 * as docker does, instead of listing again and again.
 */
import {
  STATS_HEADERS,
  followStats,
  statsCells,
  statsFigures,
  type ContainerSummary,
  type EngineClient,
  type StatsFigures,
} from '../../engine';
import { containerName } from '../../model/records';
import type { StatsCommandOptions, TopCommandOptions } from '../options';
import { renderTable, shortId } from '../format';
import { prepareFormat, renderFormatted } from '../formatOption';
import type { CommandDeps } from '../io';
import { STATS_TABLE, statsFormatTarget, type StatsRow } from '../usageFormatContexts';

interface Row {
  readonly id: string;
  name: string;
  readonly container: string;
  figures: StatsFigures | undefined;
  readonly stop: AbortController;
}

/** ANSI: clear the screen and go home, as docker does before each redraw on a terminal. */
const REDRAW = '\x1b[2J\x1b[H';
const REDRAW_MS = 1_000;

export async function statsCommand(options: StatsCommandOptions, { io, signal, client }: CommandDeps): Promise<number> {
  // The template is checked before anything is asked of the engine.
  const prepared = options.format !== undefined ? prepareFormat(options.format, STATS_TABLE) : undefined;
  const render = (rows: readonly StatsRow[]): string => (prepared ? renderFormatted(prepared, statsFormatTarget(rows, options.noTrunc)) : statsTable(rows, options.noTrunc));
  const engine = client();
  const targets = await initialTargets(engine, options, signal);
  if (options.noStream) {
    const figures = await Promise.all(targets.map(async (target) => statsFigures(await engine.containers.statsOnce(target.id, { signal }))));
    io.stdout.write(render(targets.map((target, index) => ({ ...target, figures: figures[index] }))));
    return 0;
  }
  const rows = new Map<string, Row>();
  const follow = (id: string, name: string, container = shortId(id)): void => {
    if (rows.has(id)) return;
    const row: Row = { id, name, container, figures: undefined, stop: new AbortController() };
    rows.set(id, row);
    const stop = AbortSignal.any([signal, row.stop.signal]);
    void followStats(engine, id, { signal: stop, onSample: (sample) => (row.figures = statsFigures(sample)) }).then(
      (end) => {
        if (end === 'gone') rows.delete(id);
      },
      () => rows.delete(id),
    );
  };
  for (const target of targets) follow(target.id, target.name, target.container);
  if (options.ids.length === 0) void followContainerEvents(engine, options.all, signal, follow, (id) => {
    rows.get(id)?.stop.abort();
    rows.delete(id);
  });
  const terminal = io.terminalSize() !== undefined;
  const draw = (): void => io.stdout.write(`${terminal ? REDRAW : ''}${render([...rows.values()])}`);
  const timer = setInterval(draw, REDRAW_MS);
  try {
    await new Promise<void>((resolve) => (signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve(), { once: true })));
  } finally {
    clearInterval(timer);
    for (const row of rows.values()) row.stop.abort();
  }
  return 0;
}

/** The named containers (each must exist, as with docker), or those listed now: running ones, all with `-a`. */
async function initialTargets(engine: EngineClient, options: StatsCommandOptions, signal: AbortSignal): Promise<Array<{ id: string; name: string; container: string }>> {
  if (options.ids.length > 0) {
    return Promise.all(
      options.ids.map(async (given) => {
        const inspect = await engine.containers.inspect(given, { signal });
        return { id: inspect.Id, name: (inspect.Name ?? given).replace(/^\//, ''), container: given };
      }),
    );
  }
  const listed: ContainerSummary[] = await engine.containers.list({ all: options.all, signal });
  return listed.map((summary) => ({ id: summary.Id, name: containerName(summary), container: shortId(summary.Id) }));
}

/** Starts following containers that start (or are created, with `-a`), and drops those that die or go away. */
async function followContainerEvents(
  engine: EngineClient,
  all: boolean,
  signal: AbortSignal,
  onAdd: (id: string, name: string) => void,
  onRemove: (id: string) => void,
): Promise<void> {
  try {
    for await (const event of engine.system.events({ filters: { type: ['container'] }, signal })) {
      const id = event.Actor?.ID;
      if (id === undefined) continue;
      const action = event.Action ?? '';
      const name = event.Actor?.Attributes?.['name'] ?? shortId(id);
      if (action === 'start' || (all && action === 'create')) onAdd(id, name);
      else if (action === 'destroy' || action === 'remove' || (!all && (action === 'die' || action === 'died'))) onRemove(id);
    }
  } catch {
    // Ctrl-C, or the engine went away: the streams of the containers already shown report that themselves.
  }
}

function statsTable(rows: readonly StatsRow[], noTrunc: boolean): string {
  return renderTable(
    STATS_HEADERS,
    rows.map((row) => [noTrunc ? row.id : shortId(row.id), row.name, ...(row.figures ? statsCells(row.figures) : ['--', '-- / --', '--', '--', '--', '--'])]),
  );
}

/** docker's top: ps's columns in a tabwriter with a minimum width of 20. */
export async function topCommand(options: TopCommandOptions, { io, signal, client }: CommandDeps): Promise<number> {
  const top = await client().containers.top(options.id, { psArgs: options.psArgs, signal });
  io.stdout.write(renderTable(top.Titles, top.Processes ?? [], TOP_MIN_WIDTH));
  return 0;
}

const TOP_MIN_WIDTH = 20;
