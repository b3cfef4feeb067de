/**
 * Add Docker Files' output on the real classic builder (dockerd), through Berth's own build (context tar and the
 * generated .dockerignore). The platforms' base images cannot be pulled here (no public registry), so each `FROM`
 * gets the test busybox image instead; the rest of the Dockerfile is as generated. The generic scaffold then builds
 * and its container lists the copied folder without what .dockerignore excludes. The others get through dockerd's
 * parser and every COPY, and stop at their first RUN, which needs the platform's tools (exit 127, not found) and
 * never at a parse error.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { buildImage, type BuildMessage, type OutputChunk } from '../../../src/engine';
import { detect, PLATFORMS, type Platform } from '../../../src/scaffold/detect';
import { render } from '../../../src/scaffold/render';
import { useEngineSuite } from '../../support/engineSuite';
import { uniqueName } from '../../support/engines';
import { scratchFolder, writeTree, type Tree } from './support';

const PROJECTS: Readonly<Record<Platform, Tree>> = {
  node: { 'package.json': '{"name":"shop","scripts":{"start":"node server.js"}}', 'package-lock.json': '{}', 'server.js': '' },
  python: { 'requirements.txt': 'flask\n', 'app.py': '' },
  go: { 'go.mod': 'module example.com/ships\n\ngo 1.22\n', 'go.sum': '', 'main.go': '' },
  java: { 'pom.xml': '<project/>', 'src/main/java/App.java': '' },
  dotnet: { 'Harbour Api.csproj': '<Project/>', 'Program.cs': '' },
  generic: { 'README.md': 'hello\n', 'notes/today.txt': 'x\n', '.git/HEAD': 'ref\n', 'debug.log': 'excluded\n' },
};

void describe('scaffolds on the classic builder', () => {
  const suite = useEngineSuite({ name: 'scaffold-build' });
  const folder = scratchFolder('scaffold-build');
  const repository = uniqueName('berth-scaffold').toLowerCase();
  /** Every image a build made (` ---> <id>` lines): the tagged result and the layers of the builds that stopped. */
  const made = new Set<string>();
  const collect = (message: BuildMessage): void => {
    const id = /^ ---> ([0-9a-f]{12,})\s*$/.exec(message.stream ?? '')?.[1];
    if (id) made.add(id);
  };
  // Through the suite's cleanup, which runs while its client is still open; the base image is never removed.
  suite.cleanup(async () => {
    const base = (await suite.client.images.inspect(suite.engines.image)).Id;
    for (const id of [...made].reverse()) {
      const image = await suite.client.images.inspect(id).catch(() => undefined);
      if (!image || image.Id === base) continue;
      await suite.client.images.remove(image.Id, { force: true }).catch(() => undefined);
    }
  });
  after(() => folder.dispose());

  /** Writes the project and its scaffold (base images swapped for the test image); returns the folder. */
  function scaffolded(platform: Platform): string {
    const dir = join(folder.path, platform);
    writeTree(dir, PROJECTS[platform]);
    const topLevel = Object.entries(PROJECTS[platform]).filter((entry): entry is [string, string] => !entry[0].includes('/') && typeof entry[1] === 'string');
    const facts = detect(Object.fromEntries(topLevel), platform).facts;
    for (const file of render(platform, { facts, port: 8080 })) {
      const text = file.path === 'Dockerfile' ? file.text.replace(/^FROM \S+/gm, `FROM ${suite.engines.image}`) : file.text;
      writeFileSync(join(dir, file.path), text);
    }
    return dir;
  }

  void it('generic: builds, and its container lists the folder without what .dockerignore leaves out', async () => {
    const tag = `${repository}:generic`;
    const result = await buildImage(suite.client, { contextDir: scaffolded('generic'), tags: [tag], networkMode: 'none', onMessage: collect });
    assert.ok(result.imageId, 'the build produced an image');
    const image = await suite.client.images.inspect(tag);
    assert.deepEqual(image.Config?.Cmd, ['sh', '-c', 'ls -l /app']);
    assert.equal(image.Config?.WorkingDir, '/app');
    assert.deepEqual(Object.keys(image.Config?.ExposedPorts ?? {}), ['8080/tcp']);

    const id = await suite.createContainer(['sh', '-c', 'cd /app && find . | sort'], { Image: tag });
    await suite.client.containers.start(id);
    assert.equal((await (await suite.client.containers.wait(id)).result).StatusCode, 0);
    const chunks: OutputChunk[] = [];
    for await (const chunk of suite.client.containers.logs(id)) chunks.push(chunk);
    const listing = Buffer.concat(chunks.filter((chunk) => chunk.stream === 'stdout').map((chunk) => chunk.data)).toString('utf8').trim().split('\n');
    // The Dockerfile and .dockerignore travel in the context (the engine needs them) but, being listed in the
    // .dockerignore, dockerd leaves them out of COPY, as docker documents; .git and *.log never reach the engine.
    assert.deepEqual(listing, ['.', './README.md', './notes', './notes/today.txt']);
  });

  for (const platform of PLATFORMS.filter((each) => each !== 'generic')) {
    void it(`${platform}: parsed and copied by dockerd, stopped only by its first RUN (the platform's tools are missing)`, async () => {
      const steps: string[] = [];
      await assert.rejects(
        buildImage(suite.client, {
          contextDir: scaffolded(platform),
          tags: [`${repository}:${platform}`],
          networkMode: 'none',
          onMessage: (message) => {
            collect(message);
            if (message.stream?.startsWith('Step ')) steps.push(message.stream.trim());
          },
        }),
        (error: Error) => {
          assert.match(error.message, /returned a non-zero code: 127 \(in Step \d+\/\d+ : RUN /, error.message);
          return true;
        },
      );
      const copies = steps.filter((step) => / : COPY /.test(step));
      assert.ok(copies.length > 0 && steps.findIndex((step) => / : RUN /.test(step)) > steps.findIndex((step) => / : COPY /.test(step)), steps.join('\n'));
    });
  }
});
