/**
 * Listing options scripts use (issue 33 item 6), each next to the docker CLI on the same private dockerd, byte for
 * byte: `ps -s/--size` and `images --digests`; `stats --no-trunc` (its figures move between two calls, so the ids,
 * names and headers are compared).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dockerCli, type DockerCliResult } from '../../support/dockerHome';
import { createCliHarness, type CliHarness } from './support';

void describe('listing options, next to docker', () => {
  let harness: CliHarness;
  before(async () => {
    harness = await createCliHarness('listing-options');
  });
  after(async () => {
    await harness.dispose();
  });

  const docker = (args: readonly string[]): DockerCliResult<string> => dockerCli(harness.engines.dockerHost, args);
  /** The header, then the rows sorted: the engine lists images created in the same second in any order. */
  const rows = (text: string): string[] => {
    const [header = '', ...body] = text.split('\n');
    return [header, ...body.sort()];
  };
  /** Relative times ("3 seconds ago") may tick between two calls: docker is asked before and after berth. */
  const compare = async (args: readonly string[]): Promise<string> => {
    // A few tries: a size computed slowly on a loaded machine can let "Up 1 second" turn into "Up 2 seconds" on
    // both sides of berth's call.
    let ours = await harness.berth(args);
    let theirs = docker(args);
    for (let attempt = 0; attempt < 5; attempt++) {
      const before = docker(args);
      ours = await harness.berth(args);
      const after = docker(args);
      const same = [before, after].find((candidate) => rows(candidate.stdout).join('\n') === rows(ours.stdout).join('\n'));
      theirs = same ?? before;
      if (same) break;
    }
    assert.deepEqual(rows(ours.stdout), rows(theirs.stdout), args.join(' '));
    assert.equal(ours.code, theirs.status, `${args.join(' ')}: ${ours.stderr}`);
    return ours.stdout;
  };

  void it('ps -s adds docker\'s SIZE column: what the container wrote, and its image', async () => {
    const name = `size-ps-${process.pid}`;
    const started = await harness.berth(['run', '-d', '--network', 'none', ...harness.labelArgs, '--name', name, harness.engines.image, 'sh', '-c', 'head -c 123456 /dev/zero > /big; sleep 600']);
    assert.equal(started.code, 0, started.stderr);
    for (let attempt = 0; attempt < 100 && !docker(['ps', '-s', '--filter', `name=${name}`]).stdout.includes('123kB'); attempt++) await new Promise((done) => setTimeout(done, 100));
    const table = await compare(['ps', '-s', '--filter', `name=${name}`]);
    assert.match(table.split('\n')[0] ?? '', / SIZE$/);
    assert.match(table, /123kB \(virtual [\d.]+MB\)/);
    await compare(['ps', '-a', '--size', '--filter', `name=${name}`, '--no-trunc']);
    await compare(['ps', '-s', '--filter', `name=${name}`, '--format', '{{.Names}} {{.Size}}']);
    await compare(['ps', '-s', '-q', '--filter', `name=${name}`]);
  });

  void it('images --digests adds docker\'s DIGEST column, a row per digest, with a template too', async () => {
    const withDigest = docker(['images', '--digests', '--format', '{{.Digest}}']).stdout.split('\n').some((digest) => digest.startsWith('sha256:'));
    assert.ok(withDigest, 'the test engine holds an image pushed to the private registry, so it has a digest');
    const table = await compare(['images', '--digests']);
    assert.match(table.split('\n')[0] ?? '', /^REPOSITORY +TAG +DIGEST +IMAGE ID +CREATED +SIZE$/);
    await compare(['images', '--digests', '-a']);
    await compare(['images', '--format', '{{.Repository}} {{.Digest}}']);
    await compare(['images', '--digests', '--format', 'table {{.Repository}}\t{{.Digest}}']);
    await compare(['images', '--digests', '-q']);
  });

  void it('stats --no-stream --no-trunc shows full ids as docker does', async () => {
    const name = `trunc-stats-${process.pid}`;
    const started = await harness.berth(['run', '-d', '--network', 'none', ...harness.labelArgs, '--name', name, harness.engines.image, 'sleep', '600']);
    assert.equal(started.code, 0, started.stderr);
    const id = started.stdout.trim();
    const firstCells = (text: string): string[][] => text.split('\n').filter(Boolean).map((line) => line.split(/\s{2,}/).slice(0, 2));
    for (const args of [['--no-trunc'], []]) {
      const ours = await harness.berth(['stats', '--no-stream', ...args, name]);
      const theirs = docker(['stats', '--no-stream', ...args, name]);
      assert.equal(ours.code, theirs.status, ours.stderr);
      assert.deepEqual(firstCells(ours.stdout), firstCells(theirs.stdout), args.join(' '));
      assert.deepEqual(ours.stdout.split('\n')[0]?.split(/\s{2,}/), theirs.stdout.split('\n')[0]?.split(/\s{2,}/));
    }
    assert.deepEqual(firstCells((await harness.berth(['stats', '--no-stream', '--no-trunc', name])).stdout)[1], [id, name]);
  });
});
