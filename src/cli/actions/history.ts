/** `history`: the engine's image history as docker prints it. */
import type { HistoryCommandOptions } from '../options';
import { HISTORY_TABLE, HISTORY_TABLE_NOT_HUMAN, historyFormatTarget } from '../formatContexts';
import { prepareFormat, renderFormatted } from '../formatOption';
import type { CommandDeps } from '../io';

export async function historyCommand(options: HistoryCommandOptions, { io, signal, client }: CommandDeps): Promise<number> {
  // docker's NewHistoryFormat: `-q` and `-H=false` choose the default table only; a --format of one's own wins.
  const defaultTable = options.human ? HISTORY_TABLE : HISTORY_TABLE_NOT_HUMAN;
  const format = options.format === undefined || options.format.trim() === 'table' ? (options.quiet ? '{{.ID}}' : `table ${defaultTable}`) : options.format;
  const prepared = prepareFormat(format, defaultTable);
  const history = await client().images.history(options.image, { signal });
  io.stdout.write(renderFormatted(prepared, historyFormatTarget(history, io.now(), !options.noTrunc, options.human)));
  return 0;
}
