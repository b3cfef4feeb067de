// A test image with Node.js and nothing pulled: the host's own `node`, the libraries `ldd` names for it, and
// busybox-static (a shell, `nc` for the forward relay, `kill`, `sleep`) in a root file system made here and
// imported through the engine API. It is cached per engine by a label holding the hash of its files (hostRootfs.ts),
// so later runs (and other suites) reuse it; a new host `node` makes a new image.
import { existsSync, realpathSync } from 'node:fs';
import type { EngineClient } from '../../src/engine';
import { ensureHostImage, hostFile, librariesOf } from './hostRootfs';

export const NODE_IMAGE_REPO = 'berth-test-node';
const HASH_LABEL = 'berth.test.node-image-hash';
const BUSYBOX_APPLETS = ['sh', 'nc', 'kill', 'sleep', 'cat', 'ls', 'ps', 'echo', 'mkdir', 'touch'];
/** The system's node, the same in every stage (an extension host runs on code-server's own node). */
const NODE_BINARY = existsSync('/usr/bin/node') ? '/usr/bin/node' : process.execPath;

/**
 * The Node.js test image on CLIENT's engine: the cached one when an image carries this content's hash, else made
 * and imported now. Resolves its reference (`berth-test-node:HASH`, as the engine names it).
 */
export async function ensureNodeImage(client: EngineClient): Promise<string> {
  const node = realpathSync(NODE_BINARY);
  return ensureHostImage(client, {
    repo: NODE_IMAGE_REPO,
    hashLabel: HASH_LABEL,
    entries: [hostFile(node, '/usr/bin/node'), ...librariesOf([node]).map((library) => hostFile(library))],
    applets: BUSYBOX_APPLETS,
    changes: ['ENV PATH=/usr/bin:/bin', 'WORKDIR /app', 'CMD ["node"]'],
  });
}
