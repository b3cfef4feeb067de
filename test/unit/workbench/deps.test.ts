// A feature's deps (src/workbench/deps.ts) are live views of the core, not copies: its getters and methods keep
// acting on the core after the feature got them.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { extendDeps } from '../../../src/workbench/deps';

void describe('extendDeps', () => {
  void it('adds parts to the core without copying it: getters stay live, methods act on the core', () => {
    class Core {
      private current = 'local';
      get session(): string {
        return this.current;
      }
      switchTo(engine: string): void {
        this.current = engine;
      }
    }
    const core = new Core();
    const deps = extendDeps(core, { view: 'images view' });
    assert.equal(deps.view, 'images view');
    deps.switchTo('remote');
    assert.equal(core.session, 'remote', 'the method changed the core, not a copy');
    core.switchTo('podman');
    assert.equal(deps.session, 'podman', 'the getter reads the core now');
    assert.ok('switchTo' in deps && 'view' in deps);
  });
});
