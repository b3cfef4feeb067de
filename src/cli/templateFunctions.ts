/**
 * The functions `docker --format` templates may call (Go's builtins and docker's own: json, join, split, lower, upper,
 * title, truncate, pad), and how Go prints a value. Each one is a plain function of its arguments; an argument of
 * the wrong type is an error in Go's words, never a crash. Output a template can make is bounded (widths, pads).
 */
import { goQuote } from './format';

/** A value whose fields are computed (docker's formatter contexts): `.Field` calls, unknown names are errors. */
export interface TemplateContext {
  readonly typeName: string;
  field(name: string, args: readonly TemplateValue[]): TemplateValue;
  has(name: string): boolean;
}

export function isContext(value: unknown): value is TemplateContext {
  return typeof value === 'object' && value !== null && typeof (value as Partial<TemplateContext>).field === 'function' && typeof (value as Partial<TemplateContext>).typeName === 'string';
}

export type TemplateValue = string | number | boolean | null | undefined | readonly TemplateValue[] | { readonly [key: string]: TemplateValue } | TemplateContext;

/** A printf width or a pad larger than this is refused: a template must not make berth allocate without bound. */
const MAX_WIDTH = 10_000;

type TemplateFunction = (args: readonly TemplateValue[]) => TemplateValue;

