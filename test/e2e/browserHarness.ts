// The browser every workbench case runs in keeps the page on loopback by routing non-loopback requests and
// websockets to a refusal (test/vscode/browser.ts). Routing a websocket puts Playwright's driver between the page
// and the server: each frame goes to the driver as base64 and comes back, and frames of different sizes can come
// back out of order. That happened to the workbench's own socket while the pattern was a function (which Playwright
// cannot match itself, so it routed every socket): the figures in bench/ measured the detour, and replies larger
// than 256 KiB reached the page damaged. This case holds the harness to passing loopback sockets straight through.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { launchChromium, loopbackOnlyContext } from '../vscode/browser';
import { startFrameTrain } from '../support/loopbackWebSocket';

export const BROWSER_HARNESS_CASE = 'the test browser passes a loopback websocket straight through (large and small frames in order) and refuses any other';

const FRAMES = 24;
const LARGE_BYTES = 1 << 20;

/** Frame N starts with N; the even ones are 1 MiB, the odd ones 8 bytes. */
function frameTrain(): Buffer[] {
  return Array.from({ length: FRAMES }, (_, index) => {
    const frame = Buffer.alloc(index % 2 === 0 ? LARGE_BYTES : 8, index & 0xff);
    frame.writeUInt32BE(index, 0);
    return frame;
  });
}

interface PageReport {
  /** Each frame's first word, in the order the page's socket delivered them. */
  readonly order: number[];
  readonly sizes: number[];
  readonly firstLargeSha256: string;
  /** What Playwright's driver asked of the page's socket mock: 'passthrough' only, when nothing is routed. */
  readonly driverRequests: string[];
}

export async function browserHarness(): Promise<void> {
  const frames = frameTrain();
  const server = await startFrameTrain(frames);
  const browser = await launchChromium();
  try {
    const { context, blocked } = await loopbackOnlyContext(browser);
    const page = await context.newPage();
    await page.goto(server.pageUrl);
    const report = await page.evaluate(
      async ({ url, count }) => {
        // The driver reaches the page's socket mock by calling this global by name: count what it asks.
        const scope = globalThis as unknown as { __pwWebSocketDispatch?: (request: { type: string }) => void };
        const driverRequests: string[] = [];
        const dispatch = scope.__pwWebSocketDispatch;
        if (dispatch) {
          scope.__pwWebSocketDispatch = (request) => {
            driverRequests.push(request.type);
            dispatch(request);
          };
        }
        return new Promise<PageReport>((resolve, reject) => {
          const socket = new WebSocket(url);
          const order: number[] = [];
          const sizes: number[] = [];
          let firstLarge: ArrayBuffer | undefined;
          let read = 0;
          socket.onerror = () => reject(new Error('the loopback socket failed'));
          socket.onmessage = (event: MessageEvent<Blob>) => {
            // As the workbench reads them: a Blob each, its bytes read when they come.
            const slot = order.length;
            order.push(-1);
            sizes.push(event.data.size);
            void event.data.arrayBuffer().then(async (bytes) => {
              order[slot] = new DataView(bytes).getUint32(0);
              if (slot === 0) firstLarge = bytes;
              if (++read < count) return;
              socket.close();
              const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', firstLarge ?? new ArrayBuffer(0)));
              resolve({ order, sizes, firstLargeSha256: [...digest].map((byte) => byte.toString(16).padStart(2, '0')).join(''), driverRequests });
            });
          };
        });
      },
      { url: server.socketUrl, count: FRAMES },
    );
    assert.deepEqual(report.order, frames.map((_, index) => index), 'the frames reached the page out of order');
    assert.deepEqual(report.sizes, frames.map((frame) => frame.length));
    assert.equal(report.firstLargeSha256, createHash('sha256').update(frames[0] ?? Buffer.alloc(0)).digest('hex'), 'a 1 MiB frame reached the page altered');
    assert.deepEqual(report.driverRequests, ['passthrough'], `the loopback socket went through Playwright's driver (${report.driverRequests.length} requests)`);

    // A socket to any other address is refused by the harness itself, before a packet leaves (192.0.2.1: TEST-NET-1).
    const refused = await page.evaluate(
      (url) =>
        new Promise<{ opened: boolean; code: number }>((resolve) => {
          let opened = false;
          const socket = new WebSocket(url);
          socket.onopen = () => (opened = true);
          socket.onclose = (event) => resolve({ opened, code: event.code });
        }),
      'ws://192.0.2.1/refused',
    );
    assert.equal(refused.opened, false, 'a non-loopback socket opened');
    assert.ok(blocked.includes('ws://192.0.2.1/refused'), `the harness did not record the refusal: ${JSON.stringify(blocked)}`);
    await context.close();
  } finally {
    await browser.close();
    await server.close();
  }
}
