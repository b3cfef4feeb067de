// The berth-python configuration read from launch.json (debugging/pythonConfiguration.ts): its defaults, and the
// refusals that name the field to fix.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { launchOf } from '../../../src/debugging/pythonConfiguration';
import { EngineError } from '../../../src/engine';
import { badInputCase, expectedMessage } from '../../engine/engine/bad-input-cases';

void describe('berth-python configuration', () => {
  void it('fills in app.py, python3, port 5678, /app, and mounts the workspace folder', () => {
    assert.deepEqual(launchOf({ name: 'py', image: 'app:dev' }, '/home/me/app'), {
      image: 'app:dev',
      program: 'app.py',
      args: [],
      python: 'python3',
      port: 5678,
      remoteRoot: '/app',
      mount: '/home/me/app',
      env: {},
    });
  });

  void it('takes localRoot over the folder, and mounts nothing with mountWorkspace false', () => {
    assert.equal(launchOf({ name: 'py', image: 'a', localRoot: '/src/py' }, '/home/me/app').mount, '/src/py');
    assert.equal(launchOf({ name: 'py', image: 'a', mountWorkspace: false }, '/home/me/app').mount, undefined);
  });

  void it('refuses a missing image and a port that is not one, naming the field (the bad-input rows)', () => {
    const refusal = (id: string, values: Record<string, string> = {}) => (error: unknown) => {
      assert.ok(error instanceof EngineError);
      assert.equal(error.message, expectedMessage(id, values));
      assert.equal(error.kind, badInputCase(id).errorKind);
      return true;
    };
    assert.throws(() => launchOf({ name: 'py' }, undefined), refusal('debug-python-no-image', { config: 'py' }));
    assert.throws(() => launchOf({ name: 'py', image: 'a', port: 70000 }, undefined), refusal('debug-python-bad-port'));
  });
});
