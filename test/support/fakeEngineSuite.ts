// A node:test suite against an in-process fake engine (fakeEngine.ts): starts it with the given routes and an
// EngineClient on its socket before the tests, closes both after. The fake stays plain Node; the client is Berth's.
import { after, before } from 'node:test';
import { EngineClient, parseHost } from '../../src/engine';
import { startFakeEngine, type FakeEngine, type FakeRoute, type FakeUpgradeRoute } from './fakeEngine';

export interface FakeEngineSuite {
  readonly fake: FakeEngine;
  readonly client: EngineClient;
}

export function useFakeEngine(routes: readonly FakeRoute[], upgrades: readonly FakeUpgradeRoute[] = []): FakeEngineSuite {
  let fake: FakeEngine | undefined;
  let client: EngineClient | undefined;
  before(async () => {
    fake = await startFakeEngine(routes, upgrades);
    client = new EngineClient({ endpoint: parseHost(fake.host, {}) });
  });
  after(async () => {
    await client?.close().catch(() => undefined);
    await fake?.close();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the fake engine is not started yet (use it inside a test)');
    return value;
  };
  return {
    get fake() {
      return started(fake);
    },
    get client() {
      return started(client);
    },
  };
}
