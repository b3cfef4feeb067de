import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';

import { isLoopbackUrl, NON_LOOPBACK_WEBSOCKET } from '../../vscode/ports';

// The browser harness refuses websockets with a RegExp (Playwright matches it itself and leaves every other socket
// alone); it must refuse exactly the websockets isLoopbackUrl does not allow.
describe('NON_LOOPBACK_WEBSOCKET', () => {
  it('is a RegExp, which Playwright matches without routing every socket', () => {
    assert.ok(NON_LOOPBACK_WEBSOCKET instanceof RegExp);
  });

  it('refuses these and lets these through', () => {
    const refused = ['ws://192.0.2.1/', 'wss://example.com/socket', 'ws://127.0.0.1.example.com/', 'ws://localhost.example.com:80/', 'ws://10.0.0.1:8080/x', 'ws://127.0.0.1@example.com/', 'ws://[::2]/'];
    const allowed = ['ws://127.0.0.1:8080/stable-abc?reconnectionToken=x', 'wss://localhost/', 'ws://LOCALHOST:1/', 'ws://127.1.2.3', 'ws://[::1]:9000/path', 'ws://localhost#frag'];
    for (const url of refused) assert.equal(NON_LOOPBACK_WEBSOCKET.test(url), true, url);
    for (const url of allowed) assert.equal(NON_LOOPBACK_WEBSOCKET.test(url), false, url);
  });

  it('agrees with isLoopbackUrl on every ws and wss URL', () => {
    const host = fc.oneof(
      fc.constantFrom('localhost', '[::1]', '[::2]', 'example.com', '127.0.0.1.example.com', 'localhost.example.com'),
      fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255)).map((parts) => parts.join('.')),
      fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255)).map((parts) => `127.${parts.join('.')}`),
    );
    const url = fc
      .record({
        scheme: fc.constantFrom('ws', 'wss'),
        user: fc.option(fc.constantFrom('user', 'user:pw'), { nil: undefined }),
        host,
        port: fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined }),
        rest: fc.constantFrom('', '/', '/stable?token=1', '?q', '#f'),
      })
      .map(({ scheme, user, host: name, port, rest }) => `${scheme}://${user ? `${user}@` : ''}${name}${port ? `:${port}` : ''}${rest}`);
    fc.assert(
      fc.property(url, (candidate) => {
        // A URL with user info is refused whatever its host: no workbench socket has one.
        const expected = candidate.includes('@') || !isLoopbackUrl(candidate);
        assert.equal(NON_LOOPBACK_WEBSOCKET.test(candidate), expected, candidate);
      }),
      { numRuns: 500 },
    );
  });
});
