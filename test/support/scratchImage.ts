// An image made FROM scratch for the file-system tests: busybox under another path (/tool/busybox, not on PATH),
// a few files, and no /bin/sh, no find, no rm. Imported from a tar made here, so nothing is pulled.
import type { EngineClient } from '../../src/engine';
import { readContainerFile, tarOf } from '../../src/engine/files';

/** The command that keeps a container of the image running. */
export const SCRATCH_SLEEP = ['/tool/busybox', 'sleep', '600'];

/**
 * The image's files are dated long ago, as a real image's are. dockerd's diff of equal-sized files compares their
 * mtimes in whole seconds (tar keeps no more), so a file rewritten within the second of the import read as unchanged.
 */
const IMAGE_MTIME = new Date('2020-01-01T00:00:00Z');

/** Imports `repo:latest`, its busybox copied out of `source` (a container of the test image) through the archive API. */
export async function importScratchImage(client: EngineClient, source: string, repo: string): Promise<string> {
  const busybox = await readContainerFile(client, source, '/bin/busybox');
  const layer = await tarOf([
    { header: { name: 'tool', mtime: IMAGE_MTIME, type: 'directory', mode: 0o755 } },
    { header: { name: 'tool/busybox', mtime: IMAGE_MTIME, type: 'file', mode: 0o755 }, data: busybox },
    { header: { name: 'app', mtime: IMAGE_MTIME, type: 'directory', mode: 0o755 } },
    { header: { name: 'app/config.txt', mtime: IMAGE_MTIME, type: 'file', mode: 0o644 }, data: Buffer.from('setting=1\n') },
    { header: { name: 'tmp', mtime: IMAGE_MTIME, type: 'directory', mode: 0o1777 } },
  ]);
  await client.images.import(layer, { repo, tag: 'latest' });
  return `${repo}:latest`;
}
