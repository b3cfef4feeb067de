/** `berth diff`: the engine's change list as docker prints it, one batch written as soon as it is decoded. */
import { changeLine } from '../../engine';
import type { CommandDeps } from '../io';
import type { DiffCommandOptions } from '../options';

export async function diffCommand(options: DiffCommandOptions, { io, signal, client }: CommandDeps): Promise<number> {
  for await (const batch of client().containers.changes(options.id, { signal })) {
    let text = '';
    for (const change of batch) text += changeLine(change);
    // A slow reader (a pager) holds the engine's answer back instead of berth buffering all of it.
    await io.stdout.deliver(Buffer.from(text, 'utf8'));
  }
  return 0;
}
