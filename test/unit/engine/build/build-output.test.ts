// Build output is text to append: however the engine cuts it into messages and Berth merges them (BuildOutputDecoder),
// the build hands on the same text, every other line unchanged and in order, and finds the failing step and the id.
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { BuildError, postBuild, type BuildMessage, type EngineClient, type RegistryCredentialGate } from '../../../../src/engine/api';
import { BuildTextLines, buildImageFromStdin, imageIdInLine } from '../../../../src/engine/build';
import type { EngineConnection, StreamingBody } from '../../../../src/engine/connection';
import { textAndValues } from '../../../support/streamText';

/** A response body read in READS: each read's HTTP chunks wait in the queue, handed out one by one or taken at once. */
function bodyOf(reads: readonly (readonly Buffer[])[]): StreamingBody {
  const chunks = reads.flat();
  let next = 0;
  // Where the read being handed out ends: only its chunks have arrived.
  let arrived = 0;
  let readIndex = 0;
  const body: StreamingBody = {
    [Symbol.asyncIterator]: () => body,
    next: () => {
      if (next >= chunks.length) return Promise.resolve({ value: undefined, done: true });
      if (next >= arrived) arrived += (reads[readIndex++] as readonly Buffer[]).length;
      return Promise.resolve({ value: chunks[next++] as Buffer, done: false });
    },
    takeQueued: () => {
      const taken = chunks.slice(next, arrived);
      next = arrived;
      return taken;
    },
    return: () => Promise.resolve({ value: undefined, done: true }),
  };
  return body;
}

function connectionOf(reads: readonly (readonly Buffer[])[]): EngineConnection {
  return { openStream: () => Promise.resolve({ body: bodyOf(reads), cancel: () => undefined }) } as unknown as EngineConnection;
}

/** No credentials travel in these builds: the gate is never asked. */
const noGate = {} as RegistryCredentialGate;

/** The engine's lines, each its own HTTP chunk, all waiting in one read: what Berth finds after a busy moment. */
function oneRead(messages: readonly object[]): Buffer[][] {
  return [messages.map((message) => Buffer.from(`${JSON.stringify(message)}\n`, 'utf8'))];
}

async function messagesOf(reads: readonly (readonly Buffer[])[]): Promise<{ messages: BuildMessage[]; error: unknown }> {
  const messages: BuildMessage[] = [];
  try {
    for await (const message of postBuild(connectionOf(reads), noGate, '')) messages.push(message);
    return { messages, error: undefined };
  } catch (error) {
    return { messages, error };
  }
}

/** A build answer: the step lines cut into 1-byte messages, then LAST. */
function byteByByte(text: string, ...last: object[]): object[] {
  return [...[...text].map((char) => ({ stream: char })), ...last];
}

function clientOf(reads: readonly (readonly Buffer[])[]): EngineClient {
  const connection = connectionOf(reads);
  return { images: { build: (context: never, options: never) => postBuild(connection, noGate, context, options) } } as unknown as EngineClient;
}

function dockerfile(): AsyncIterable<Buffer> {
  return Readable.from([Buffer.from('FROM scratch\nRUN false\n')]);
}

const STEPS = 'Step 1/2 : FROM scratch\n ---> \nStep 2/2 : RUN false\n';
const FAILURE = { errorDetail: { message: "The command '/bin/sh -c false' returned a non-zero code: 3", code: 3 }, error: "The command '/bin/sh -c false' returned a non-zero code: 3" };

