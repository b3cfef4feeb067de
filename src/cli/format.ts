/** Text formatting for the CLI's tables, shaped like the docker CLI's output. Pure functions of their inputs. */
import type { ContainerSummary, ImageSummary } from '../engine/types';

/**
 * Left-aligned columns as docker's tabwriter prints them (minimum width 10, padding 3): each column but the last is
 * as wide as its widest cell plus three spaces, and at least 10. Widths count terminal columns, so CJK text (two
 * columns a character) lines up.
 */
export function renderTable(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = headers.map((header, column) =>
    Math.max(MIN_COLUMN_WIDTH, PADDING + Math.max(displayWidth(header), ...rows.map((row) => displayWidth(row[column] ?? '')))),
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

/** Terminal columns a character takes: 2 for East Asian wide and fullwidth ones, 0 for combining marks. */
export function charWidth(codePoint: number): number {
  if (codePoint < 0x20 || (codePoint >= 0x7f && codePoint < 0xa0)) return 0;
  if ((codePoint >= 0x300 && codePoint <= 0x36f) || (codePoint >= 0x200b && codePoint <= 0x200f) || codePoint === 0xfeff) return 0;
  const wide =
    (codePoint >= 0x1100 && codePoint <= 0x115f) ||
    (codePoint >= 0x2e80 && codePoint <= 0x303e) ||
    (codePoint >= 0x3041 && codePoint <= 0x33ff) ||
    (codePoint >= 0x3400 && codePoint <= 0x4dbf) ||
    (codePoint >= 0x4e00 && codePoint <= 0x9fff) ||
    (codePoint >= 0xa000 && codePoint <= 0xa4cf) ||
    (codePoint >= 0xac00 && codePoint <= 0xd7a3) ||
    (codePoint >= 0xf900 && codePoint <= 0xfaff) ||
    (codePoint >= 0xfe30 && codePoint <= 0xfe4f) ||
    (codePoint >= 0xff00 && codePoint <= 0xff60) ||
    (codePoint >= 0xffe0 && codePoint <= 0xffe6) ||
    (codePoint >= 0x1f300 && codePoint <= 0x1f64f) ||
    (codePoint >= 0x1f900 && codePoint <= 0x1f9ff) ||
    (codePoint >= 0x20000 && codePoint <= 0x3fffd);
  return wide ? 2 : 1;
}

export function displayWidth(text: string): number {
  let width = 0;
  for (const character of text) width += charWidth(character.codePointAt(0) ?? 0);
  return width;
}

/** go-units' HumanDuration: "Less than a second", "About a minute", "3 hours", "2 weeks". */
export function humanDuration(milliseconds: number): string {
  const seconds = Math.floor(milliseconds / 1000);
  const minutes = Math.floor(milliseconds / 60_000);
  const hours = Math.round(milliseconds / 3_600_000);
  if (seconds < 1) return 'Less than a second';
  if (seconds === 1) return '1 second';
  if (seconds < 60) return `${seconds} seconds`;
  if (minutes === 1) return 'About a minute';
  if (minutes < 60) return `${minutes} minutes`;
  if (hours === 1) return 'About an hour';
  if (hours < 48) return `${hours} hours`;
  if (hours < 24 * 7 * 2) return `${Math.floor(hours / 24)} days`;
  if (hours < 24 * 30 * 2) return `${Math.floor(hours / 24 / 7)} weeks`;
  if (hours < 24 * 365 * 2) return `${Math.floor(hours / 24 / 30)} months`;
  return `${Math.floor(milliseconds / 3_600_000 / 24 / 365)} years`;
}

/** `Created` (unix seconds) as docker shows it: "5 minutes ago". */
export function createdAgo(createdUnixSeconds: number, nowMilliseconds: number): string {
  return `${humanDuration(Math.max(0, nowMilliseconds - createdUnixSeconds * 1000))} ago`;
}

/** go-units' HumanSizeWithPrecision(size, 3): decimal units, three significant digits ("4.86MB", "123kB"). */
export function humanSize(bytes: number): string {
  const units = ['B', 'kB', 'MB', 'GB', 'TB', 'PB', 'EB'];
  let size = bytes;
  let unit = 0;
  while (size >= 1000 && unit < units.length - 1) {
    size /= 1000;
    unit++;
  }
  return `${Number(size.toPrecision(3))}${units[unit]}`;
}

/** A 64-hex id (optionally `sha256:`-prefixed) shortened to the 12 characters docker shows. */
export function shortId(id: string): string {
  return id.replace(/^sha256:/, '').slice(0, 12);
}

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
      const colon = repoTag.lastIndexOf(':');
      const hasTag = colon > repoTag.lastIndexOf('/');
      rows.push([hasTag ? repoTag.slice(0, colon) : repoTag, hasTag ? repoTag.slice(colon + 1) : '<none>', shortId(image.Id), created, size]);
    }
  }
  return renderTable(['REPOSITORY', 'TAG', 'IMAGE ID', 'CREATED', 'SIZE'], rows);
}
