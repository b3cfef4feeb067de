// An image made FROM scratch for the file-system tests: busybox under another path (/tool/busybox, not on PATH),
// a few files, and no /bin/sh, no find, no rm. Imported from a tar made here, so nothing is pulled.
import type { EngineClient } from '../../src/engine';
import { readContainerFile, tarOf } from '../../src/engine/containerFiles';

/** The command that keeps a container of the image running. */
export const SCRATCH_SLEEP = ['/tool/busybox', 'sleep', '600'];

/** Imports `repo:latest`, its busybox copied out of `source` (a container of the test image) through the archive API. */
export async function importScratchImage(client: EngineClient, source: string, repo: string): Promise<string> {
  const busybox = await readContainerFile(client, source, '/bin/busybox');
  const layer = await tarOf([
    { header: { name: 'tool', type: 'directory', mode: 0o755 } },
    { header: { name: 'tool/busybox', type: 'file', mode: 0o755 }, data: busybox },
    { header: { name: 'app', type: 'directory', mode: 0o755 } },
    { header: { name: 'app/config.txt', type: 'file', mode: 0o644 }, data: Buffer.from('setting=1\n') },
    { header: { name: 'tmp', type: 'directory', mode: 0o1777 } },
  ]);
  await client.importImage(layer, { repo, tag: 'latest' });
  return `${repo}:latest`;
}
