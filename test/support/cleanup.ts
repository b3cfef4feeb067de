// Removes what engine tests left behind, over plain node:http so cleanup still works when the client under
// test is broken. Only containers carrying the test label are touched.
import { request } from 'node:http';

import { cleanupFilters, unixSocketPath } from './engines';

// 1.41 is the lowest version every test engine speaks (Debian's dockerd 20.10, Podman 4.3).
const apiPrefix = '/v1.41';

interface RawResponse {
  readonly status: number;
  readonly body: string;
}

function rawRequest(host: string, method: string, path: string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request({ socketPath: unixSocketPath(host), method, path: apiPrefix + path, timeout: 30_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`${method} ${path} on ${host} timed out`)));
    req.on('error', reject);
    req.end();
  });
}

/** Force-removes every container labelled `berth.test=1` on HOST; returns how many were removed. */
export async function removeTestContainers(host: string): Promise<number> {
  const filters = encodeURIComponent(JSON.stringify(cleanupFilters));
  const listed = await rawRequest(host, 'GET', `/containers/json?all=1&filters=${filters}`);
  if (listed.status !== 200) throw new Error(`listing test containers on ${host}: ${listed.status} ${listed.body}`);
  const ids = (JSON.parse(listed.body) as Array<{ Id: string }>).map((container) => container.Id);
  for (const id of ids) {
    const removed = await rawRequest(host, 'DELETE', `/containers/${id}?force=1&v=1`);
    // 404: already gone (e.g. an AutoRemove container that exited meanwhile).
    if (removed.status !== 204 && removed.status !== 404) {
      throw new Error(`removing test container ${id} on ${host}: ${removed.status} ${removed.body}`);
    }
  }
  return ids.length;
}

/** Whether the engine at HOST answers `GET /_ping` with 200 (false when nothing listens there). */
export async function pingEngine(host: string): Promise<boolean> {
  try {
    return (await rawRequest(host, 'GET', '/_ping')).status === 200;
  } catch {
    return false;
  }
}