const functions: Record<string, TemplateFunction> = {
  // docker's contexts marshal themselves with json.Marshal, which escapes <, > and &; other values are not escaped.
  json: ([value]) => goJson(value, typeof value === 'object' && value !== null && 'toJson' in value && !('htmlEscapedJson' in value && value.htmlEscapedJson === false)),
  join: (args) => {
    const [list, separator] = expect(args, 2, 'join');
    if (!Array.isArray(list) || !list.every((item) => typeof item === 'string')) throw new Error(`wrong type for value; expected []string; got ${typeName(list)}`);
    return (list).join(text(separator));
  },
  split: (args) => {
    const [value, separator] = expect(args, 2, 'split');
    return text(value).split(text(separator));
  },
  lower: (args) => text(expect(args, 1, 'lower')[0]).toLowerCase(),
  upper: (args) => text(expect(args, 1, 'upper')[0]).toUpperCase(),
  title: (args) => text(expect(args, 1, 'title')[0]).replace(/(^|[^\p{L}\p{N}_'])(\p{L})/gu, (_match, before: string, letter: string) => before + letter.toUpperCase()),
  truncate: (args) => {
    const [value, length] = expect(args, 2, 'truncate');
    const bytes = Buffer.from(text(value));
    const count = integer(length);
    // Go's truncateWithLength cuts bytes, like docker.
    return bytes.length < count ? text(value) : bytes.subarray(0, Math.max(0, count)).toString('utf8');
  },
  pad: (args) => {
    const [value, before, after] = expect(args, 3, 'pad');
    return ' '.repeat(bounded(integer(before))) + text(value) + ' '.repeat(bounded(integer(after)));
  },
  printf: ([format, ...rest]) => sprintf(text(format), rest),
  print: (args) => args.map((arg, index) => (index > 0 && typeof arg !== 'string' && typeof args[index - 1] !== 'string' ? ' ' : '') + printValue(arg)).join(''),
  println: (args) => `${args.map(printValue).join(' ')}\n`,
  len: (args) => {
    const [value] = expect(args, 1, 'len');
    if (typeof value === 'string') return Buffer.byteLength(value);
    if (Array.isArray(value)) return value.length;
    if (typeof value === 'object' && value !== null) return Object.keys(value).length;
    throw new Error(`len of type ${typeName(value)}`);
  },
  index: ([value, ...keys]) => {
    let current: TemplateValue = value;
    for (const key of keys) {
      if (Array.isArray(current)) current = (current as TemplateValue[])[integer(key)];
      else if (typeof current === 'object' && current !== null) current = mapIndex(current as Record<string, TemplateValue>, text(key));
      else throw new Error(`can't index item of type ${typeName(current)}`);
    }
    return current;
  },
  eq: ([first, ...others]) => others.some((other) => other === first),
  ne: (args) => {
    const [first, second] = expect(args, 2, 'ne');
    return first !== second;
  },
  lt: (args) => compare(args, 'lt') < 0,
  le: (args) => compare(args, 'le') <= 0,
  gt: (args) => compare(args, 'gt') > 0,
  ge: (args) => compare(args, 'ge') >= 0,
  not: (args) => !truthyValue(expect(args, 1, 'not')[0]),
  and: (args) => args.find((arg) => !truthyValue(arg)) ?? args[args.length - 1],
  or: (args) => args.find(truthyValue) ?? args[args.length - 1],
};

export function isFunctionName(name: string): boolean {
  return Object.prototype.hasOwnProperty.call(functions, name);
}

export function callFunction(name: string, args: readonly TemplateValue[]): TemplateValue {
  const call = functions[name];
  if (!call) throw new Error(`function "${name}" not defined`);
  return call(args);
}

function expect(args: readonly TemplateValue[], count: number, name: string): readonly TemplateValue[] {
  if (args.length !== count) throw new Error(`wrong number of args for ${name}: want ${count} got ${args.length}`);
  return args;
}

function text(value: TemplateValue): string {
  if (typeof value !== 'string') throw new Error(`wrong type for value; expected string; got ${typeName(value)}`);
  return value;
}

function integer(value: TemplateValue): number {
  if (typeof value !== 'number' || !Number.isInteger(value)) throw new Error(`wrong type for value; expected int; got ${typeName(value)}`);
  return value;
}

function bounded(width: number): number {
  if (width > MAX_WIDTH) throw new Error(`width ${width} is larger than ${MAX_WIDTH}`);
  return Math.max(0, width);
}

function compare(args: readonly TemplateValue[], name: string): number {
  const [first, second] = expect(args, 2, name);
  if (typeof first === 'number' && typeof second === 'number') return first - second;
  if (typeof first === 'string' && typeof second === 'string') return first < second ? -1 : first > second ? 1 : 0;
  throw new Error('incompatible types for comparison');
}

function truthyValue(value: TemplateValue): boolean {
  if (value === undefined || value === null || value === false || value === 0 || value === '') return false;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object' && !('field' in value && typeof value.field === 'function')) return Object.keys(value).length > 0;
  return true;
}

export function typeName(value: TemplateValue): string {
  if (typeof value === 'string') return 'string';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float64';
  if (typeof value === 'boolean') return 'bool';
  if (value === null || value === undefined) return '<nil>';
  if (Array.isArray(value)) return '[]interface {}';
  if ('typeName' in value && typeof value.typeName === 'string' && typeof value.field === 'function') return value.typeName;
  return 'map[string]interface {}';
}

/** Go's fmt %v: text as is, `[a b]` for lists, `map[k:v]` with sorted keys, `<nil>`, and `<no value>` for a missing key. */
export function printValue(value: TemplateValue): string {
  if (value === undefined) return '<no value>';
  if (value === null) return '<nil>';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[${value.map((item: TemplateValue) => (item === undefined ? '<nil>' : printValue(item))).join(' ')}]`;
  if ('field' in value && typeof value.field === 'function') return `&{}`;
  const record = value as Record<string, TemplateValue>;
  return `map[${Object.keys(record)
    .sort()
    .map((key) => `${key}:${record[key] === undefined ? '<nil>' : printValue(record[key])}`)
    .join(' ')}]`;
}

/**
 * Go's index on a map: a missing key gives the element type's zero value. docker's maps of labels, options and
 * attributes are map[string]string (""); a map holding other values is taken as map[string]interface{} (no value).
 */
function mapIndex(map: Readonly<Record<string, TemplateValue>>, key: string): TemplateValue {
  if (Object.prototype.hasOwnProperty.call(map, key)) return map[key];
  return Object.values(map).every((value) => typeof value === 'string') ? '' : undefined;
}

/** An integer wider than a double (an event's timeNano) travels through `toJson` as this prefix and its digits, and is written as a bare number. */
export const EXACT_INTEGER = '\u0000exact-integer:';
const EXACT_INTEGER_JSON = /"\\u0000exact-integer:(\d{1,20})"/g;

/**
 * Go's encoding/json for a value: `escapeHtml` as json.Marshal does (docker's `--format json` and `{{json .}}` on its
 * own contexts), not for the json function on other values (docker turns it off there).
 */
export function goJson(value: TemplateValue, escapeHtml: boolean): string {
  const plain = typeof value === 'object' && value !== null && 'field' in value && typeof value.field === 'function' && 'toJson' in value ? (value as unknown as { toJson(): unknown }).toJson() : value;
  const encoded = (JSON.stringify(plain === undefined ? null : plain) ?? 'null').replace(EXACT_INTEGER_JSON, '$1');
  const escaped = encoded.replace(/[\u2028\u2029]/g, (char) => `\\u${char.charCodeAt(0).toString(16)}`);
  return escapeHtml ? escaped.replace(/[<>&]/g, (char) => `\\u00${char.charCodeAt(0).toString(16)}`) : escaped;
}

/** Go's fmt.Sprintf for the verbs templates use: %s %v %q %d %f %x %X %t %%, with flags `-`, `0`, `+`, width and precision. */
export function sprintf(format: string, args: readonly TemplateValue[]): string {
  let result = '';
  let next = 0;
  const pattern = /%([-+0 #]*)(\d*)(?:\.(\d*))?([a-zA-Z%])/g;
  let last = 0;
  for (let match = pattern.exec(format); match !== null; match = pattern.exec(format)) {
    result += format.slice(last, match.index);
    last = pattern.lastIndex;
    const [, flags = '', widthText = '', precisionText, verb = ''] = match;
    if (verb === '%') {
      result += '%';
      continue;
    }
    if (next >= args.length) {
      result += `%!${verb}(MISSING)`;
      continue;
    }
    const arg = args[next++];
    const precision = precisionText === undefined ? undefined : bounded(Number(precisionText || '0'));
    let body = formatVerb(verb, arg, precision, flags.includes('+'));
    const width = widthText === '' ? 0 : bounded(Number(widthText));
    if (body.length < width) {
      const fill = width - [...body].length;
      if (flags.includes('-')) body += ' '.repeat(Math.max(0, fill));
      else if (flags.includes('0') && /[dfxX]/.test(verb) && typeof arg === 'number') body = body.startsWith('-') ? `-${'0'.repeat(fill)}${body.slice(1)}` : '0'.repeat(fill) + body;
      else body = ' '.repeat(Math.max(0, fill)) + body;
    }
    result += body;
  }
  result += format.slice(last);
  if (next < args.length) result += `%!(EXTRA ${args.slice(next).map((arg) => `${typeName(arg)}=${printValue(arg)}`).join(', ')})`;
  return result;
}

function formatVerb(verb: string, arg: TemplateValue, precision: number | undefined, plus: boolean): string {
  const wrong = (): string => `%!${verb}(${typeName(arg)}=${printValue(arg)})`;
  switch (verb) {
    case 's':
    case 'v': {
      const shown = printValue(arg);
      return precision !== undefined && verb === 's' ? [...shown].slice(0, precision).join('') : shown;
    }
    case 'q':
      return typeof arg === 'string' ? goQuote(arg) : wrong();
    case 'd':
      return typeof arg === 'number' && Number.isInteger(arg) ? (plus && arg >= 0 ? '+' : '') + String(arg) : wrong();
    case 'f':
      return typeof arg === 'number' ? (plus && arg >= 0 ? '+' : '') + arg.toFixed(precision ?? 6) : wrong();
    case 'x':
    case 'X': {
      const hex = typeof arg === 'number' && Number.isInteger(arg) ? arg.toString(16) : typeof arg === 'string' ? Buffer.from(arg).toString('hex') : undefined;
      if (hex === undefined) return wrong();
      return verb === 'X' ? hex.toUpperCase() : hex;
    }
    case 't':
      return typeof arg === 'boolean' ? String(arg) : wrong();
    default:
      return wrong();
  }
}
