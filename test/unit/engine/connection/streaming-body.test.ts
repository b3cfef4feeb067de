// The streaming body's bound under a stalled reader, counted in bytes: what it holds before it tells undici to pause,
// and takeQueued handing all of it over at once and letting undici go on.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseHost, StreamingHandler, type StreamingResponse } from '../../../../src/engine/connection';

const LINE = Buffer.alloc(100, 0x78);

/** A handler past its headers, as undici leaves it; counts the resumes undici would get. */
function openBody(): { handler: StreamingHandler; resumes: () => number } {
  let resumed = 0;
  let response: StreamingResponse | undefined;
  const handler = new StreamingHandler(parseHost('unix:///nonexistent.sock'), undefined, (opened) => (response = opened), () => undefined);
  handler.onHeaders(200, [], () => resumed++);
  assert.equal(response?.body, handler);
  return { handler, resumes: () => resumed };
}

void describe('StreamingHandler under a stalled reader', () => {
  void it('asks undici to pause once 256 KiB wait, so a reader that never reads holds no more than that', () => {
    const { handler } = openBody();
    let held = 0;
    let accepted = true;
    for (let i = 0; i < 100_000 && accepted; i++) {
      accepted = handler.onData(LINE);
      held += LINE.length;
    }
    assert.equal(accepted, false, 'undici was never told to pause');
    assert.ok(held > 256 * 1024 && held <= 256 * 1024 + LINE.length, `${held} bytes held when it paused`);
  });

  void it('takeQueued hands over every waiting chunk in order, at once, and lets undici go on', async () => {
    const { handler, resumes } = openBody();
    const sent: Buffer[] = [];
    for (let i = 0; handler.onData((sent[i] = Buffer.from(`line ${i}\n`))); i++);
    assert.equal(resumes(), 0);
    const first = await handler.next();
    const rest = handler.takeQueued();
    assert.deepEqual(Buffer.concat([first.value as Buffer, ...rest]), Buffer.concat(sent));
    assert.equal(resumes(), 1);
    assert.deepEqual(handler.takeQueued(), []);
    handler.onData(LINE);
    handler.onComplete();
    assert.deepEqual(await handler.next(), { value: LINE, done: false });
    assert.deepEqual(await handler.next(), { value: undefined, done: true });
  });
});
