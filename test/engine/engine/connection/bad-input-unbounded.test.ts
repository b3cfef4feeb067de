// Unbounded input (issue 17, item 4): a registry that pages for ever, sends empty pages with fresh links, an endless
// body or nothing at all; an engine that sends a JSON line without end, a buffered answer without end, or an error
// frame of many MiB. Each must fail with its bad-input row's message, without a hang. Real engines and registries
// do not misbehave on demand, so the servers are in-process fakes speaking the exact wire formats: the Registry API
// v2 (`Link: <…>; rel="next"` paging, `{"repositories":[…]}` pages) and the Engine API (test/support/fakeEngine.ts).
import assert from 'node:assert/strict';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { EngineError } from '../../../../src/engine';
import { MAX_PAGES, RegistryClient, RegistryError } from '../../../../src/engine/registry';
import { stallAfterHeaders, writeEngineHead } from '../../../support/fakeEngine';
import { logFrame } from '../../../support/frames';
import { useFakeEngine } from '../../../support/fakeEngineSuite';
import { expectedMessage } from '../bad-input-cases';
import { nextTurn } from '../../../support/wait';

/** Writes `piece` until the client hangs up: a body without end, with backpressure respected. */
function writeForever(response: ServerResponse, piece: Buffer): void {
  const more = (): void => {
    while (!response.destroyed && response.write(piece));
    if (!response.destroyed) response.once('drain', more);
  };
  response.once('close', () => response.removeAllListeners('drain'));
  more();
}

interface FakeRegistry {
  readonly address: string;
  readonly requests: string[];
  close(): Promise<void>;
}

