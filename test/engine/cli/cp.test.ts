// `berth cp` next to `docker cp` on the same private dockerd: both directions, into an existing directory, to a new
// name, a directory's contents (`SRC/.`), symlinks and unicode names, a stopped container; the trees must match.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { execCapture } from '../../../src/engine/files';
import { containerSpec } from '../../support/containerSpec';
import { createCliHarness, type CliHarness } from './support';

const SETUP = 'mkdir -p /src/sub && printf "top" > /src/top.txt && printf "deep ✓" > "/src/sub/dé ep.txt" && ln -s top.txt /src/link && chmod 640 /src/top.txt';

/** A host tree as text: relative path, kind, mode, and content or link target; comparable across two copies. */
function describeTree(root: string): string[] {
  const lines: string[] = [];
  const walk = (path: string, rel: string): void => {
    const info = lstatSync(path);
    if (info.isSymbolicLink()) lines.push(`${rel} -> ${readlinkSync(path)}`);
    else if (info.isDirectory()) {
      lines.push(`${rel}/`);
      for (const child of readdirSync(path).sort()) walk(join(path, child), rel === '' ? child : `${rel}/${child}`);
    } else lines.push(`${rel} ${(info.mode & 0o777).toString(8)} ${readFileSync(path, 'utf8')}`);
  };
  walk(root, '');
  return lines;
}

