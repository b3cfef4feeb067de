// Image references and container names: normalization, and a specific message for each kind of bad input.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  EngineError,
  assertValidContainerName,
  familiarName,
  parseImageReference,
  pullParameters,
  validateContainerName,
  validateImageReference,
  validateVolumeName,
} from '../../../../src/engine';
import { offerForTyped } from '../../../../src/images/typedImage';
import { workbenchMessage } from '../../../engine/engine/bad-input-workbench-cases';

const digest = 'sha256:' + 'ab'.repeat(32);

void describe('parseImageReference', () => {
  void it('normalizes Docker Hub names', () => {
    assert.deepEqual(parseImageReference('busybox'), {
      registry: 'docker.io',
      repository: 'library/busybox',
      tag: undefined,
      digest: undefined,
      name: 'docker.io/library/busybox',
    });
    assert.equal(parseImageReference('user/app:1.2').repository, 'user/app');
    assert.equal(parseImageReference('index.docker.io/user/app').registry, 'docker.io');
  });

  void it('tells a registry port from a tag: the tag follows the last ":" after the last "/"', () => {
    const withPort = parseImageReference('127.0.0.1:5055/team/app');
    assert.equal(withPort.registry, '127.0.0.1:5055');
    assert.equal(withPort.repository, 'team/app');
    assert.equal(withPort.tag, undefined);
    const withBoth = parseImageReference('127.0.0.1:5055/team/app:2.0');
    assert.equal(withBoth.registry, '127.0.0.1:5055');
    assert.equal(withBoth.tag, '2.0');
    assert.equal(parseImageReference('localhost/app').registry, 'localhost');
    assert.equal(parseImageReference('localhost:5000/app:v1').tag, 'v1');
  });

  void it('parses digests, with or without a tag', () => {
    const pinned = parseImageReference(`ghcr.io/org/app:1.0@${digest}`);
    assert.equal(pinned.registry, 'ghcr.io');
    assert.equal(pinned.tag, '1.0');
    assert.equal(pinned.digest, digest);
    assert.deepEqual(pullParameters(pinned), { fromImage: 'ghcr.io/org/app', tag: digest });
  });

  void it('derives pull parameters like the Go client (latest by default, familiar Hub names)', () => {
    assert.deepEqual(pullParameters(parseImageReference('busybox')), { fromImage: 'busybox', tag: 'latest' });
    assert.deepEqual(pullParameters(parseImageReference('127.0.0.1:5055/berth/busybox:1.0')), {
      fromImage: '127.0.0.1:5055/berth/busybox',
      tag: '1.0',
    });
    assert.equal(familiarName(parseImageReference('docker.io/library/alpine')), 'alpine');
  });

  void it('gives a specific message for each kind of bad reference', () => {
    const cases: Array<[string, string]> = [
      ['', 'Invalid image reference "": it is empty'],
      ['my image', 'Invalid image reference "my image": it contains whitespace'],
      ['https://registry.example.com/app', 'leave out the scheme'],
      ['MyApp', 'the repository name must be lowercase'],
      ['registry.example.com/Team/app', 'the repository name must be lowercase'],
      ['app:', 'the tag after ":" is empty'],
      ['app:-bad', '"-bad" is not a valid tag'],
      ['app@sha256:123', '"sha256:123" is not a digest'],
      ['team//app', 'it has an empty path component'],
      ['team/app/', 'it has an empty path component'],
      ['app_-x', '"app_-x" may hold only lowercase letters, digits'],
      ['registry.example.com:port/app', 'has a port that is not a number'],
      ['bad_host.example.com/app', 'registry host "bad_host.example.com" is not a valid host name'],
      [':tag', 'the repository name is missing'],
    ];
    for (const [reference, message] of cases) {
      const problem = validateImageReference(reference);
      assert.ok(problem?.includes(message), `${JSON.stringify(reference)}: got ${problem}`);
      assert.throws(
        () => parseImageReference(reference),
        (error: unknown) => error instanceof EngineError && error.kind === 'bad-request' && error.message === problem,
      );
    }
  });

  void it('accepts valid references without complaint', () => {
    for (const reference of ['busybox', 'a/b/c:1', 'x.io:443/a__b/c-d.e:V1_2', `app@${digest}`, '[::1]:5000/app']) {
      assert.equal(validateImageReference(reference), undefined, reference);
    }
  });
});

void describe('validateContainerName', () => {
  void it('accepts what the engine accepts, including a leading slash', () => {
    for (const name of ['ab', 'web-1', 'my_app.v2', '/db', '0x']) assert.equal(validateContainerName(name), undefined, name);
  });

  void it('says exactly what is wrong', () => {
    assert.equal(validateContainerName(''), 'Invalid container name "": it is empty');
    assert.equal(validateContainerName('a'), 'Invalid container name "a": it must be at least 2 characters long');
    assert.equal(validateContainerName('-web'), 'Invalid container name "-web": it must start with an ASCII letter or a digit');
    assert.equal(validateContainerName('über'), 'Invalid container name "über": it must start with an ASCII letter or a digit');
    assert.equal(validateContainerName('web app'), 'Invalid container name "web app": " " is not allowed (use letters, digits, "_", "." and "-")');
    assert.equal(validateContainerName('wéb'), 'Invalid container name "wéb": "é" is not ASCII (use ASCII letters, digits, "_", "." and "-")');
    assert.throws(() => assertValidContainerName('x/y'), /"\/" is not allowed/);
  });
});

void describe('validateVolumeName (Create Volume, as typed)', () => {
  void it('accepts what dockerd accepts, and empty (the engine picks a name)', () => {
    for (const name of ['', 'ab', 'my-data', 'cache_1.v2', '0x']) assert.equal(validateVolumeName(name), undefined, name);
  });

  void it("refuses what dockerd refuses, saying what is wrong (its rule: [a-zA-Z0-9][a-zA-Z0-9_.-]+)", () => {
    assert.equal(validateVolumeName('bad/name'), workbenchMessage('volume-create-name-typed', {}));
    assert.equal(validateVolumeName('a'), 'Invalid volume name "a": it must be at least 2 characters long');
    assert.equal(validateVolumeName('.hidden'), 'Invalid volume name ".hidden": it must start with an ASCII letter or a digit');
    assert.equal(validateVolumeName('/data'), 'Invalid volume name "/data": it must start with an ASCII letter or a digit');
    assert.equal(validateVolumeName('dätä'), 'Invalid volume name "dätä": "ä" is not ASCII (use ASCII letters, digits, "_", "." and "-")');
  });
});

void describe("the Run image pick's offer for typed text", () => {
  void it('an invalid reference is refused with the reason, never offered as "pull if missing"', () => {
    assert.deepEqual(offerForTyped('Ünïcode/ímage', []), { kind: 'invalid', reference: 'Ünïcode/ímage', reason: workbenchMessage('run-image-typed-invalid', {}) });
    assert.equal(offerForTyped('busybox:', []).kind, 'invalid');
  });

  void it('a valid reference is offered for a pull; a local tag and empty text add nothing', () => {
    assert.deepEqual(offerForTyped(' 127.0.0.1:5055/berth/app:1 ', []), { kind: 'pull', reference: '127.0.0.1:5055/berth/app:1' });
    assert.deepEqual(offerForTyped('busybox:latest', ['busybox:latest']), { kind: 'local' });
    assert.deepEqual(offerForTyped('  ', []), { kind: 'nothing' });
  });
});
