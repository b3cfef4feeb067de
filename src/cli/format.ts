/** Text formatting for the CLI's tables, shaped like the docker CLI's output. Pure functions of their inputs. */
import { formatBytes, humanDuration, shortId } from '../common/format';
import { splitRepoTag } from '../common/imageName';
import type { ContainerSummary, ImageSummary } from '../engine/types';

export { humanDuration, shortId };

/** Left-aligned columns separated by three spaces, as docker's tabwriter prints them. */
export function renderTable(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = headers.map((header, column) => Math.max(header.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column] ?? 0)))
      .join('   ')
      .trimEnd();
  return [line(headers), ...rows.map(line)].map((text) => `${text}\n`).join('');
}

/** `Created` (unix seconds) as docker shows it: "5 minutes ago". */
export function createdAgo(createdUnixSeconds: number, nowMilliseconds: number): string {
  return `${humanDuration(Math.max(0, nowMilliseconds - createdUnixSeconds * 1000))} ago`;
}

/** go-units' HumanSizeWithPrecision(size, 3): decimal units, three significant digits ("4.86MB", "123kB"). */
export const humanSize = formatBytes;

/** Cut to `max` characters with a trailing ellipsis, counting code points so non-ASCII is never split. */
export function ellipsis(text: string, max: number): string {
  const characters = [...text];
  return characters.length <= max ? text : `${characters.slice(0, max - 1).join('')}…`;
}

export function containerTable(containers: readonly ContainerSummary[], nowMilliseconds: number, truncate: boolean): string {
  const rows = containers.map((container) => [
    truncate ? shortId(container.Id) : container.Id,
    container.Image.startsWith('sha256:') && truncate ? shortId(container.Image) : container.Image,
    JSON.stringify(truncate ? ellipsis(container.Command, 20) : container.Command),
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