void describe('berth cp next to docker cp', () => {
  let harness: CliHarness;
  let scratch: string;
  let running: string;
  let stopped: string;
  const docker = (args: readonly string[]) => spawnSync('docker', ['-H', harness.engines.dockerHost, ...args], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '', HOME: '/nonexistent' } });

  before(async () => {
    harness = await createCliHarness('cp');
    scratch = mkdtempSync(join(tmpdir(), 'berth-cp-'));
    const labels = Object.fromEntries(harness.labelArgs.filter((_, index) => index % 2 === 1).map((pair) => pair.split('=') as [string, string]));
    const create = async (cmd: string[]) => (await harness.client.containers.create(containerSpec(harness.engines.image, cmd, { Labels: labels }))).Id;
    running = await create(['sleep', '600']);
    await harness.client.containers.start(running);
    assert.equal((await execCapture(harness.client, running, ['sh', '-c', SETUP])).exitCode, 0);
    stopped = await create(['sh', '-c', SETUP]);
    await harness.client.containers.start(stopped);
    await (await harness.client.containers.wait(stopped, { condition: 'not-running' })).result;
  });
  after(async () => {
    rmSync(scratch, { recursive: true, force: true });
    await harness.dispose();
  });

  const cases: Array<[string, (base: string) => string, string]> = [
    ['a file to a new name', (base) => join(base, 'copy.txt'), '/src/top.txt'],
    ['a directory into an existing directory', (base) => base, '/src'],
    ["a directory's contents (SRC/.)", (base) => base, '/src/.'],
    ['a directory to a new name', (base) => join(base, 'renamed'), '/src'],
  ];
  for (const [title, destination, source] of cases) {
    for (const which of ['running', 'stopped'] as const) {
      void it(`out of a ${which} container: ${title}`, async () => {
        const id = which === 'running' ? running : stopped;
        const mine = join(scratch, `berth-${which}-${title.replace(/\W+/g, '-')}`);
        const theirs = join(scratch, `docker-${which}-${title.replace(/\W+/g, '-')}`);
        for (const base of [mine, theirs]) mkdirSync(base, { recursive: true });
        const result = await harness.berth(['cp', `${id}:${source}`, destination(mine)]);
        assert.equal(result.code, 0, result.stderr);
        const peer = docker(['cp', `${id}:${source}`, destination(theirs)]);
        assert.equal(peer.status, 0, peer.stderr);
        assert.deepEqual(describeTree(mine), describeTree(theirs));
      });
    }
  }

  // Podman names the entries of a `SRC/.` archive without dockerd's leading `./`: the same tree must come out.
  void it("out of a Podman container: a directory, and a directory's contents (SRC/.), as docker cp gives them from dockerd", async () => {
    const podmanHost = harness.engines.podmanHost;
    assert.ok(podmanHost, 'engines.json names the Podman service (a missing engine is a failure, not a skip)');
    const podman = harness.clientFor(podmanHost);
    const labels = Object.fromEntries(harness.labelArgs.filter((_, index) => index % 2 === 1).map((pair) => pair.split('=') as [string, string]));
    const id = (await podman.containers.create(containerSpec(harness.engines.image, ['sleep', '600'], { Labels: labels }))).Id;
    try {
      await podman.containers.start(id);
      assert.equal((await execCapture(podman, id, ['sh', '-c', SETUP])).exitCode, 0);
      for (const source of ['/src', '/src/.']) {
        const mine = join(scratch, `podman-${source.replace(/\W+/g, '-')}`);
        const theirs = join(scratch, `docker-ref-${source.replace(/\W+/g, '-')}`);
        for (const base of [mine, theirs]) mkdirSync(base, { recursive: true });
        writeFileSync(join(mine, 'kept.txt'), 'kept');
        writeFileSync(join(theirs, 'kept.txt'), 'kept');
        const result = await harness.berth(['cp', `${id}:${source}`, mine], { host: podmanHost });
        assert.equal(result.code, 0, result.stderr);
        const peer = docker(['cp', `${running}:${source}`, theirs]);
        assert.equal(peer.status, 0, peer.stderr);
        assert.deepEqual(describeTree(mine), describeTree(theirs));
      }
    } finally {
      await podman.containers.remove(id, { force: true });
    }
  });

  void it('into a container: a directory into an existing one and a file to a new name, as docker does', async () => {
    const host = join(scratch, 'upload');
    mkdirSync(join(host, 'inner'), { recursive: true });
    writeFileSync(join(host, 'inner', 'ü.txt'), 'uploaded ✓');
    symlinkSync('inner/ü.txt', join(host, 'link'));
    const listing = async (root: string) => (await execCapture(harness.client, running, ['sh', '-c', `cd ${root} && find . | sort && cat ./upload/inner/ü.txt ./one.txt`])).stdout.toString('utf8');
    await execCapture(harness.client, running, ['mkdir', '-p', '/mine', '/theirs']);
    for (const [target, run] of [
      ['/mine', (args: string[]) => harness.berth(['cp', ...args]).then((result) => result.code)],
      ['/theirs', (args: string[]) => Promise.resolve(docker(['cp', ...args]).status)],
    ] as const) {
      assert.equal(await run([host, `${running}:${target}`]), 0);
      assert.equal(await run([join(host, 'inner', 'ü.txt'), `${running}:${target}/one.txt`]), 0);
    }
    const mine = await listing('/mine');
    assert.match(mine, /\.\/upload\/link/);
    assert.equal(mine, await listing('/theirs'));
  });

  void it('-L follows a symlink source both ways and into a tar on stdout, as docker cp -L does', async () => {
    assert.equal((await execCapture(harness.client, running, ['sh', '-c', 'ln -sfn /src /srclink && ln -sfn ../src/link /tmp/chain && mkdir -p /mineL /theirsL'])).exitCode, 0);
    const cases: Array<[string, (base: string) => string]> = [
      ['/src/link', (base) => join(base, 'copy.txt')],
      ['/srclink', (base) => base],
      ['/tmp/chain', (base) => base],
      ['/srclink/.', (base) => join(base, 'contents')],
    ];
    for (const [source, destination] of cases) {
      const mine = join(scratch, `berth-L-${source.replace(/\W+/g, '-')}`);
      const theirs = join(scratch, `docker-L-${source.replace(/\W+/g, '-')}`);
      for (const base of [mine, theirs]) mkdirSync(base, { recursive: true });
      const result = await harness.berth(['cp', '-L', `${running}:${source}`, destination(mine)]);
      assert.equal(result.code, 0, result.stderr);
      const peer = docker(['cp', '-L', `${running}:${source}`, destination(theirs)]);
      assert.equal(peer.status, 0, peer.stderr);
      assert.deepEqual(describeTree(mine), describeTree(theirs), source);
    }
    // Without -L the link itself is copied: the option changes what happens.
    const plain = join(scratch, 'berth-no-L');
    assert.equal((await harness.berth(['cp', `${running}:/src/link`, plain])).code, 0);
    assert.equal(readlinkSync(plain), 'top.txt');
    for (const source of ['/srclink', '/src/link']) {
      const ours = await harness.berth(['cp', '-L', `${running}:${source}`, '-']);
      const peer = spawnSync('docker', ['-H', harness.engines.dockerHost, 'cp', '-L', `${running}:${source}`, '-'], { env: { PATH: process.env.PATH ?? '', HOME: '/nonexistent' } });
      assert.equal(ours.code, 0, ours.stderr);
      assert.ok(ours.stdoutBytes.length > 0);
      assert.ok(ours.stdoutBytes.equals(peer.stdout), `${source}: the tar on stdout differs from docker's`);
    }
    const host = join(scratch, 'upload-L');
    mkdirSync(join(host, 'dir'), { recursive: true });
    writeFileSync(join(host, 'dir', 'f.txt'), 'through a link ✓');
    symlinkSync('dir', join(host, 'dirlink'));
    symlinkSync('dir/f.txt', join(host, 'filelink'));
    for (const [target, run] of [
      ['/mineL', (args: string[]) => harness.berth(['cp', '-L', ...args]).then((result) => result.code)],
      ['/theirsL', (args: string[]) => Promise.resolve(docker(['cp', '-L', ...args]).status)],
    ] as const) {
      assert.equal(await run([join(host, 'dirlink'), `${running}:${target}`]), 0);
      assert.equal(await run([join(host, 'filelink'), `${running}:${target}/one.txt`]), 0);
    }
    const listing = async (root: string) => (await execCapture(harness.client, running, ['sh', '-c', `cd ${root} && find . -exec ls -ld {} + | awk '{print $1, $NF}' | sort && cat ./dirlink/f.txt ./one.txt`])).stdout.toString('utf8');
    const mine = await listing('/mineL');
    assert.match(mine, /^d\S+ \.\/dirlink$/m);
    assert.equal(mine, await listing('/theirsL'));
  });

  void it('a missing path in the container fails with the engine-side reason and exit status 1', async () => {
    const result = await harness.berth(['cp', `${running}:/no/such/file`, join(scratch, 'nothing')]);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /No such file or directory in the container: \/no\/such\/file/);
    assert.equal(docker(['cp', `${running}:/no/such/file`, join(scratch, 'nothing')]).status, 1);
  });

  void it('refuses two host paths, like docker', async () => {
    const result = await harness.berth(['cp', '/tmp/a', '/tmp/b']);
    assert.notEqual(result.code, 0);
    assert.match(result.stderr, /give one CONTAINER:PATH and one host path/);
  });
});
