// Reading Node.js inspector flags and `top` answers (engine/workflows/nodeInspector.ts): the ports --inspect, --inspect-brk and
// --inspect-port name, and the node processes in dockerd's, Podman's and a container's own ps columns.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { inspectorPortOf, nodeProcessesOf, signalledInspectorPort } from '../../../../src/engine/workflows';

void describe('inspector flags', () => {
  void it('reads the port of --inspect, --inspect-brk, HOST:PORT, --inspect-port and stops at the script', () => {
    assert.equal(inspectorPortOf(['--inspect', 'app.js']), 9229);
    assert.equal(inspectorPortOf(['--inspect-brk=0.0.0.0:9333', 'app.js']), 9333);
    assert.equal(inspectorPortOf(['--inspect=9400']), 9400);
    assert.equal(inspectorPortOf(['--inspect-port=9500', '--inspect']), 9500);
    assert.equal(inspectorPortOf(['--inspect-port=9500', 'app.js']), undefined);
    assert.equal(inspectorPortOf(['app.js', '--inspect']), undefined);
  });

  void it('a signalled process opens its --inspect-port, else 9229', () => {
    assert.equal(signalledInspectorPort({ pid: 7, command: 'node --inspect-port=9500 app.js', inspectorPort: undefined }), 9500);
    assert.equal(signalledInspectorPort({ pid: 7, command: 'node app.js --inspect-port=9500', inspectorPort: undefined }), 9229);
    assert.equal(signalledInspectorPort({ pid: 7, command: 'node --inspect=9300 app.js', inspectorPort: 9300 }), 9300);
  });

  void it("reads dockerd's ps -ef columns, Podman's, and a container's own ps", () => {
    const docker = nodeProcessesOf({
      Titles: ['UID', 'PID', 'PPID', 'C', 'STIME', 'TTY', 'TIME', 'CMD'],
      Processes: [
        ['root', '4100', '4080', '0', '12:00', '?', '00:00:00', '/bin/sh -c node --inspect=0.0.0.0:9230 app.js'],
        ['root', '4120', '4100', '0', '12:00', '?', '00:00:00', '/usr/local/bin/node --inspect=0.0.0.0:9230 app.js'],
        ['root', '4130', '4100', '0', '12:00', '?', '00:00:00', 'node worker.js'],
      ],
    });
    assert.deepEqual(docker, [
      { pid: 4120, command: '/usr/local/bin/node --inspect=0.0.0.0:9230 app.js', inspectorPort: 9230 },
      { pid: 4130, command: 'node worker.js', inspectorPort: undefined },
    ]);
    const podman = nodeProcessesOf({
      Titles: ['USER', 'PID', 'PPID', '%CPU', 'ELAPSED', 'TTY', 'TIME', 'COMMAND'],
      Processes: [['root', '1', '0', '0.000', '1s', '?', '0s', 'nodejs --inspect-brk server.js']],
    });
    assert.deepEqual(podman, [{ pid: 1, command: 'nodejs --inspect-brk server.js', inspectorPort: 9229 }]);
    // Podman's answer when it falls back to the container's own ps: one title, one string per process.
    const ownPs = nodeProcessesOf({ Titles: ['PID   USER     COMMAND'], Processes: [['1 0        sh -c node x.js'], ['6 0        node --inspect=9230 x.js']] });
    assert.deepEqual(ownPs, [{ pid: 6, command: 'node --inspect=9230 x.js', inspectorPort: 9230 }]);
  });
});

