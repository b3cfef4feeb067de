import { createServer } from 'node:net';

/** Asks the kernel for a free loopback port by binding port 0, then releases it for the caller to use. */
export async function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      if (address === null || typeof address === 'string') {
        server.close();
        reject(new Error('could not read the bound port'));
        return;
      }
      server.close(() => resolve(address.port));
    });
  });
}

/**
 * A websocket URL the browser may not open: ws(s) to any host but a loopback one (what `isLoopbackUrl` allows); one
 * with user info is refused whatever its host (no workbench socket has one). A RegExp, not a function, because
 * Playwright matches a RegExp or a glob itself: with a function it routes every websocket, the workbench's own too,
 * through its driver and back (each frame base64 both ways).
 */
export const NON_LOOPBACK_WEBSOCKET = /^wss?:\/\/(?:[^/?#]*@|(?!(?:localhost|127\.\d+\.\d+\.\d+|\[::1\])(?::\d+)?(?:[/?#]|$)))/i;

/** True for the URLs the browser may reach: loopback HTTP(S)/WS plus in-page schemes that never hit the network. */
export function isLoopbackUrl(raw: string): boolean {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  if (url.protocol === 'data:' || url.protocol === 'blob:' || url.protocol === 'about:') return true;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}
