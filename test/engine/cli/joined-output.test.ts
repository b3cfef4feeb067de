/**
 * berth logs and run join the frames of a network read into one write (a slow reader then pays per read, not per
 * line). What reaches berth's stdout and stderr stays byte for byte what the docker CLI prints on the same engine,
 * for thousands of short lines of both streams interleaved; and the engine client hands out fewer chunks than frames.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FrameDemuxer } from '../../../src/engine';
import { engineTargets, loadTestEngines } from '../../support/engines';
import { dockerCliBytes, type DockerCliResult } from '../../support/dockerHome';
import { createCliHarness, type CliHarness } from './support';

const LINES = 20_000;
/** Short lines on stdout, every seventh also on stderr, and a long one in the middle: many frames of both streams. */
const MIXED = [
  'sh',
  '-c',
  `i=0; while [ $i -lt ${LINES} ]; do echo "out $i"; if [ $((i % 7)) -eq 0 ]; then echo "err $i" >&2; fi; if [ $i -eq 5000 ]; then head -c 100000 /dev/zero | tr '\\0' y; echo; fi; i=$((i+1)); done`,
];

void describe('berth logs and run next to docker, with frames joined', () => {
  let harness: CliHarness;
  before(async () => {
    harness = await createCliHarness('joined-output');
  });
  after(async () => {
    await harness.dispose();
  });

  /** The docker CLI on the private dockerd, its two streams as bytes. */
  const docker = (args: readonly string[]): DockerCliResult<Buffer> => dockerCliBytes(harness.engines.dockerHost, args);

  void it('logs and logs --timestamps of interleaved short lines: both streams byte for byte as docker prints them', async () => {
    const started = await harness.berth(['run', '-d', '--network', 'none', ...harness.labelArgs, harness.engines.image, ...MIXED]);
    assert.equal(started.code, 0, started.stderr);
    const id = started.stdout.trim();
    assert.equal((await harness.berth(['wait', id])).stdout, '0\n');
    for (const extra of [[], ['--timestamps']]) {
      const ours = await harness.berth(['logs', ...extra, id]);
      const theirs = docker(['logs', ...extra, id]);
      assert.equal(theirs.status, 0, theirs.stderr.toString());
      assert.equal(ours.code, 0, ours.stderr.slice(0, 500));
      assert.ok(ours.stdoutBytes.equals(theirs.stdout), `stdout differs (${extra.join(' ')}): ${ours.stdoutBytes.length} bytes against ${theirs.stdout.length}`);
      assert.equal(ours.stderr, theirs.stderr.toString('utf8'), `stderr differs (${extra.join(' ')})`);
      assert.equal(ours.stdout.split('\n').filter((line) => /out \d+$/.test(line)).length, LINES);
    }
  });

  void it('run --rm of interleaved short lines: both streams byte for byte as docker run prints them', async () => {
    const run = ['run', '--rm', '--network', 'none', ...harness.labelArgs, harness.engines.image, ...MIXED];
    const ours = await harness.berth(run);
    const theirs = docker(run);
    assert.equal(theirs.status, 0, theirs.stderr.toString());
    assert.equal(ours.code, 0, ours.stderr.slice(0, 500));
    assert.ok(ours.stdoutBytes.equals(theirs.stdout), `stdout differs: ${ours.stdoutBytes.length} bytes against ${theirs.stdout.length}`);
    assert.equal(ours.stderr, theirs.stderr.toString('utf8'));
    assert.equal((await harness.client.containers.list({ all: true, filters: { label: [harness.labelFilter] } })).filter((entry) => entry.State !== 'exited').length, 0);
  });

  for (const target of engineTargets(loadTestEngines())) {
    void it(`the engine client joins a read's frames (${target.name}): the same bytes per stream in fewer chunks than lines`, { skip: target.skip }, async () => {
      const client = harness.clientFor(target.host);
      const { Id: id } = await client.containers.create({
        Image: harness.engines.image,
        Cmd: MIXED,
        Labels: Object.fromEntries(harness.labelArgs.filter((_, index) => index % 2 === 1).map((label) => label.split('=') as [string, string])),
        HostConfig: { NetworkMode: 'none' },
      });
      await client.containers.start(id);
      await (await client.containers.wait(id, { condition: 'not-running' })).result;
      const read = async (rawFrames: boolean): Promise<{ chunks: number; stdout: Buffer; stderr: Buffer }> => {
        const parts = { stdout: [] as Buffer[], stderr: [] as Buffer[] };
        let chunks = 0;
        // The frames as they came, a chunk per frame: what the joined read is measured against.
        const frames = new FrameDemuxer((chunk) => {
          chunks++;
          parts[chunk.stream].push(Buffer.from(chunk.data));
        });
        for await (const chunk of client.containers.logs(id, { rawFrames, tty: false })) {
          if (rawFrames) frames.push(chunk.data);
          else {
            chunks++;
            parts[chunk.stream].push(Buffer.from(chunk.data));
          }
        }
        frames.end();
        return { chunks, stdout: Buffer.concat(parts.stdout), stderr: Buffer.concat(parts.stderr) };
      };
      const framed = await read(true);
      const joined = await read(false);
      assert.ok(joined.stdout.equals(framed.stdout), 'stdout differs');
      assert.ok(joined.stderr.equals(framed.stderr), 'stderr differs');
      assert.ok(framed.chunks >= LINES, `${framed.chunks} chunks without joining`);
      // The engine sends a frame per line; a read from the connection carries many of them.
      assert.ok(joined.chunks <= framed.chunks / 2, `${joined.chunks} joined chunks against ${framed.chunks} frames`);
      await client.containers.remove(id, { force: true });
    });
  }
});
