// Debugging Python in a container (issue 37), on the real private dockerd and Podman with the Python test image
// (Debian's python3 and python3-debugpy): a container runs `python3 -m debugpy --listen 0.0.0.0:5678
// --wait-for-client`, Berth finds that process in `top` with its port, waits until the port listens, and the debugpy
// server answers a Debug Adapter Protocol `initialize` request THROUGH a port forward (Content-Length framed JSON,
// as VS Code's Python debugger speaks it). The refusals: a container that is not running, one without debugpy.
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { describe, it } from 'node:test';
import { findDebugpyServers, forwardPorts, waitForListening, type DebugpyProcess } from '../../../../src/engine';
import { engineTargets, loadTestEngines } from '../../../support/engines';
import { useEngineSuite } from '../../../support/engineSuite';
import { ensurePythonImage } from '../../../support/pythonImage';
import { eventually } from '../../cli/support';
import { assertCase } from '../bad-input-support';

const engines = loadTestEngines();
const APP = 'import time\nwhile True:\n    time.sleep(1)\n';
/** A DAP message's header ends with an empty line; a body this small fits in one. */
const HEADER_END = '\r\n\r\n';
const MAX_MESSAGE = 1024 * 1024;

interface DapResponse {
  type: string;
  request_seq?: number;
  success?: boolean;
  command?: string;
  body?: Record<string, unknown>;
}

/** Reads Content-Length framed messages from SOCKET until one is the response to request SEQ. */
function responseTo(socket: Socket, seq: number): Promise<DapResponse> {
  return new Promise((resolve, reject) => {
    let buffered = Buffer.alloc(0);
    const fail = (error: Error): void => {
      socket.off('data', onData);
      reject(error);
    };
    const onData = (chunk: Buffer): void => {
      buffered = Buffer.concat([buffered, chunk]);
      if (buffered.length > MAX_MESSAGE) return fail(new Error('the debug adapter sent more than 1 MiB without the response'));
      for (;;) {
        const headerEnd = buffered.indexOf(HEADER_END);
        if (headerEnd < 0) return;
        const length = /Content-Length:\s*(\d+)/i.exec(buffered.subarray(0, headerEnd).toString('ascii'))?.[1];
        if (length === undefined) return fail(new Error(`a DAP header without Content-Length: ${buffered.subarray(0, headerEnd).toString('latin1')}`));
        const start = headerEnd + HEADER_END.length;
        if (buffered.length < start + Number(length)) return;
        const message = JSON.parse(buffered.subarray(start, start + Number(length)).toString('utf8')) as DapResponse;
        buffered = buffered.subarray(start + Number(length));
        if (message.type === 'response' && message.request_seq === seq) {
          socket.off('data', onData);
          resolve(message);
          return;
        }
      }
    };
    socket.on('data', onData);
    socket.once('error', fail);
    socket.once('close', () => fail(new Error('the debug adapter closed the connection before it answered')));
  });
}

/** Sends DAP `initialize` to 127.0.0.1:PORT and resolves the response. */
async function initialize(port: number): Promise<DapResponse> {
  const socket = await new Promise<Socket>((resolve, reject) => {
    const each = connect({ host: '127.0.0.1', port }, () => resolve(each));
    each.once('error', reject);
  });
  try {
    const request = JSON.stringify({ seq: 1, type: 'request', command: 'initialize', arguments: { clientID: 'berth-test', adapterID: 'debugpy', pathFormat: 'path', linesStartAt1: true, columnsStartAt1: true } });
    const answer = responseTo(socket, 1);
    socket.write(`Content-Length: ${Buffer.byteLength(request)}${HEADER_END}${request}`);
    return await answer;
  } finally {
    socket.destroy();
  }
}

for (const target of engineTargets(engines)) {
  void describe(`debugpy server on ${target.name}`, { skip: target.skip }, () => {
    const suite = useEngineSuite({ host: target.host, name: `debugpy-${target.name}`, skip: target.skip });
    let image = '';
    const pythonImage = async (): Promise<string> => (image ||= await ensurePythonImage(suite.client));

    void it('finds python3 -m debugpy --listen in top, and the server answers DAP initialize through a forward', async () => {
      const Image = await pythonImage();
      const id = await suite.createContainer(['sh', '-c', `python3 -c 'import time; time.sleep(600)' & exec python3 -m debugpy --listen 0.0.0.0:5679 --wait-for-client -c '${APP}'`], { Image });
      await suite.client.containers.start(id);
      let found: DebugpyProcess[] = [];
      await eventually('the debugpy process in top', async () => {
        found = await findDebugpyServers(suite.client, id).catch(() => []);
        return found.length === 1;
      });
      assert.deepEqual(found.map((each) => [each.port, each.command.startsWith('python3 -m debugpy --listen 0.0.0.0:5679 --wait-for-client -c')]), [[5679, true]]);
      await waitForListening(suite.client, id, 5679);
      const session = await forwardPorts(suite.client, id, [{ localPort: 0, containerPort: 5679 }]);
      try {
        const forward = session.forwards[0];
        assert.ok(forward);
        const response = await initialize(forward.localPort);
        assert.deepEqual([response.command, response.success], ['initialize', true]);
        assert.equal(typeof response.body?.supportsConfigurationDoneRequest, 'boolean', `debugpy's capabilities: ${JSON.stringify(response.body)}`);
      } finally {
        await session.close();
      }
    });

    void it('refuses a container that is not running, and one where no python listens with debugpy', async () => {
      const Image = await pythonImage();
      const stopped = await suite.createContainer(['python3', '-c', 'import time; time.sleep(600)'], { Image });
      const name = (await suite.client.containers.inspect(stopped)).Name.replace(/^\//, '');
      await assertCase('debug-not-running', () => findDebugpyServers(suite.client, stopped), { name });
      await suite.client.containers.start(stopped);
      await assertCase('debug-no-debugpy', () => findDebugpyServers(suite.client, stopped), { name });
    });

    void it('says when the container stops before its debugpy server listens', async () => {
      const Image = await pythonImage();
      const id = await suite.createContainer(['python3', '-c', 'raise SystemExit(3)'], { Image });
      await suite.client.containers.start(id);
      await assert.rejects(waitForListening(suite.client, id, 5678), (error: Error) => {
        assert.match(error.message, /^Container \S+ stopped before its debugpy server listened \(exit status 3\)\. Read its logs/);
        return true;
      });
    });
  });
}
