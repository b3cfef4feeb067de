import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  insecureCredentialTransport,
  parseLinkNext,
  parseRegistryAddress,
  parseRegistryErrorBody,
  parseWwwAuthenticate,
  RegistryClient,
  RegistryError,
} from '../../../../src/engine/registry';

void test('parseLinkNext: the distribution registry form', () => {
  assert.equal(parseLinkNext('</v2/_catalog?last=berth%2Fa&n=1>; rel="next"'), '/v2/_catalog?last=berth%2Fa&n=1');
});

void test('parseLinkNext: unquoted rel, several links, several relation types', () => {
  assert.equal(parseLinkNext('</v2/x/tags/list?n=2&last=b>; rel=next'), '/v2/x/tags/list?n=2&last=b');
  assert.equal(
    parseLinkNext('<https://r.example/v2/_catalog?last=a>; rel="prev", <https://r.example/v2/_catalog?last=z>; title="t"; rel="last next"'),
    'https://r.example/v2/_catalog?last=z',
  );
  assert.equal(parseLinkNext(['</a>; rel="prev"', '</b>; rel="next"']), '/b');
});

void test('parseLinkNext: no next page', () => {
  assert.equal(parseLinkNext(undefined), undefined);
  assert.equal(parseLinkNext(''), undefined);
  assert.equal(parseLinkNext('</v2/_catalog?last=a>; rel="prev"'), undefined);
  assert.equal(parseLinkNext('</v2/_catalog?last=a>; rel="nextish"'), undefined);
});

void test('parseWwwAuthenticate: Bearer challenge with quoted, comma-holding scope', () => {
  const [challenge, ...rest] = parseWwwAuthenticate(
    'Bearer realm="https://auth.example.com/token",service="registry.example.com",scope="repository:a/b:pull,push"',
  );
  assert.equal(rest.length, 0);
  assert.equal(challenge?.scheme, 'bearer');
  assert.deepEqual(challenge?.params, {
    realm: 'https://auth.example.com/token',
    service: 'registry.example.com',
    scope: 'repository:a/b:pull,push',
  });
});

void test('parseWwwAuthenticate: Basic realm, several challenges, escapes, error params', () => {
  assert.deepEqual(parseWwwAuthenticate('Basic realm="Registry Realm"'), [{ scheme: 'basic', params: { realm: 'Registry Realm' } }]);
  const both = parseWwwAuthenticate([
    'Bearer realm="https://a/t", error="invalid_token", error_description="say \\"hi\\""',
    'Basic realm=simple',
  ]);
  assert.deepEqual(
    both.map((c) => c.scheme),
    ['bearer', 'basic'],
  );
  assert.equal(both[0]?.params.error, 'invalid_token');
  assert.equal(both[0]?.params.error_description, 'say "hi"');
  assert.equal(both[1]?.params.realm, 'simple');
  assert.deepEqual(parseWwwAuthenticate(undefined), []);
});

void test('parseRegistryErrorBody: errors[].message and codes, or a short plain text', () => {
  const parsed = parseRegistryErrorBody(
    '{"errors":[{"code":"UNAUTHORIZED","message":"authentication required","detail":[{"Type":"registry","Class":"","Name":"catalog","Action":"*"}]}]}\n',
  );
  assert.deepEqual(parsed, { messages: ['authentication required'], codes: ['UNAUTHORIZED'] });
  assert.deepEqual(parseRegistryErrorBody('404 page not found\n'), { messages: ['404 page not found'], codes: [] });
  assert.deepEqual(parseRegistryErrorBody('<html>…</html>'), { messages: [], codes: [] });
});

void test('parseRegistryAddress: scheme by loopback, explicit schemes, Docker Hub', () => {
  assert.deepEqual(
    { ...parseRegistryAddress('127.0.0.1:5055') },
    { key: '127.0.0.1:5055', origin: 'http://127.0.0.1:5055', scheme: 'http', hostname: '127.0.0.1', loopback: true },
  );
  assert.equal(parseRegistryAddress('Registry.Example.com').origin, 'https://registry.example.com');
  assert.equal(parseRegistryAddress('http://203.0.113.1:5000').scheme, 'http');
  assert.equal(parseRegistryAddress('https://localhost:5000').origin, 'https://localhost:5000');
  const hub = parseRegistryAddress('https://index.docker.io/v1/');
  assert.equal(hub.key, 'docker.io');
  assert.equal(hub.origin, 'https://registry-1.docker.io');
  assert.throws(() => parseRegistryAddress('https://user:hunter2@r.example'), (error: unknown) => {
    assert.ok(error instanceof RegistryError);
    assert.doesNotMatch(error.message, /hunter2/);
    return true;
  });
});

void test('insecureCredentialTransport: only HTTPS or loopback', () => {
  assert.equal(insecureCredentialTransport('https://r.example/v2/'), undefined);
  assert.equal(insecureCredentialTransport('http://127.0.0.1:5055/v2/'), undefined);
  assert.match(insecureCredentialTransport('http://203.0.113.1:5000/v2/') ?? '', /Refusing to send credentials to 203\.0\.113\.1:5000 over plain HTTP/);
});

void test('RegistryClient refuses credentials for a plain-HTTP, non-loopback registry at construction', () => {
  assert.throws(
    () => new RegistryClient({ address: 'http://203.0.113.1:5000', auth: { username: 'u', password: 'sekrit-pw' } }),
    (error: unknown) => {
      assert.ok(error instanceof RegistryError);
      assert.equal(error.kind, 'insecure');
      assert.match(error.message, /plain HTTP/);
      assert.doesNotMatch(error.message, /sekrit-pw/);
      return true;
    },
  );
});
