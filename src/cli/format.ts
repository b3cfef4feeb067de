/** Text formatting for the CLI's tables, shaped like the docker CLI's output. Pure functions of their inputs. */
import { formatBytes, humanDuration, shortId } from '../common/format';
import { splitRepoTag } from '../common/imageName';
import type { ContainerSummary, ImageSummary } from '../engine/connection';

export { humanDuration, shortId };

/**
 * Left-aligned columns as docker's tabwriter prints them (minimum width 10 unless given, padding 3): each column but the last is
 * as wide as its widest cell plus three spaces, and at least 10. Widths count terminal columns, so CJK text (two
 * columns a character) lines up.
 */
export function renderTable(headers: readonly string[], rows: readonly (readonly string[])[], minWidth = MIN_COLUMN_WIDTH): string {
  const widths = headers.map((header, column) =>
    Math.max(minWidth, PADDING + Math.max(displayWidth(header), ...rows.map((row) => displayWidth(row[column] ?? '')))),
  );
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, column) => (column === cells.length - 1 ? cell : cell + ' '.repeat((widths[column] ?? 0) - displayWidth(cell))))
      .join('')
      .trimEnd();
  return [line(headers), ...rows.map(line)].map((text) => `${text}\n`).join('');
}

const MIN_COLUMN_WIDTH = 10;
const PADDING = 3;

/** East Asian wide and fullwidth characters (and the emoji blocks), inclusive: two terminal columns each. */
const WIDE_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0x1100, 0x115f], [0x2e80, 0x303e], [0x3041, 0x33ff], [0x3400, 0x4dbf], [0x4e00, 0x9fff], [0xa000, 0xa4cf], [0xac00, 0xd7a3],
  [0xf900, 0xfaff], [0xfe30, 0xfe4f], [0xff00, 0xff60], [0xffe0, 0xffe6], [0x1f300, 0x1f64f], [0x1f900, 0x1f9ff], [0x20000, 0x3fffd],
];

/** Terminal columns a character takes: 2 for East Asian wide and fullwidth ones, 0 for combining marks. */
export function charWidth(codePoint: number): number {
  if (codePoint < 0x20 || (codePoint >= 0x7f && codePoint < 0xa0)) return 0;
  // Nothing below the combining marks is wide: most text ends its check here.
  if (codePoint < 0x300) return 1;
  if (codePoint <= 0x36f || (codePoint >= 0x200b && codePoint <= 0x200f) || codePoint === 0xfeff) return 0;
  return WIDE_RANGES.some(([low, high]) => codePoint >= low && codePoint <= high) ? 2 : 1;
}

export function displayWidth(text: string): number {
  let width = 0;
  for (const character of text) width += charWidth(character.codePointAt(0) ?? 0);
  return width;
}

/** `Created` (unix seconds) as docker shows it: "5 minutes ago". */
export function createdAgo(createdUnixSeconds: number, nowMilliseconds: number): string {
  return `${humanDuration(Math.max(0, nowMilliseconds - createdUnixSeconds * 1000))} ago`;
}

/** go-units' HumanSizeWithPrecision(size, 3): decimal units, three significant digits ("4.86MB", "123kB"). */
export const humanSize = formatBytes;

/** docker's Ellipsis: cut to `max` terminal columns with a trailing ellipsis, never inside a character. */
export function ellipsis(text: string, max: number): string {
  if (displayWidth(text) <= max) return text;
  let kept = '';
  let width = 0;
  for (const character of text) {
    const next = width + charWidth(character.codePointAt(0) ?? 0);
    if (next > max - 1) break;
    kept += character;
    width = next;
  }
  return `${kept}…`;
}

/**
 * Go's strconv.Quote, as docker ps shows COMMAND: `"` and `\` escaped, control characters as `\n`, `\t`, `\x01`,
 * other unprintable ones as `\u…`; printable text (accents, CJK, emoji) as it is.
 */
export function goQuote(text: string): string {
  const named: Record<string, string> = { '\x07': '\\a', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\v': '\\v', '"': '\\"', '\\': '\\\\' };
  let quoted = '';
  for (const character of text) {
    const code = character.codePointAt(0) ?? 0;
    const escape = named[character];
    if (escape !== undefined) quoted += escape;
    else if (code < 0x20 || code === 0x7f) quoted += `\\x${code.toString(16).padStart(2, '0')}`;
    else if (isUnprintable(code)) quoted += `\\u${code.toString(16).padStart(4, '0')}`;
    else quoted += character;
  }
  return `"${quoted}"`;
}

/** C1 controls and the invisible format characters Go's unicode.IsPrint rejects. */
function isUnprintable(code: number): boolean {
  return (code >= 0x80 && code < 0xa0) || code === 0xad || (code >= 0x200b && code <= 0x200f) || (code >= 0x2028 && code <= 0x202e) || code === 0xfeff;
}

/**
 * docker ps's IMAGE: the short id when the container was made from an id, else the familiar name (no
 * `docker.io/library/`) with its tag and without its digest. `--no-trunc` shows what the engine says.
 */
export function familiarImage(image: string, imageId: string, truncate: boolean): string {
  if (image === '') return '<no image>';
  if (!truncate) return image;
  if (shortId(image) === shortId(imageId) && /^(sha256:)?[0-9a-f]{12,}$/.test(image)) return shortId(image);
  const withoutDigest = image.split('@')[0] ?? image;
  return withoutDigest.replace(/^(docker\.io|index\.docker\.io)\/(library\/)?/, '');
}

export function containerTable(containers: readonly ContainerSummary[], nowMilliseconds: number, truncate: boolean): string {
  const rows = containers.map((container) => [
    truncate ? shortId(container.Id) : container.Id,
    familiarImage(container.Image, container.ImageID, truncate),
    goQuote(truncate ? ellipsis(container.Command, 20) : container.Command),
    createdAgo(container.Created, nowMilliseconds),
    container.Status,
    container.Names.map((name) => name.replace(/^\//, '')).join(','),
  ]);
  return renderTable(['CONTAINER ID', 'IMAGE', 'COMMAND', 'CREATED', 'STATUS', 'NAMES'], rows);
}

export function imageTable(images: readonly ImageSummary[], nowMilliseconds: number): string {
  const rows: string[][] = [];
  for (const image of images) {
    const created = createdAgo(image.Created, nowMilliseconds);
    const size = humanSize(image.Size);
    const tags = (image.RepoTags ?? []).filter((tag) => tag !== '<none>:<none>');
    if (tags.length === 0) {
      const digestRepo = (image.RepoDigests ?? []).map((digest) => digest.split('@')[0] ?? '').find((repo) => repo !== '<none>');
      rows.push([digestRepo ?? '<none>', '<none>', shortId(image.Id), created, size]);
      continue;
    }
    for (const repoTag of tags) {
      const { repo, tag } = splitRepoTag(repoTag);
      rows.push([repo, tag ?? '<none>', shortId(image.Id), created, size]);
    }
  }
  return renderTable(['REPOSITORY', 'TAG', 'IMAGE ID', 'CREATED', 'SIZE'], rows);
}

/** go-units' HumanSizeWithPrecision: `%.Ng` of the size in decimal units (docker's df prints 4 digits, its lists 3). */
export function goSize(bytes: number, precision = 4): string {
  const units = ['B', 'kB', 'MB', 'GB', 'TB', 'PB'];
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  const text = value.toPrecision(precision);
  return `${text.includes('.') ? text.replace(/\.?0+$/, '') : text}${units[unit]}`;
}
