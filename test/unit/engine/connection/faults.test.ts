// Faults a real engine cannot produce on demand, from an in-process server on a Unix socket that speaks the Engine
// API's wire format: a type-3 frame ending a log stream, a connection dropped mid-stream, a stream that stops
// mid-frame, an in-band pull failure, a ping without Api-Version. Also the query-string rules.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { EngineClient, EngineError, buildQuery, compareVersions, parseHost, type OutputChunk } from '../../../../src/engine';
import { logFrame } from '../../../support/frames';

const dir = mkdtempSync(join(tmpdir(), 'berth-faults-'));
const socketPath = join(dir, 'fake-engine.sock');
const seenPaths: string[] = [];
let server: Server;

const routes: Record<string, (request: IncomingMessage, response: ServerResponse) => void> = {
  '/_ping': (_request, response) => {
    response.writeHead(200, { 'Api-Version': '1.41', Ostype: 'linux', 'Content-Type': 'text/plain' });
    response.end('OK');
  },
  '/v1.41/containers/type3/logs': (_request, response) => {
    response.writeHead(200, { 'Content-Type': 'application/vnd.docker.multiplexed-stream' });
    response.write(logFrame(1, 'partial output\n'));
    response.end(logFrame(3, 'error from daemon in stream: Error grabbing logs: log file is corrupted'));
  },
  '/v1.41/containers/dropped/logs': (_request, response) => {
    response.writeHead(200, { 'Content-Type': 'application/vnd.docker.multiplexed-stream' });
    response.write(logFrame(2, 'before the crash\n'));
    setTimeout(() => response.socket?.destroy(), 50);
  },
  '/v1.41/containers/cut/logs': (_request, response) => {
    response.writeHead(200, { 'Content-Type': 'application/vnd.docker.multiplexed-stream' });
    response.end(logFrame(1, 'this frame is cut short').subarray(0, 15));
  },
  '/v1.41/images/create': (_request, response) => {
    response.writeHead(200, { 'Content-Type': 'application/json' });
    response.write('{"status":"Pulling from team/app","id":"1.0"}\r\n{"status":"Downloading","progressDetail":{"current":1,"total":2},"id":"abc"}\r\n');
    response.end('{"errorDetail":{"message":"failed to register layer: no space left on device"},"error":"failed to register layer: no space left on device"}\r\n');
  },
};

before(async () => {
  server = createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0] ?? '';
    seenPaths.push(request.url ?? '');
    const route = routes[path];
    if (route) {
      route(request, response);
      return;
    }
    response.writeHead(404, { 'Content-Type': 'application/json', 'Api-Version': '1.41' });
    response.end(JSON.stringify({ message: `page not found: ${path}` }));
  });
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
});

after(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

function fakeClient(): EngineClient {
  return new EngineClient({ endpoint: parseHost(`unix://${socketPath}`, {}) });
}

async function consume(stream: AsyncIterable<OutputChunk>): Promise<{ text: string; error: unknown }> {
  let text = '';
  try {
    for await (const chunk of stream) text += chunk.data.toString();
    return { text, error: undefined };
  } catch (error) {
    return { text, error };
  }
}

void describe('in-band and connection faults', () => {
  void it('a type-3 frame ends the log stream with the daemon’s message', async () => {
    const client = fakeClient();
    const { text, error } = await consume(client.containers.logs('type3', { tty: false }));
    assert.equal(text, 'partial output\n');
    assert.ok(error instanceof EngineError);
    assert.equal(error.kind, 'server');
    assert.equal(
      error.message,
      'error from daemon in stream: Error grabbing logs: log file is corrupted. The engine ended the output stream with this error',
    );
    await client.close();
  });

  void it('a connection dropped mid-stream is unreachable, naming the endpoint', async () => {
    const client = fakeClient();
    const { text, error } = await consume(client.containers.logs('dropped', { tty: false, follow: true }));
    assert.equal(text, 'before the crash\n');
    assert.ok(error instanceof EngineError);
    assert.equal(error.kind, 'unreachable');
    assert.equal(error.message, `Cannot reach the engine at unix://${socketPath}: the engine closed the connection. Check that the engine is healthy and try again`);
    await client.close();
  });

  void it('a stream that ends in the middle of a frame is a protocol error', async () => {
    const client = fakeClient();
    const { error } = await consume(client.containers.logs('cut', { tty: false }));
    assert.ok(error instanceof EngineError);
    assert.equal(error.kind, 'protocol');
    assert.equal(error.message, 'The engine closed the output stream in the middle of a frame. The connection to the engine broke; try again');
    await client.close();
  });

  void it('a pull failing inside its 200 stream throws after the progress before it', async () => {
    const client = fakeClient();
    const statuses: string[] = [];
    try {
      for await (const progress of client.images.pull('registry.example.com/team/app:1.0')) statuses.push(progress.status ?? '');
      assert.fail('the pull should fail');
    } catch (error) {
      assert.ok(error instanceof EngineError);
      assert.equal(error.kind, 'server');
      assert.equal(error.status, undefined);
      assert.equal(error.message, 'failed to register layer: no space left on device');
    }
    assert.deepEqual(statuses, ['Pulling from team/app', 'Downloading']);
    assert.ok(seenPaths.includes('/v1.41/images/create?fromImage=registry.example.com%2Fteam%2Fapp&tag=1.0'));
    await client.close();
  });

  void it('negotiation sends a HEAD ping, then prefixes every path with the version', async () => {
    seenPaths.length = 0;
    const client = fakeClient();
    await assert.rejects(client.containers.inspect('nothing-here'), /page not found: \/v1\.41\/containers\/nothing-here\/json/);
    assert.deepEqual(seenPaths, ['/_ping', '/v1.41/containers/nothing-here/json']);
    await client.close();
  });
});

void describe('query strings', () => {
  void it('writes booleans as 1/0, filters as JSON, arrays as repeated keys, and leaves out undefined', () => {
    assert.equal(buildQuery({ all: true, size: false, limit: 5, name: undefined }), '?all=1&size=0&limit=5');
    assert.equal(buildQuery({ filters: { label: ['a=b'], status: ['running'] } }), `?filters=${encodeURIComponent('{"label":["a=b"],"status":["running"]}')}`);
    assert.equal(buildQuery({ changes: ['CMD ["sh"]', 'ENV A=1'] }), `?changes=${encodeURIComponent('CMD ["sh"]')}&changes=${encodeURIComponent('ENV A=1')}`);
    assert.equal(buildQuery({ comment: 'a&b=c ü' }), '?comment=a%26b%3Dc%20%C3%BC');
    assert.equal(buildQuery({}), '');
  });

  void it('compares API versions numerically', () => {
    assert.ok(compareVersions('1.9', '1.41') < 0);
    assert.ok(compareVersions('1.51', '1.44') > 0);
    assert.equal(compareVersions('1.41', '1.41'), 0);
  });
});
