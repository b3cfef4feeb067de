/**
 * `.dockerignore` correctness with the docker CLI as the oracle: for each pattern set, the same context is built by
 * Berth (engine/build/build.ts) and by `DOCKER_BUILDKIT=0 docker build` on the private dockerd, both with `COPY . /ctx`,
 * and the files under /ctx of the two images (read through the archive endpoint of a created, never started
 * container) must be identical. The patterns cover `**`, `!` exceptions, leading and trailing `/`, `.` and `..`,
 * `?` and classes, and the Dockerfile and `.dockerignore` themselves excluded.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import * as tar from 'tar-stream';
import { buildImage, type EngineClient } from '../../../src/engine';
import { useEngineSuite } from '../../support/engineSuite';
import { uniqueName } from '../../support/engines';
import { dockerBuild, scratchFolder, writeTree } from './support';

/** Each entry is one .dockerignore (lines joined with \n). At least 40, as the issue asks. */
export const PATTERN_CASES: readonly (readonly string[])[] = [
  [],
  ['*.md'],
  ['**/*.md'],
  ['docs'],
  ['docs/'],
  ['/docs'],
  ['./docs'],
  ['docs/../build'],
  ['node_modules'],
  ['**/node_modules'],
  ['*/sub'],
  ['dir/**'],
  ['dir/**/deep'],
  ['**/deep/*.go'],
  ['*', '!src'],
  ['*', '!src/main.go'],
  ['**', '!Dockerfile', '!src/**'],
  ['src', '!src/main.go'],
  ['src/*', '!src/vendor'],
  ['src/**/*.go', '!src/main.go'],
  ['logs/**/*.log', '!logs/keep.log'],
  ['*.log', '!logs'],
  ['.hidden'],
  ['.*'],
  ['**/.keep'],
  ['a?.txt'],
  ['[ab].txt'],
  ['[!a].txt'],
  ['space name.txt'],
  ['Dockerfile'],
  ['.dockerignore'],
  ['Dockerfile', '.dockerignore', '*.txt'],
  ['*', '!Dockerfile'],
  ['# a comment', 'build', '  ', '   tmp.tmp   '],
  ['!docs'],
  ['docs', '!docs/readme.md', 'docs/readme.md'],
  ['dir', '!dir/sub', 'dir/sub/deep'],
  ['**/sub/**', '!**/z.txt'],
  ['x/y/z'],
  ['x/*/z'],
  ['x/**/z/deep.txt'],
  ['empty'],
  ['link-to-docs'],
  ['*.bin', '!build/out.bin'],
  ['/'],
  ['.'],
];

const TREE = {
  'a.txt': 'a',
  'b.txt': 'b',
  'ab.txt': 'ab',
  'c.md': 'c',
  '.hidden': 'h',
  'space name.txt': 's',
  'tmp.tmp': 't',
  'dir/x.txt': 'x',
  'dir/y.md': 'y',
  'dir/sub/z.txt': 'z',
  'dir/sub/deep/w.go': 'w',
  'docs/readme.md': 'r',
  'docs/.keep': '',
  'node_modules/pkg/index.js': 'i',
  'src/node_modules/inner.js': 'n',
  'build/out.bin': 'o',
  'src/main.go': 'm',
  'src/main_test.go': 't',
  'src/vendor/v.go': 'v',
  'logs/app.log': 'l',
  'logs/keep.log': 'k',
  'logs/2024/old.log': 'o',
  'x/y/z/deep.txt': 'd',
  empty: null,
  'link-to-docs': { link: 'docs' },
} as const;

async function filesUnderCtx(client: EngineClient, image: string): Promise<string[]> {
  const { Id } = await client.containers.create({ Image: image, Cmd: ['true'], Labels: { 'berth.test': '1' }, HostConfig: { NetworkMode: 'none' } });
  try {
    const archive = await client.containers.getArchive(Id, '/ctx');
    const names: string[] = [];
    const extract = tar.extract();
    extract.on('entry', (header, stream, next) => {
      names.push(header.name.replace(/\/$/, ''));
      stream.on('end', next);
      stream.resume();
    });
    const done = new Promise<void>((resolve, reject) => {
      extract.on('finish', resolve);
      extract.on('error', reject);
    });
    for await (const chunk of archive.body) extract.write(chunk);
    extract.end(Buffer.alloc(0));
    await done;
    return names.sort();
  } finally {
    await client.containers.remove(Id, { force: true });
  }
}

void describe('.dockerignore: Berth against the docker CLI as the oracle', () => {
  const suite = useEngineSuite({ name: 'dockerignore-oracle' });
  const folder = scratchFolder('dockerignore');
  const repository = uniqueName('berth-ignore').toLowerCase();
  suite.cleanup(async () => {
    for (const image of await suite.client.images.list()) {
      if (image.RepoTags?.some((tag) => tag.startsWith(`${repository}:`))) await suite.client.images.remove(image.Id, { force: true }).catch(() => undefined);
    }
  });
  after(() => folder.dispose());

  void it(`gives the engine the same files as docker build for ${PATTERN_CASES.length} pattern sets`, async () => {
    assert.ok(PATTERN_CASES.length >= 40);
    const mismatches: string[] = [];
    for (const [index, patterns] of PATTERN_CASES.entries()) {
      const context = join(folder.path, `case-${index}`);
      writeTree(context, { ...TREE, Dockerfile: `FROM ${suite.engines.image}\nCOPY . /ctx\n` });
      writeFileSync(join(context, '.dockerignore'), `${patterns.join('\n')}\n`);
      const ours = `${repository}:berth-${index}`;
      const theirs = `${repository}:docker-${index}`;
      await buildImage(suite.client, { contextDir: context, tags: [ours], networkMode: 'none' });
      const docker = await dockerBuild(suite.engines.dockerHost, ['-q', '--network', 'none', '-t', theirs, '.'], context);
      assert.equal(docker.code, 0, docker.stderr);
      const [berthFiles, dockerFiles] = [await filesUnderCtx(suite.client, ours), await filesUnderCtx(suite.client, theirs)];
      if (JSON.stringify(berthFiles) !== JSON.stringify(dockerFiles)) {
        mismatches.push(`${JSON.stringify(patterns)}: berth ${JSON.stringify(berthFiles)} docker ${JSON.stringify(dockerFiles)}`);
      }
    }
    assert.deepEqual(mismatches, []);
  });
});
