/**
 * `--format` as the docker CLI applies it to a listing: `table` (its default columns), `table TEMPLATE` (a header row,
 * then one row per item, aligned by Go's tabwriter), `json` (one object per line), or a bare TEMPLATE (one line per
 * item). `\t` and `\n` typed in the template become a tab and a newline, as with docker.
 */
import { parseTemplate, TemplateError, type ParsedTemplate, type TemplateContext } from './template';
import { executeTemplate, type FunctionTable } from './templateExecute';
import { goJson, type TemplateValue } from './templateFunctions';

/** A listing's docker shape: the header of each field, and one context per item. */
export interface FormatTarget {
  readonly headers: Readonly<Record<string, string>>;
  readonly items: readonly TemplateContext[];
}

export interface PreparedFormat {
  readonly kind: 'table' | 'json' | 'raw';
  readonly template: ParsedTemplate;
  /** The template as executed, for a listing to ask whether it needs data it otherwise skips (`.Size`). */
  readonly text: string;
  readonly wording: FailureWording;
}

/** How docker prefixes a template's failure: `ps` has words of its own; its other listings say "template parsing error". */
export interface FailureWording {
  readonly parse: string;
  readonly execute: string;
}
export const PS_WORDING: FailureWording = { parse: 'failed to parse template', execute: 'failed to execute template' };
const LISTING_WORDING: FailureWording = { parse: 'template parsing error', execute: 'template parsing error' };

/** Parses `--format` once, before anything is listed, so a bad template is refused first (docker's wording). */
export function prepareFormat(format: string, defaultTable: string, wording = LISTING_WORDING): PreparedFormat {
  const trimmed = format.trim();
  const kind = trimmed === 'json' ? 'json' : trimmed.startsWith('table') ? 'table' : 'raw';
  let text = kind === 'json' ? '{{json .}}' : kind === 'table' ? trimmed.slice('table'.length) : format;
  if (kind === 'table' && text.trim() === '') text = defaultTable;
  text = text.trim().replace(/\\t|\\n/g, (escape) => (escape === '\\t' ? '\t' : '\n'));
  try {
    return { kind, template: parseTemplate(text), text, wording };
  } catch (error) {
    if (error instanceof TemplateError) throw new TemplateError(`${wording.parse}: ${error.message}`);
    throw error;
  }
}

/** docker's header functions: in the header row, these return their first argument unchanged. */
const headerFunctions: FunctionTable = new Map(
  ['json', 'split', 'join', 'title', 'lower', 'upper', 'truncate', 'pad'].map((name) => [
    name,
    (args: readonly TemplateValue[]): TemplateValue => {
      if (typeof args[0] !== 'string') throw new TemplateError('header');
      return args[0];
    },
  ]),
);

/** The listing as docker prints it for this format; `--format json` marshals each item as docker does (HTML-escaped). */
export function renderFormatted(prepared: PreparedFormat, target: FormatTarget): string {
  const rows: string[] = [];
  for (const item of target.items) {
    try {
      rows.push(prepared.kind === 'json' ? goJson(item, true) : executeTemplate(prepared.template, item));
    } catch (error) {
      if (error instanceof TemplateError) throw new TemplateError(`${prepared.wording.execute}: ${error.message}${fieldHint(error, item)}`);
      throw error;
    }
  }
  const body = rows.map((row) => `${row}\n`).join('');
  if (prepared.kind !== 'table') return body;
  return tabwrite(`${headerRow(prepared.template, target.headers)}\n${body}`);
}

/** What to type instead of a field the listing does not have. */
function fieldHint(error: TemplateError, item: TemplateContext): string {
  if (!error.message.includes("can't evaluate field") || !('toJson' in item)) return '';
  const fields = Object.keys((item as { toJson(): Record<string, unknown> }).toJson());
  return `. The fields are ${fields.map((field) => `.${field}`).join(', ')}`;
}

/** One item through the template (`volume inspect -f`): its line, or docker's words for a field it does not have. */
export function executeFormatted(prepared: PreparedFormat, item: TemplateContext): string {
  return renderFormatted({ ...prepared, kind: prepared.kind === 'table' ? 'raw' : prepared.kind }, { headers: {}, items: [item] });
}

/** docker runs the template once on a map of headers; what fails there (a header function on a map) is cut short, not fatal. */
function headerRow(template: ParsedTemplate, headers: Readonly<Record<string, string>>): string {
  const headerContext: TemplateContext = {
    typeName: 'formatter.SubHeaderContext',
    has: () => true,
    field: (name, args) => {
      if (name === 'Label' && typeof args[0] === 'string') return (args[0].split('.').pop() ?? '').replace(/[-_]/g, ' ');
      return headers[name] ?? '<no value>';
    },
  };
  try {
    return executeTemplate(template, headerContext, headerFunctions);
  } catch {
    return '';
  }
}

const MIN_WIDTH = 10;
const PADDING = 3;

/**
 * Go's text/tabwriter as docker configures it (minwidth 10, padding 3, spaces): tab-terminated cells line up in
 * column blocks, runs of consecutive lines that all have that cell; the text after a line's last tab is not a cell.
 * Widths count characters. Computed column by column over those runs, so the work is linear in the cells, however
 * many tabs a hostile label holds.
 */
export function tabwrite(text: string): string {
  const lines = text.split('\n').map((line) => line.split('\t'));
  const cellWidth = (cell: string): number => [...cell].length;
  const widths = lines.map((cells) => new Array<number>(Math.max(0, cells.length - 1)).fill(MIN_WIDTH));
  const maxColumns = lines.reduce((most, cells) => Math.max(most, cells.length - 1), 0);
  for (let column = 0; column < maxColumns; column++) {
    let index = 0;
    while (index < lines.length) {
      if ((lines[index] as string[]).length - 1 <= column) {
        index++;
        continue;
      }
      const start = index;
      let width = MIN_WIDTH;
      for (; index < lines.length && (lines[index] as string[]).length - 1 > column; index++) {
        width = Math.max(width, cellWidth((lines[index] as string[])[column] as string) + PADDING);
      }
      for (let line = start; line < index; line++) (widths[line] as number[])[column] = width;
    }
  }
  return lines
    .map((cells, line) => cells.map((cell, column) => (column < cells.length - 1 ? cell + ' '.repeat(Math.max(0, ((widths[line] as number[])[column] as number) - cellWidth(cell))) : cell)).join(''))
    .join('\n');
}
