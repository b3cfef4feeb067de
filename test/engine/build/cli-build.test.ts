/**
 * `berth build` against `DOCKER_BUILDKIT=0 docker build` on the same private dockerd: the same step lines, `-q`
 * printing only the id, the same exit statuses (a failing RUN's own status, 1 for a missing context or Dockerfile,
 * 125 for a bad tag), tags, build args, targets, a Dockerfile outside the context, and a private base image whose
 * credentials travel in X-Registry-Config.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { createCliHarness, type CliHarness } from '../cli/support';
import { uniqueName } from '../../support/engines';
import { dockerBuild, scratchFolder, stepLines, writeTree } from './support';
import { expectedMessage } from '../engine/bad-input-cases';

void describe('berth build compared with docker build (classic builder)', () => {
  let harness: CliHarness;
  const folder = scratchFolder('build-cli');
  const repository = uniqueName('berth-build-cli').toLowerCase();
  let base: string;
  before(async () => {
    harness = await createCliHarness('build');
    base = harness.engines.image;
    writeTree(folder.path, {
      'app/Dockerfile': `FROM ${base} AS first\nARG GREETING=hello\nLABEL greeting=$GREETING stage=first\nFROM first\nLABEL stage=final\nCOPY . /ctx\n`,
      'app/.dockerignore': 'secret.txt\n',
      'app/secret.txt': 'not sent',
      'app/kept.txt': 'sent',
      'failing/Dockerfile': `FROM ${base}\nRUN echo about to fail && exit 7\n`,
      'outside.Dockerfile': `FROM ${base}\nCOPY . /ctx\nRUN find /ctx | sort\n`,
    });
  });
  after(async () => {
    const images = await harness.client.images.list();
    for (const image of images.filter((each) => each.RepoTags?.some((tag) => tag.startsWith(`${repository}`)))) {
      await harness.client.images.remove(image.Id, { force: true }).catch(() => undefined);
    }
    await harness.dispose();
    folder.dispose();
  });

  const app = (): string => join(folder.path, 'app');

  void it('prints the same step lines as docker, and tags the image with every -t', async () => {
    const berth = await harness.berth(['build', '--network', 'none', '-t', `${repository}:a`, '-t', `${repository}:b`, app()]);
    const docker = await dockerBuild(harness.engines.dockerHost, ['--network', 'none', '-t', `${repository}:docker`, '.'], app());
    assert.equal(berth.code, 0, berth.stderr);
    assert.equal(docker.code, 0, docker.stderr);
    assert.deepEqual(stepLines(berth.stdout), stepLines(docker.stdout));
    assert.equal(stepLines(berth.stdout).length, 6);
    assert.match(berth.stdout, new RegExp(`^Successfully tagged ${repository}:b$`, 'm'));
    const inspected = await harness.client.images.inspect(`${repository}:a`);
    // docker's build of the same context hits the cache berth's build filled: the same image, so the same context.
    assert.deepEqual([...(inspected.RepoTags ?? [])].sort(), [`${repository}:a`, `${repository}:b`, `${repository}:docker`]);
    assert.equal(inspected.Config?.Labels?.stage, 'final');
  });

  void it('-q prints only the image id, as docker -q does', async () => {
    const berth = await harness.berth(['build', '-q', '--network', 'none', app()]);
    const docker = await dockerBuild(harness.engines.dockerHost, ['-q', '--network', 'none', '.'], app());
    assert.equal(berth.code, 0, berth.stderr);
    assert.match(berth.stdout, /^sha256:[0-9a-f]{64}\n$/);
    assert.match(docker.stdout, /^sha256:[0-9a-f]{64}\n$/);
    assert.equal(berth.stderr, '');
    const image = await harness.client.images.inspect(berth.stdout.trim());
    assert.equal(image.Id, berth.stdout.trim());
  });

  void it('--build-arg and --target reach the engine', async () => {
    const tag = `${repository}:target`;
    const result = await harness.berth(['build', '-q', '--network', 'none', '--build-arg', 'GREETING=bonjour', '--target', 'first', '-t', tag, app()]);
    assert.equal(result.code, 0, result.stderr);
    const labels = (await harness.client.images.inspect(tag)).Config?.Labels ?? {};
    assert.equal(labels.greeting, 'bonjour');
    assert.equal(labels.stage, 'first');
  });

  void it('a Dockerfile outside the context is sent under a name COPY leaves out, and .dockerignore still holds', async () => {
    const outside = join(folder.path, 'outside.Dockerfile');
    const berth = await harness.berth(['build', '--network', 'none', '--no-cache', '-f', outside, app()]);
    const docker = await dockerBuild(harness.engines.dockerHost, ['--network', 'none', '--no-cache', '-f', outside, '.'], app());
    assert.equal(berth.code, 0, berth.stderr);
    const listing = (output: string): string[] => output.split('\n').filter((line) => line.startsWith('/ctx'));
    assert.deepEqual(listing(berth.stdout), ['/ctx', '/ctx/.dockerignore', '/ctx/Dockerfile', '/ctx/kept.txt']);
    assert.deepEqual(listing(berth.stdout), listing(docker.stdout));
  });

  void it('a failing RUN exits with its own status, as docker build does, and names the step', async () => {
    const berth = await harness.berth(['build', '--network', 'none', join(folder.path, 'failing')]);
    const docker = await dockerBuild(harness.engines.dockerHost, ['--network', 'none', '.'], join(folder.path, 'failing'));
    assert.equal(docker.code, 7);
    assert.equal(berth.code, 7);
    assert.match(berth.stdout, /^about to fail$/m);
    assert.equal(berth.stderr, `berth: ${expectedMessage('build-run-fails')}\n`);
  });

  void it('a missing context or Dockerfile, or a file as the context, exits 1 and a bad tag 125, as docker does', async () => {
    const missing = join(folder.path, 'nowhere');
    const noDockerfile = join(folder.path, 'no.Dockerfile');
    const cases: Array<{ args: string[]; code: number; message: string }> = [
      { args: [missing], code: 1, message: `berth: ${expectedMessage('build-context-missing', { path: missing })}\n` },
      { args: [join(app(), 'Dockerfile')], code: 1, message: `berth: ${expectedMessage('build-context-is-file', { path: join(app(), 'Dockerfile') })}\n` },
      { args: ['-f', noDockerfile, app()], code: 1, message: `berth: ${expectedMessage('build-dockerfile-missing', { path: noDockerfile })}\n` },
      { args: ['-t', 'Bad:1', app()], code: 125, message: 'berth: invalid argument "Bad:1" for "-t, --tag" flag: invalid reference format: the repository name must be lowercase\n' },
    ];
    for (const each of cases) {
      const berth = await harness.berth(['build', ...each.args]);
      const docker = await dockerBuild(harness.engines.dockerHost, each.args, folder.path);
      assert.equal(berth.code, each.code, berth.stderr);
      assert.equal(docker.code, each.code, docker.stderr);
      assert.equal(berth.stderr, each.message);
    }
  });

  void it('build - takes a tar (plain or gzip), or a lone Dockerfile, from stdin: the same steps and the same image as docker build -', async () => {
    const dockerFromStdin = (args: readonly string[], input: Buffer) => {
      const result = spawnSync('docker', ['build', '--force-rm', ...args], {
        input,
        env: { PATH: process.env.PATH ?? '', HOME: folder.path, DOCKER_HOST: harness.engines.dockerHost, DOCKER_BUILDKIT: '0' },
        maxBuffer: 16 * 1024 * 1024,
      });
      return { code: result.status, stdout: result.stdout.toString('utf8'), stderr: result.stderr.toString('utf8') };
    };
    const unique = uniqueName('stdin');
    writeTree(join(folder.path, 'stdin'), {
      Dockerfile: `FROM ${base}\nCOPY . /ctx\nRUN echo ${unique} && find /ctx | sort\n`,
      'sub/Other.Dockerfile': `FROM ${base}\nLABEL other=${unique}\n`,
      'data.txt': unique,
    });
    const archive = join(folder.path, 'stdin.tar');
    assert.equal(spawnSync('tar', ['-cf', archive, '-C', join(folder.path, 'stdin'), '.']).status, 0);
    writeFileSync(`${archive}.gz`, gzipSync(readFileSync(archive)));
    const dockerfileOnly = join(folder.path, 'stdin.Dockerfile');
    writeFileSync(dockerfileOnly, `FROM ${base}\nRUN echo ${unique}-alone\n`);
    const cases: Array<[string, string[]]> = [
      [archive, ['--network', 'none']],
      [`${archive}.gz`, ['--network', 'none']],
      [archive, ['-f', 'sub/Other.Dockerfile']],
      [dockerfileOnly, ['--network', 'none']],
    ];
    for (const [input, args] of cases) {
      // docker builds first; berth's build of the same bytes then hits its cache: the same image id means the same context.
      const docker = dockerFromStdin(['--no-cache', ...args, '-'], readFileSync(input));
      const berth = await harness.shell(`berth build ${args.join(' ')} - < '${input}'`);
      assert.equal(docker.code, 0, docker.stderr);
      assert.equal(berth.code, 0, berth.stderr);
      assert.deepEqual(stepLines(berth.stdout), stepLines(docker.stdout), input);
      assert.ok(stepLines(berth.stdout).length >= 2, berth.stdout);
      const builtId = (output: string): string | undefined => /^Successfully built ([0-9a-f]{12})$/m.exec(output)?.[1];
      assert.equal(builtId(berth.stdout), builtId(docker.stdout), `${input} ${args.join(' ')}`);
    }
    const quiet = await harness.shell(`berth build -q - < '${archive}'`);
    assert.match(quiet.stdout, /^sha256:[0-9a-f]{64}\n$/);
    const listing = await harness.shell(`berth build --no-cache --network none - < '${archive}'`);
    assert.deepEqual(listing.stdout.split('\n').filter((line) => line.startsWith('/ctx')), ['/ctx', '/ctx/Dockerfile', '/ctx/data.txt', '/ctx/sub', '/ctx/sub/Other.Dockerfile']);
  });

  void it('build - refuses stdin for both, an empty Dockerfile and one past the bound, with docker\'s exit statuses', async () => {
    const both = await harness.shell('berth build -f - - < /dev/null');
    assert.equal(both.code, 1);
    assert.equal(both.stderr, `berth: ${expectedMessage('build-stdin-twice').replace(/ \(exit 1.*$/, '')}\n`);
    const empty = await harness.shell('berth build - < /dev/null');
    assert.equal(empty.code, 1);
    assert.match(empty.stderr, /^berth: the Dockerfile \(Dockerfile\) cannot be empty/);
    const large = await harness.shell('head -c 5000000 /dev/zero | tr "\\0" x | berth build -');
    assert.equal(large.code, 1);
    assert.equal(large.stderr, `berth: ${expectedMessage('build-stdin-dockerfile-large')}\n`);
    assert.equal(large.stdout, '');
  });

  void it('a private base image builds with the credentials of the docker configuration (X-Registry-Config), and not without', async () => {
    const { registry, registryImages } = harness.engines;
    const privateBase = registryImages.find((reference) => reference.endsWith('/berth/tools:latest')) as string;
    await harness.client.images.remove(privateBase, { force: true }).catch(() => undefined);
    writeTree(join(folder.path, 'private'), { Dockerfile: `FROM ${privateBase}\nLABEL built=yes\n` });
    const context = join(folder.path, 'private');
    const anonymous = await harness.berth(['build', '-q', context]);
    assert.equal(anonymous.code, 1);
    assert.match(anonymous.stderr, /no basic auth credentials\. Sign in to the registry/);
    const config = harness.dockerConfig({ auths: { [registry.address]: { auth: Buffer.from(`${registry.username}:${registry.password}`).toString('base64') } } });
    const signedIn = await harness.berth(['build', '-q', '-t', `${repository}:private`, context], { env: { DOCKER_CONFIG: config } });
    assert.equal(signedIn.code, 0, signedIn.stderr);
    assert.equal((await harness.client.images.inspect(`${repository}:private`)).Config?.Labels?.built, 'yes');
    await harness.client.images.remove(privateBase, { force: true }).catch(() => undefined);
  });
});
