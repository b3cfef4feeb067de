/**
 * `berth logs A B …`: several containers' logs merged in timestamp order, each line prefixed with its container's
 * name the way `docker compose logs` prefixes services: the name padded to the widest, ` | `, the line; coloured on
 * a terminal. Container stderr lines go to stderr, as docker compose sends them.
 */
import { mergeContainerLogs, mergedLogsSources, PREFIX_COLOURS, type MergedLogLine } from '../../engine';
import type { LogsCommandOptions } from '../options';
import type { CommandDeps } from '../io';
import { engineTimestamp } from '../timestamps';

export async function mergedLogsCommand(options: LogsCommandOptions, { io, signal, client }: CommandDeps): Promise<number> {
  // Both times are read before anything is asked, so a bad value is refused with nothing printed.
  const since = options.since !== undefined ? engineTimestamp(options.since, io.now(), 'since') : undefined;
  const until = options.until !== undefined ? engineTimestamp(options.until, io.now(), 'until') : undefined;
  const engine = client();
  const sources = await mergedLogsSources(engine, options.ids, signal);
  const prefixes = linePrefixes(
    sources.map((source) => source.name),
    !options.noLogPrefix,
    !options.noColor && io.terminalSize() !== undefined,
  );
  await mergeContainerLogs(engine, sources, { follow: options.follow, tail: options.tail, since, until, details: options.details, signal }, (batch) => {
    let out = '';
    let err = '';
    for (const line of batch) {
      const text = `${prefixes[line.source] ?? ''}${options.timestamps ? `${stampText(line)} ` : ''}${line.text}\n`;
      if (line.stream === 'stderr') err += text;
      else out += text;
    }
    // Backpressure: a slow reader of berth's output holds the merge, and through it the engine's streams.
    const pendingErr = err === '' ? undefined : io.stderr.deliver(Buffer.from(err, 'utf8'));
    const pendingOut = out === '' ? undefined : io.stdout.deliver(Buffer.from(out, 'utf8'));
    return pendingErr && pendingOut ? Promise.all([pendingErr, pendingOut]).then(() => undefined) : (pendingOut ?? pendingErr);
  });
  // Following ends quietly when the signal aborts; Ctrl-C still ends the command as `berth logs -f ID` does (130).
  signal.throwIfAborted();
  return 0;
}

/** `name   | ` for each container: padded to the widest name, in docker compose's colours, or nothing. */
export function linePrefixes(names: readonly string[], shown: boolean, coloured: boolean): string[] {
  if (!shown) return names.map(() => '');
  const width = Math.max(...names.map((name) => name.length));
  return names.map((name, index) => {
    const prefix = `${name.padEnd(width)} |`;
    return coloured ? `\u001b[${PREFIX_COLOURS[index % PREFIX_COLOURS.length] ?? 36}m${prefix}\u001b[0m ` : `${prefix} `;
  });
}

/** docker's `-t` stamp: RFC 3339 in UTC with nine fraction digits. */
export function stampText(line: Pick<MergedLogLine, 'seconds' | 'nanos'>): string {
  const iso = new Date(line.seconds * 1000).toISOString();
  return `${iso.slice(0, 19)}.${String(line.nanos).padStart(9, '0')}Z`;
}
