// A page and a websocket on 127.0.0.1 that sends a fixed train of binary frames as soon as a client connects: the
// test browser's harness is checked with it (test/e2e/browserHarness.ts). Server frames as RFC 6455 has them
// (FIN + binary opcode, unmasked, the shortest length form); it never reads what the client sends.
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';

const WEBSOCKET_GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';

export interface FrameTrainServer {
  /** http://127.0.0.1:PORT/ (a blank page) */
  readonly pageUrl: string;
  /** ws://127.0.0.1:PORT/train */
  readonly socketUrl: string;
  close(): Promise<void>;
}

/** One binary frame carrying PAYLOAD. */
export function binaryFrame(payload: Buffer): Buffer {
  let head: Buffer;
  if (payload.length < 126) {
    head = Buffer.from([0x82, payload.length]);
  } else if (payload.length < 0x10000) {
    head = Buffer.alloc(4);
    head[0] = 0x82;
    head[1] = 126;
    head.writeUInt16BE(payload.length, 2);
  } else {
    head = Buffer.alloc(10);
    head[0] = 0x82;
    head[1] = 127;
    head.writeBigUInt64BE(BigInt(payload.length), 2);
  }
  return Buffer.concat([head, payload]);
}

/** Serves FRAMES, in order, to each websocket client. */
export async function startFrameTrain(frames: readonly Buffer[]): Promise<FrameTrainServer> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((_request, response) => {
    response.writeHead(200, { 'Content-Type': 'text/html' });
    response.end('<!doctype html><title>frames</title>');
  });
  server.on('upgrade', (request, socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    const accept = createHash('sha1').update(`${String(request.headers['sec-websocket-key'])}${WEBSOCKET_GUID}`).digest('base64');
    socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`);
    for (const frame of frames) socket.write(binaryFrame(frame));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the frame server has no port');
  return {
    pageUrl: `http://127.0.0.1:${address.port}/`,
    socketUrl: `ws://127.0.0.1:${address.port}/train`,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
