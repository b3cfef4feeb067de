// Hostile archives and an engine that serves them: the archive endpoint's wire format as dockerd speaks it
// (`HEAD /containers/{id}/archive?path=` answers 200 with X-Docker-Container-Path-Stat, base64 JSON whose mode has
// Go's os.FileMode bits; `GET` sends the same header and the tar as application/x-tar; a missing path is a 404).
// Also the sentinel trees the archive tests compare before and after a copy. Plain Node plus tar-stream.
import { lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as tar from 'tar-stream';
import { sendError, writeEngineHead, type FakeRoute } from './fakeEngine';

export interface TarEntrySpec {
  readonly name: string;
  readonly type: 'file' | 'directory' | 'symlink' | 'link';
  readonly linkname?: string;
  readonly data?: string;
  readonly mode?: number;
}

/** The tar bytes of these entries, in this order, names exactly as given (tar-stream adds pax headers for long ones). */
export async function tarOf(entries: readonly TarEntrySpec[]): Promise<Buffer> {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  pack.on('data', (chunk: unknown) => chunks.push(chunk as Buffer));
  const done = new Promise<void>((resolve, reject) => {
    pack.on('end', resolve);
    pack.on('error', reject);
  });
  for (const entry of entries) {
    const data = entry.type === 'file' ? Buffer.from(entry.data ?? '', 'utf8') : undefined;
    const mode = entry.mode ?? (entry.type === 'directory' ? 0o755 : entry.type === 'symlink' ? 0o777 : 0o644);
    const header = { name: entry.name, type: entry.type, mode, mtime: new Date(0), ...(entry.linkname === undefined ? {} : { linkname: entry.linkname }) };
    await new Promise<void>((resolve, reject) => {
      if (data === undefined) pack.entry({ ...header, size: 0 }, (error) => (error ? reject(error) : resolve()));
      else pack.entry({ ...header, size: data.length }, data, (error) => (error ? reject(error) : resolve()));
    });
  }
  pack.finalize();
  await done;
  return Buffer.concat(chunks);
}

/** A container path's stat as dockerd encodes it in X-Docker-Container-Path-Stat. */
export function pathStatHeader(name: string, kind: 'directory' | 'file'): string {
  const mode = kind === 'directory' ? 2 ** 31 + 0o755 : 0o644;
  return Buffer.from(JSON.stringify({ name, size: 4096, mode, mtime: '2026-01-01T00:00:00Z', linkTarget: '' }), 'utf8').toString('base64');
}

export interface ServedArchive {
  readonly kind: 'directory' | 'file';
  readonly tar: Buffer;
}

/** The archive endpoint for any container: `serve(path)` gives what is at a path, or undefined for a 404. */
export function archiveRoute(serve: (path: string) => ServedArchive | undefined): FakeRoute {
  return (request, response) => {
    if (!/^\/containers\/[^/]+\/archive$/.test(request.path) || (request.method !== 'GET' && request.method !== 'HEAD')) return false;
    const path = request.query.get('path') ?? '';
    const served = serve(path);
    if (served === undefined) {
      if (request.method === 'HEAD') {
        writeEngineHead(response, 404, 'application/json');
        response.end();
      } else sendError(response, 404, `Could not find the file ${path} in container hostile`);
      return true;
    }
    // dockerd: HEAD carries no Content-Type; GET is application/x-tar, chunked.
    response.setHeader('X-Docker-Container-Path-Stat', pathStatHeader(path.split('/').filter(Boolean).at(-1) ?? '/', served.kind));
    if (request.method === 'HEAD') {
      writeEngineHead(response, 200);
      response.end();
    } else {
      writeEngineHead(response, 200, 'application/x-tar');
      response.end(served.tar);
    }
    return true;
  };
}

/**
 * A temporary tree with sentinels: `outside/victim` and `outside/secret` (files), `outside/dir/inner`, and the
 * destination directory `dest` holding `.bashrc` beside where a copy lands. `OUTSIDE` in a link name stands for the
 * absolute path of `outside`.
 */
export function sentinelTree(base: string): { outside: string; dest: string } {
  const outside = join(base, 'outside');
  const dest = join(base, 'dest');
  mkdirSync(join(outside, 'dir'), { recursive: true });
  mkdirSync(dest);
  writeFileSync(join(outside, 'victim'), 'victim: unchanged\n');
  writeFileSync(join(outside, 'secret'), 'secret: unchanged\n', { mode: 0o600 });
  writeFileSync(join(outside, 'dir', 'inner'), 'inner: unchanged\n');
  writeFileSync(join(dest, '.bashrc'), 'bashrc: unchanged\n');
  return { outside, dest };
}

/**
 * Everything under `base` but the subtree `skip`: each path's kind, mode, inode and link count, a file's bytes, a
 * link's target. Two snapshots are equal only when nothing there was written, replaced, linked or added.
 */
export function snapshotOutside(base: string, skip: string): string[] {
  const lines: string[] = [];
  const walk = (path: string): void => {
    if (path === skip) return;
    const info = lstatSync(path);
    const head = `${path} ${info.mode.toString(8)} ino=${info.ino} nlink=${info.isDirectory() ? '-' : info.nlink}`;
    if (info.isSymbolicLink()) lines.push(`${head} -> ${readlinkSync(path)}`);
    else if (info.isDirectory()) {
      lines.push(`${head}/`);
      for (const child of readdirSync(path).sort()) walk(join(path, child));
    } else lines.push(`${head} ${readFileSync(path).toString('base64')}`);
  };
  walk(base);
  return lines;
}

export interface HostileArchive {
  /** The row of the bad-input table (test/engine/engine/files/bad-input-archive-cases.ts) that says what berth answers. */
  readonly id: string;
  readonly title: string;
  readonly entries: readonly TarEntrySpec[];
  /** The entry that is refused. */
  readonly refused: string;
  /** Placeholders of the row's message other than <destination>. */
  readonly values?: Readonly<Record<string, string>>;
}

/**
 * The security review's three archives of a directory `app` (issue 32): a link then a file of the same name, a link
 * to `..` then a file through it, and a hard link through a symlinked directory followed by a write to it.
 */
export function reviewArchives(outside: string): readonly HostileArchive[] {
  return [
    {
      id: 'archive-link-then-file',
      title: 'app/x as a link to an outside file, then app/x as a file',
      entries: [
        { name: 'app/', type: 'directory' },
        { name: 'app/x', type: 'symlink', linkname: join(outside, 'victim') },
        { name: 'app/x', type: 'file', data: 'pwned\n' },
      ],
      refused: 'app/x',
    },
    {
      id: 'archive-through-link',
      title: 'app/up -> .., then app/up/.bashrc',
      entries: [
        { name: 'app/', type: 'directory' },
        { name: 'app/up', type: 'symlink', linkname: '..' },
        { name: 'app/up/.bashrc', type: 'file', data: 'pwned\n' },
      ],
      refused: 'app/up/.bashrc',
    },
    {
      id: 'archive-hard-link-outside',
      title: 'a hard link through a symlinked directory, then a write to it',
      entries: [
        { name: 'app/', type: 'directory' },
        { name: 'app/d', type: 'symlink', linkname: outside },
        { name: 'app/h', type: 'link', linkname: 'app/d/victim' },
        { name: 'app/h', type: 'file', data: 'pwned\n' },
      ],
      refused: 'app/h',
    },
  ];
}

const LONG_NAME = 'y'.repeat(300);

/** Archives whose third entry is refused by its name or kind alone: `..`, an absolute name, a name too long, a directory replaced by a file. */
export function nameArchives(): readonly HostileArchive[] {
  const start: TarEntrySpec[] = [
    { name: 'app/', type: 'directory' },
    { name: 'app/sub/', type: 'directory' },
  ];
  return [
    { id: 'archive-parent-name', title: 'app/../escape', entries: [...start, { name: 'app/../escape', type: 'file', data: 'pwned\n' }], refused: 'app/../escape' },
    { id: 'archive-absolute-name', title: '/etc/evil', entries: [...start, { name: '/etc/evil', type: 'file', data: 'pwned\n' }], refused: '/etc/evil' },
    { id: 'archive-name-too-long', title: 'a name of 300 characters', entries: [...start, { name: `app/${LONG_NAME}`, type: 'file', data: 'long\n' }], refused: `app/${LONG_NAME}`, values: { name: LONG_NAME } },
    { id: 'archive-directory-replaced', title: 'app/sub/ then app/sub as a file', entries: [...start, { name: 'app/sub', type: 'file', data: 'pwned\n' }], refused: 'app/sub' },
  ];
}
