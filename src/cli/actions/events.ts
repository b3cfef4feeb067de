/** `berth events`: the engine's event stream in docker's default line format. */
import { dockerEventLine } from '../../engine';
import type { CommandDeps } from '../io';
import type { EventsCommandOptions } from '../options';
import { engineTimestamp } from '../timestamps';
import { UsageError } from '../args';
import { EMPTY_EVENT, eventContext } from '../eventFormatContext';
import { parseTemplate, TemplateError, type ParsedTemplate } from '../template';
import { executeTemplate } from '../templateExecute';

/**
 * Names and labels come from whoever made the container: on a terminal their control characters (an escape sequence
 * could rewrite the screen or the title) are shown as `\xNN`. Into a pipe the line is docker's, byte for byte.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/g;

export function escapeControls(line: string): string {
  return line.replace(CONTROL_CHARACTERS, (char) => `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/** docker's events template: `json` is `{{json .}}`, anything else a Go template checked on an empty message first (exit 64). */
function prepareEventTemplate(format: string): ParsedTemplate {
  try {
    const template = parseTemplate(format === 'json' ? '{{json .}}' : format);
    executeTemplate(template, eventContext(EMPTY_EVENT));
    return template;
  } catch (error) {
    if (error instanceof TemplateError) throw new UsageError(`Error parsing format: ${error.message}`, EXIT_BAD_EVENT_FORMAT);
    throw error;
  }
}

const EXIT_BAD_EVENT_FORMAT = 64;

export async function eventsCommand(options: EventsCommandOptions, { io, signal, client }: CommandDeps): Promise<number> {
  const template = options.format !== undefined ? prepareEventTemplate(options.format) : undefined;
  const since = options.since !== undefined ? engineTimestamp(options.since, io.now(), 'since') : undefined;
  const until = options.until !== undefined ? engineTimestamp(options.until, io.now(), 'until') : undefined;
  const terminal = io.terminalSize() !== undefined;
  try {
    for await (const event of client().system.events({ since, until, filters: options.filters, signal })) {
      const line = template ? executeTemplate(template, eventContext(event)) : dockerEventLine(event);
      io.stdout.write(`${terminal ? escapeControls(line) : line}\n`);
    }
  } catch (error) {
    // Ctrl-C is how a followed stream ends, as with docker: exit 0. A failed write still fails (main checks it).
    if (signal.aborted && io.stdout.failure === undefined) return 0;
    throw error;
  }
  return 0;
}
