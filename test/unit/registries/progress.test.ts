// Pure parts of Tag/Push/Pull: summing layer progress, splitting repo:tag, validating a new tag, and telling an
// auth refusal from other failures.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { EngineError } from '../../../src/engine/connection';
import { RegistryError } from '../../../src/engine/registry';
import { isRegistryAuthFailure } from '../../../src/registries/authRetry';
import { splitRepoTag } from '../../../src/common/imageName';
import { LayerProgress } from '../../../src/common/layerProgress';
import { tagReferenceProblem } from '../../../src/registries/registryEngine';

void describe('LayerProgress', () => {
  void it('sums current/total over layers and counts finished ones; reads the pushed digest', () => {
    const progress = new LayerProgress();
    const digest = `sha256:${'ab'.repeat(32)}`;
    const lines = [
      { status: 'The push refers to repository [127.0.0.1:5055/a/b]' },
      { status: 'Preparing', id: 'l1' },
      { status: 'Preparing', id: 'l2' },
      { status: 'Pushing', id: 'l1', progressDetail: { current: 100, total: 1000 } },
      { status: 'Pushing', id: 'l2', progressDetail: { current: 50, total: 200 } },
      { status: 'Pushing', id: 'l1', progressDetail: { current: 600, total: 1000 } },
    ];
    for (const line of lines) progress.update(line);
    assert.deepEqual(progress.totals, { current: 650, total: 1200, layers: 2, doneLayers: 0 });
    progress.update({ status: 'Pushed', id: 'l2', progressDetail: {} });
    progress.update({ status: 'Layer already exists', id: 'l1', progressDetail: {} });
    assert.equal(progress.update({ status: `latest: digest: ${digest} size: 527`, id: 'latest' }), false);
    assert.deepEqual(progress.totals, { current: 1200, total: 1200, layers: 2, doneLayers: 2 });
    assert.equal(progress.digest, digest);
  });

  void it('takes the digest from an aux line too', () => {
    const progress = new LayerProgress();
    progress.update({ progressDetail: {}, aux: { Digest: `sha256:${'0'.repeat(64)}` } });
    assert.equal(progress.digest, `sha256:${'0'.repeat(64)}`);
  });
});

void describe('tag references', () => {
  void it('splits at the last colon after the last slash', () => {
    assert.deepEqual(splitRepoTag('127.0.0.1:5055/team/app:1.0'), { repo: '127.0.0.1:5055/team/app', tag: '1.0' });
    assert.deepEqual(splitRepoTag('127.0.0.1:5055/team/app'), { repo: '127.0.0.1:5055/team/app', tag: undefined });
    assert.deepEqual(splitRepoTag('app:latest'), { repo: 'app', tag: 'latest' });
  });

  void it('refuses empty, invalid and digest references with a reason', () => {
    assert.match(tagReferenceProblem('  ') ?? '', /Enter a reference/);
    assert.match(tagReferenceProblem('Team/App:1') ?? '', /Invalid image reference/);
    assert.match(tagReferenceProblem(`app@sha256:${'a'.repeat(64)}`) ?? '', /cannot contain a digest/);
    assert.equal(tagReferenceProblem('127.0.0.1:5055/team/app:1.0'), undefined);
  });
});

void describe('isRegistryAuthFailure', () => {
  void it('recognizes the engine and registry refusals, not other failures', () => {
    assert.ok(isRegistryAuthFailure(new EngineError('server', 'pull failed', { engineMessage: 'Head "http://r/v2/a/manifests/1": no basic auth credentials' })));
    assert.ok(isRegistryAuthFailure(new EngineError('unauthorized', 'denied')));
    assert.ok(isRegistryAuthFailure(new RegistryError('unauthorized', 'r', 'refused')));
    assert.ok(!isRegistryAuthFailure(new EngineError('not-found', 'manifest for r/a:1 not found: manifest unknown')));
    assert.ok(!isRegistryAuthFailure(new Error('unauthorized')), 'only typed engine/registry errors count');
  });
});
