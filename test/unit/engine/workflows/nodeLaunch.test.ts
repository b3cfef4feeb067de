// The berth-node launch's pure parts (issue 37): node's command line with the inspector only on the container's
// loopback, the program given relative to the app's folder or as a path inside it, and the refusals of a
// configuration that cannot mean anything (a port out of range, a relative remoteRoot, no program).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkNodeLaunchSpec, EngineError, nodeLaunchCommand, programInContainer } from '../../../../src/engine';

void describe('berth-node launch', () => {
  void it('runs node with the inspector on 127.0.0.1 and the given port, then the program and its arguments', () => {
    assert.deepEqual(nodeLaunchCommand({ program: 'src/app.js', args: ['--port', '3000'], inspectorPort: 9230 }), ['node', '--inspect=127.0.0.1:9230', 'src/app.js', '--port', '3000']);
    assert.deepEqual(nodeLaunchCommand({ program: 'app.js', inspectorPort: 9229 }), ['node', '--inspect=127.0.0.1:9229', 'app.js']);
  });

  void it('makes a program inside the app folder relative to it, and leaves others as given', () => {
    assert.equal(programInContainer('/home/me/app/src/index.js', '/home/me/app'), 'src/index.js');
    assert.equal(programInContainer('src/index.js', '/home/me/app'), 'src/index.js');
    assert.equal(programInContainer('/usr/lib/tool.js', '/home/me/app'), '/usr/lib/tool.js');
    assert.equal(programInContainer('/home/me/app/index.js', undefined), '/home/me/app/index.js');
  });

  void it('refuses a port out of range, a relative remoteRoot and an empty program, and accepts a good spec', () => {
    const refused = (spec: Parameters<typeof checkNodeLaunchSpec>[0], message: RegExp) =>
      assert.throws(() => checkNodeLaunchSpec(spec), (error: unknown) => error instanceof EngineError && error.kind === 'bad-request' && message.test(error.message));
    refused({ program: 'app.js', remoteRoot: '/app', inspectorPort: 0 }, /^Inspector port 0 is not a port/);
    refused({ program: 'app.js', remoteRoot: '/app', inspectorPort: 65536 }, /^Inspector port 65536 is not a port/);
    refused({ program: 'app.js', remoteRoot: 'app', inspectorPort: 9229 }, /^remoteRoot app is not an absolute path/);
    refused({ program: ' ', remoteRoot: '/app', inspectorPort: 9229 }, /^The configuration names no program/);
    assert.doesNotThrow(() => checkNodeLaunchSpec({ program: 'app.js', remoteRoot: '/app', inspectorPort: 65535 }));
  });
});
