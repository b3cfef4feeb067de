/**
 * The build workflow (engine/build/build.ts) on the real engines: a cancelled build leaves no request and no build step
 * running on dockerd; BuildKit-only syntax gets a plain message from the classic builder and builds on Podman
 * (Buildah); a base image that cannot be pulled is named with the registry's words.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { buildImage, EngineClient, isEngineError, type BuildMessage } from '../../../src/engine';
import { useEngineSuite } from '../../support/engineSuite';
import { uniqueName } from '../../support/engines';
import { scratchFolder, writeTree } from './support';
import { expectedMessage } from '../engine/bad-input-cases';
import { until } from '../../support/wait';

void describe('build workflow on the private engines', () => {
  const suite = useEngineSuite({ name: 'build-api' });
  const folder = scratchFolder('build-api');
  const marker = uniqueName('cancel').toLowerCase();
  const image = suite.engines.image;
  writeTree(folder.path, {
    'slow/Dockerfile': `FROM ${image}\nRUN echo started-${marker} && sleep 60\n`,
    'mount/Dockerfile': `FROM ${image}\nRUN --mount=type=tmpfs,target=/scratch echo mounted > /scratch/x && cat /scratch/x\n`,
    'missing-base/Dockerfile': 'FROM 127.0.0.1:1/berth/nothing-here:1\n',
    'args/Dockerfile': `FROM ${image}\nARG TOKEN\nRUN test -n "$TOKEN" && echo token-length-\${#TOKEN}\n`,
  });
  after(() => folder.dispose());

  void it('cancelling halfway closes the request and the engine stops the build step', async () => {
    const controller = new AbortController();
    const seen: string[] = [];
    const building = buildImage(suite.client, {
      contextDir: join(folder.path, 'slow'),
      networkMode: 'none',
      tags: [`${marker}:never`],
      signal: controller.signal,
      onMessage: (message: BuildMessage) => {
        if (message.stream !== undefined) seen.push(message.stream);
        if (message.stream?.includes(`started-${marker}`)) controller.abort();
      },
    });
    await assert.rejects(building, (error: unknown) => isEngineError(error, 'cancelled'));
    assert.ok(seen.some((line) => line.includes(`started-${marker}`)), 'the RUN step had started');
    const stepRunning = async (): Promise<boolean> =>
      (await suite.client.containers.list({ all: true })).some((container) => container.Command.includes(`started-${marker}`));
    // dockerd stops and removes the step's container once the request is closed (bounded wait, no timing assertion).
    await until('the cancelled build step to be gone', async () => !(await stepRunning()), { timeoutMs: 30_000, intervalMs: 100 });
    await assert.rejects(suite.client.images.inspect(`${marker}:never`), (error: unknown) => isEngineError(error, 'not-found'));
  });

  void it('RUN --mount on dockerd: the classic builder refuses it, and Berth says so plainly', async () => {
    await assert.rejects(
      buildImage(suite.client, { contextDir: join(folder.path, 'mount'), networkMode: 'none' }),
      (error: unknown) => error instanceof Error && error.message === expectedMessage('build-buildkit-syntax'),
    );
  });

  void it('RUN --mount on Podman: Buildah builds it', { skip: suite.engines.podmanHost === undefined ? 'Podman cannot run on this machine' : false }, async () => {
    const podman = EngineClient.fromEnvironment({ host: suite.engines.podmanHost as string, env: {} });
    const tag = `localhost/${marker}:mount`;
    try {
      const lines: string[] = [];
      const result = await buildImage(podman, {
        contextDir: join(folder.path, 'mount'),
        networkMode: 'none',
        tags: [tag],
        // Buildah's cache would skip the RUN, and its output with it.
        noCache: true,
        onMessage: (message) => lines.push(message.stream ?? ''),
      });
      assert.match(lines.join(''), /^mounted$/m);
      assert.ok(result.imageId, 'the build named its image');
      const inspected = await podman.images.inspect(tag);
      assert.ok(inspected.Id.includes((result.imageId).replace(/^sha256:/, '')), `${inspected.Id} is ${String(result.imageId)}`);
    } finally {
      await podman.images.remove(tag, { force: true }).catch(() => undefined);
      await podman.close();
    }
  });

  void it('a FROM that cannot be pulled fails with the engine\'s words', async () => {
    await assert.rejects(
      buildImage(suite.client, { contextDir: join(folder.path, 'missing-base'), networkMode: 'none' }),
      (error: unknown) => isEngineError(error, 'server') && error.message === expectedMessage('build-from-unpullable'),
    );
  });

  void it('build args reach the build, and the debug log shows their names only', async () => {
    const secret = `s3cret-${marker}`;
    const logged: string[] = [];
    const client = suite.otherClient({ host: suite.host, log: (line) => logged.push(line) });
    const lines: string[] = [];
    await buildImage(client, {
      contextDir: join(folder.path, 'args'),
      networkMode: 'none',
      noCache: true,
      buildArgs: { TOKEN: secret },
      onMessage: (message) => lines.push(message.stream ?? ''),
    });
    assert.match(lines.join(''), new RegExp(`token-length-${secret.length}`), 'the build saw the argument');
    const buildLine = logged.find((line) => line.startsWith('POST ') && line.includes('/build?'));
    assert.ok(buildLine, `no build request in the log:\n${logged.join('\n')}`);
    assert.ok(buildLine.includes(`buildargs=${encodeURIComponent(JSON.stringify({ TOKEN: '***' }))}`), buildLine);
    assert.ok(!logged.some((line) => line.includes(secret) || line.includes(encodeURIComponent(secret))), logged.join('\n'));
  });
});
