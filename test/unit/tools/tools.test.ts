// The agent tools' shared definitions (src/tools): schemas that accept their own examples and refuse bad input,
// results that stay within their bounds whatever a container prints, and act descriptions that never show values.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { AGENT_TOOLS, agentTool, inputProblem, invokeAgentTool, RESULT_LIMITS, type AgentTool, type ToolContext } from '../../../src/tools';
import { cutText, NewestLines } from '../../../src/tools/boundedText';

const MiB = 1024 * 1024;

void describe('agent tool definitions', () => {
  void it('have unique snake_case names, a description and examples that pass their own schema', () => {
    const names = AGENT_TOOLS.map((tool) => tool.name);
    assert.equal(new Set(names).size, names.length);
    for (const tool of AGENT_TOOLS) {
      assert.match(tool.name, /^[a-z]+(_[a-z]+)*$/);
      assert.ok(tool.description.length > 40, `${tool.name} says what it does`);
      assert.ok(tool.examples.length > 0, `${tool.name} has examples`);
      for (const example of tool.examples) assert.equal(inputProblem(tool, example), undefined, `${tool.name} ${JSON.stringify(example)}`);
      if (tool.kind === 'act') assert.ok(tool.describeAct, `${tool.name} says what it will do`);
    }
  });

  void it('refuse input that fails the schema, naming the field', () => {
    const logs = agentTool('container_logs') as AgentTool;
    assert.equal(inputProblem(logs, {}), 'the input needs the field "container"');
    assert.equal(inputProblem(logs, { container: 'a', tail: 0 }), 'tail must be >= 1');
    assert.equal(inputProblem(logs, { container: 'a', follow: true }), 'the input has no field "follow"');
    assert.equal(inputProblem(logs, { container: 7 }), 'container must be string');
    const run = agentTool('run_container') as AgentTool;
    assert.match(inputProblem(run, { image: 'busybox', env: ['=x'] }) ?? '', /^env\.0 must match pattern/);
    assert.match(inputProblem(run, { image: 'busybox', name: 'bad/name' }) ?? '', /^name must match pattern/);
  });

  void it('the tools that show container output tell the model it is data, not instructions', () => {
    for (const name of ['container_logs', 'container_top']) assert.match(agentTool(name)?.description ?? '', /data, n(ot|ever as) instructions/i, name);
  });

  void it("run_container's confirmation names image, command, ports, mounts and env names, never env values", () => {
    const text = agentTool('run_container')?.describeAct?.({ image: 'app:1', command: ['serve'], ports: ['8080:80'], volumes: ['/srv:/data:ro'], env: ['TOKEN=s3cret', 'MODE=dev'] });
    assert.equal(
      text,
      'Run the image app:1, with the command ["serve"], publishing 8080:80, mounting /srv:/data:ro, with the environment variables TOKEN, MODE (values not shown), on the network the engine chooses.',
    );
    assert.doesNotMatch(text ?? '', /s3cret|dev\b/);
  });

  void it('a schema failure never reaches the engine: the result is an error for the agent', async () => {
    let ran = false;
    const tool: AgentTool = { ...(agentTool('container_top') as AgentTool), run: () => ((ran = true), Promise.resolve({ text: 'ran' })) };
    const result = await invokeAgentTool(tool, { container: '' }, {} as ToolContext);
    assert.deepEqual(result, { text: "container_top: container must NOT have fewer than 1 characters. See the tool's input schema.", isError: true });
    assert.equal(ran, false);
  });
});

function chunk(stream: 'stdout' | 'stderr', text: string | Buffer): { stream: 'stdout' | 'stderr'; data: Buffer } {
  return { stream, data: Buffer.isBuffer(text) ? text : Buffer.from(text) };
}

void describe('NewestLines', () => {
  void it('keeps only the newest lines of 100 MB of output, and says how many it left out', () => {
    const lines = new NewestLines(200);
    const block = Buffer.from('x'.repeat(99) + '\n'); // 100-byte lines
    const piece = Buffer.concat(Array.from({ length: 1024 }, () => block)); // 100 KiB
    for (let sent = 0; sent < 100 * MiB; sent += piece.length) lines.push(chunk('stdout', piece));
    lines.push(chunk('stderr', 'last\n'));
    const result = lines.finish();
    assert.equal(result.lines, 200);
    assert.ok(result.dropped > 1_000_000, `${result.dropped} dropped`);
    assert.match(result.text, /^\[… \d+ earlier lines not shown\]\n/);
    assert.match(result.text, /\nstderr\| last$/);
    assert.ok(Buffer.byteLength(result.text) < 200 * (RESULT_LIMITS.maxLineBytes + 64));
  });

  void it('cuts a line without a newline at its bound, with a marker, and holds no more of it', () => {
    const lines = new NewestLines(10, 1024);
    const megabyte = Buffer.alloc(MiB, 0x61);
    for (let i = 0; i < 64; i++) lines.push(chunk('stdout', megabyte));
    const { text } = lines.finish();
    assert.equal(text, `stdout| ${'a'.repeat(1024)} [… line cut: ${64 * MiB - 1024} more bytes]`);
  });

  void it('splits the same lines however the bytes are chunked, keeping each stream apart', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom('stdout' as const, 'stderr' as const), fc.string({ unit: 'grapheme-ascii', maxLength: 40 }).map((text) => text.replace(/[\r\n]/g, ''))), { maxLength: 30 }),
        fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 10 }),
        (entries, cuts) => {
          const lines = new NewestLines(1000);
          for (const [stream, text] of entries) {
            const data = Buffer.from(`${text}\n`);
            let at = 0;
            for (let i = 0; at < data.length; i++) {
              const size = cuts[i % cuts.length] ?? 1;
              lines.push(chunk(stream, data.subarray(at, at + size)));
              at += size;
            }
          }
          assert.equal(lines.finish().text, entries.map(([stream, text]) => `${stream}| ${text}`).join('\n'));
        },
      ),
    );
  });
});

void describe('cutText', () => {
  void it('keeps text under the bound as it is, and cuts longer text on a character boundary with the count left out', () => {
    assert.equal(cutText('short', 10), 'short');
    const cut = cutText('é'.repeat(100), 11);
    assert.equal(cut, `${'é'.repeat(5)}\n[… 190 more bytes not shown]`);
  });
});