void describe('build output as text', () => {
  void it('property: the text, the other lines in order, and the failure, however the lines are cut and merged', async () => {
    const message = fc.oneof(
      { weight: 6, arbitrary: fc.string({ unit: fc.constantFrom('a', '\n', '\r', 'é', '🚢', '"', '\\', '\u001b'), maxLength: 5 }).map((stream) => ({ stream })) },
      { weight: 1, arbitrary: fc.record({ status: fc.constantFrom('Downloading', 'Pull complete'), id: fc.constantFrom('abc', 'def'), progressDetail: fc.record({ current: fc.nat(), total: fc.nat() }) }).map((line) => JSON.parse(JSON.stringify(line)) as object) },
      { weight: 1, arbitrary: fc.constant({ aux: { ID: 'sha256:0123' } }) },
    );
    await fc.assert(
      fc.asyncProperty(fc.array(message, { maxLength: 30 }), fc.boolean(), fc.array(fc.nat(), { maxLength: 6 }), async (messages, fails, cuts) => {
        const lines = [...messages, ...(fails ? [FAILURE] : [])].map((each) => Buffer.from(`${JSON.stringify(each)}\n`, 'utf8'));
        // The HTTP chunks, grouped into reads at the cuts.
        const at = new Set(cuts.map((cut) => cut % (lines.length + 1)));
        const reads: Buffer[][] = [];
        lines.forEach((line, index) => (at.has(index) || reads.length === 0 ? reads.push([line]) : reads[reads.length - 1]?.push(line)));
        const { messages: got, error } = await messagesOf(reads);
        assert.deepEqual(textAndValues(got), textAndValues(messages));
        if (fails) {
          assert.ok(error instanceof BuildError);
          assert.equal(error.exitCode, 3);
        } else {
          assert.equal(error, undefined);
        }
      }),
      { numRuns: 300 },
    );
  });

  void it('merges the stream lines that waited in one read into one message', async () => {
    const { messages } = await messagesOf(oneRead(byteByByte('Step 1/2 : FROM scratch\n')));
    assert.deepEqual(messages, [{ stream: 'Step 1/2 : FROM scratch\n' }]);
  });

  void it('names the failing step, its text sent a byte at a time', async () => {
    await assert.rejects(buildImageFromStdin(clientOf(oneRead(byteByByte(STEPS, FAILURE))), dockerfile(), {}), (error: unknown) => {
      assert.ok(error instanceof BuildError);
      assert.equal(error.step, 'Step 2/2 : RUN false');
      assert.match(error.message, /returned a non-zero code: 3 \(in Step 2\/2 : RUN false\)/);
      assert.equal(error.exitCode, 3);
      return true;
    });
  });

  void it('finds the image id of aux, of Successfully built and of quiet mode, sent a byte at a time', async () => {
    const id = `sha256:${'ab'.repeat(32)}`;
    const withAux = byteByByte(STEPS, { aux: { ID: id } }, ...byteByByte('Successfully built ababababab12\nSuccessfully tagged x:latest\n'));
    assert.equal(await buildImageFromStdin(clientOf(oneRead(withAux)), dockerfile(), {}), id);
    assert.equal(await buildImageFromStdin(clientOf(oneRead(byteByByte(`${STEPS}Successfully built ababababab12\nSuccessfully tagged x:latest\n`))), dockerfile(), {}), 'ababababab12');
    assert.equal(await buildImageFromStdin(clientOf(oneRead(byteByByte(`${id}\n`))), dockerfile(), {}), id);
    // The last line needs no newline.
    assert.equal(await buildImageFromStdin(clientOf(oneRead(byteByByte(id))), dockerfile(), {}), id);
  });

  void it('BuildTextLines: the lines of a text however it is cut (fast-check)', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', 'b', '\n', '\r', ' ', 'é'), maxLength: 40 }), fc.array(fc.nat(), { maxLength: 8 }), (text, cuts) => {
        const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
        const lines: string[] = [];
        const reader = new BuildTextLines((line) => lines.push(line));
        let from = 0;
        for (const point of [...points, text.length]) {
          reader.push(text.slice(from, point));
          from = point;
        }
        reader.end();
        const expected = text.split('\n');
        if (expected[expected.length - 1] === '') expected.pop();
        assert.deepEqual(lines, expected);
      }),
      { numRuns: 500 },
    );
  });

  void it('BuildTextLines keeps the first 4096 characters of a long line, however it comes', () => {
    const long = `Step 1/1 : RUN ${'x'.repeat(10_000)}`;
    for (const pieces of [[long, '\n'], [...long, '\n'], [`${long}\nnext`]]) {
      const lines: string[] = [];
      const reader = new BuildTextLines((line) => lines.push(line));
      for (const piece of pieces) reader.push(piece);
      reader.end();
      assert.deepEqual(lines.map((line) => line.length), pieces.length === 1 ? [4096, 4] : [4096]);
      assert.equal(lines[0], long.slice(0, 4096));
    }
  });

  void it('imageIdInLine reads quiet mode and Successfully built lines only', () => {
    assert.equal(imageIdInLine(`sha256:${'0'.repeat(64)}`), `sha256:${'0'.repeat(64)}`);
    assert.equal(imageIdInLine('Successfully built 0123456789ab\r'), '0123456789ab');
    assert.equal(imageIdInLine('Successfully built 0123456789ab and more'), undefined);
    assert.equal(imageIdInLine('Step 1/2 : FROM scratch'), undefined);
  });
});