/** A Registry API v2 server on loopback: `/v2/` answers 200, `/v2/_catalog` is whatever `catalog` does. */
async function startFakeRegistry(catalog: (page: number, response: ServerResponse) => void): Promise<FakeRegistry> {
  const requests: string[] = [];
  const server: Server = createServer((request, response) => {
    requests.push(request.url ?? '');
    const headers = { 'Content-Type': 'application/json; charset=utf-8', 'Docker-Distribution-Api-Version': 'registry/2.0' };
    if (request.url === '/v2/') return void response.writeHead(200, headers).end('{}');
    if (request.url?.startsWith('/v2/_catalog')) return catalog(requests.length, response);
    response.writeHead(404, headers).end(JSON.stringify({ errors: [{ code: 'NAME_UNKNOWN', message: 'repository name not known to registry' }] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    address: `127.0.0.1:${port}`,
    requests,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** A catalog page as distribution sends it, with a fresh `Link` to the next page every time. */
function sendPage(response: ServerResponse, page: number, repositories: readonly string[]): void {
  response.writeHead(200, {
    'Content-Type': 'application/json; charset=utf-8',
    'Docker-Distribution-Api-Version': 'registry/2.0',
    Link: `</v2/_catalog?last=page${page}&n=100>; rel="next"`,
  });
  response.end(JSON.stringify({ repositories }));
}

async function registryFailure(registry: FakeRegistry, options: Parameters<RegistryClient['catalog']>[0] = {}): Promise<RegistryError> {
  const client = new RegistryClient({ address: registry.address });
  try {
    const outcome = await client.catalog({ pageSize: 100, ...options }).then(
      (repositories) => new Error(`the listing ended with ${repositories.length} repositories`),
      (error: unknown) => error,
    );
    assert.ok(outcome instanceof RegistryError, String(outcome));
    return outcome;
  } finally {
    await client.close();
  }
}

void describe('registry paging that never ends', () => {
  void it('an empty page ends the listing, whatever fresh link it carries (registry-empty-pages)', async () => {
    const registry = await startFakeRegistry((page, response) => sendPage(response, page, page === 1 ? ['team/app'] : []));
    const client = new RegistryClient({ address: registry.address });
    try {
      assert.deepEqual(await client.catalog({ pageSize: 100 }), ['team/app']);
      assert.equal(registry.requests.length, 2, registry.requests.join('\n'));
    } finally {
      await client.close();
      await registry.close();
    }
  });

  void it(`stops after ${MAX_PAGES} pages of fresh links with the registry-endless-pages message`, async () => {
    const registry = await startFakeRegistry((page, response) => sendPage(response, page, [`team/app${page}`]));
    try {
      const error = await registryFailure(registry);
      assert.equal(error.kind, 'protocol');
      assert.equal(error.message, expectedMessage('registry-endless-pages', { registry: registry.address, max: String(MAX_PAGES) }));
      assert.equal(registry.requests.length, MAX_PAGES);
    } finally {
      await registry.close();
    }
  });

  void it('refuses a body without end with the registry-endless-body message', async () => {
    const registry = await startFakeRegistry((_page, response) => {
      response.writeHead(200, { 'Content-Type': 'application/json', 'Docker-Distribution-Api-Version': 'registry/2.0' });
      response.write('{"repositories":["');
      writeForever(response, Buffer.alloc(64 * 1024, 'a'));
    });
    try {
      const error = await registryFailure(registry);
      assert.equal(error.kind, 'protocol');
      assert.equal(error.message, expectedMessage('registry-endless-body', { registry: registry.address }));
    } finally {
      await registry.close();
    }
  });

  void it('gives up on a registry that never answers once the listing time is up, and on the caller’s abort', async () => {
    const stalls: ServerResponse[] = [];
    const registry = await startFakeRegistry((_page, response) => {
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.flushHeaders();
      stalls.push(response);
    });
    try {
      const timedOut = await registryFailure(registry, { timeoutMs: 1000 });
      assert.equal(timedOut.kind, 'unreachable');
      assert.equal(timedOut.message, expectedMessage('registry-stalled', { registry: registry.address, seconds: '1' }));
      const controller = new AbortController();
      const client = new RegistryClient({ address: registry.address });
      const listing = client.catalog({ signal: controller.signal });
      const stalledBefore = stalls.length;
      while (stalls.length === stalledBefore) await nextTurn();
      controller.abort();
      await assert.rejects(listing, (error: unknown) => error instanceof RegistryError && error.kind === 'cancelled');
      await client.close();
    } finally {
      await registry.close();
    }
  });
});

void describe('an engine that sends without end', () => {
  const CONTAINER = 'beef'.padEnd(64, '0');
  const suite = useFakeEngine([
    (request, response) => {
      if (request.path === '/events') {
        writeEngineHead(response, 200, 'application/json');
        response.write('{"status":"start","id":"');
        writeForever(response, Buffer.alloc(256 * 1024, 'f'));
        return true;
      }
      if (request.path === '/containers/json') {
        writeEngineHead(response, 200, 'application/json');
        response.write('[{"Id":"');
        writeForever(response, Buffer.alloc(1024 * 1024, '0'));
        return true;
      }
      if (request.path === `/containers/${CONTAINER}/logs`) {
        // A type-3 (daemon error) frame header announcing 2 GiB, then the first bytes of it, then nothing.
        const header = logFrame(3, '').subarray(0, 8);
        header.writeUInt32BE(2 ** 31, 4);
        stallAfterHeaders(response, 200, 'application/vnd.docker.raw-stream', Buffer.concat([logFrame(1, 'ok\n'), header, Buffer.from('error: ')]));
        return true;
      }
      return false;
    },
  ]);

  const refusal = (id: string) => (error: unknown) => {
    assert.ok(error instanceof EngineError, String(error));
    assert.equal(error.kind, 'protocol');
    assert.equal(error.message, expectedMessage(id));
    return true;
  };

  void it('refuses an event line without end with the engine-endless-json-line message', async () => {
    const reading = (async () => {
      for await (const event of suite.client.system.events()) void event;
    })();
    await assert.rejects(reading, refusal('engine-endless-json-line'));
  });

  void it('refuses a buffered answer without end with the engine-endless-body message', async () => {
    await assert.rejects(suite.client.containers.list({ all: true }), refusal('engine-endless-body'));
    assert.ok(suite.fake.seen.includes('GET /containers/json'));
  });

  void it('refuses an error frame over 1 MiB at its header with the engine-huge-error-frame message', async () => {
    // The fake sends 7 bytes of the 2 GiB and stalls: only a refusal at the header ends this read.
    const reading = (async () => {
      for await (const chunk of suite.client.containers.logs(CONTAINER, { tty: false, follow: true })) void chunk;
    })();
    await assert.rejects(reading, refusal('engine-huge-error-frame'));
  });
});
