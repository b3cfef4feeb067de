// Reading debugpy's command line and `top` answers (engine/workflows/debugpyServer.ts): the port `-m debugpy --listen`
// names (and the commands that are not a listening debugpy), /proc/net/tcp's listening sockets, and the container a
// berth-python launch runs.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { debugpyLaunchBody, debugpyPortOf, debugpyProcessesOf, listensOn } from '../../../../src/engine/workflows';

void describe('debugpy command lines', () => {
  void it('reads the port of --listen PORT and HOST:PORT, after python options and debugpy options', () => {
    assert.equal(debugpyPortOf(['-m', 'debugpy', '--listen', '0.0.0.0:5678', '--wait-for-client', 'app.py']), 5678);
    assert.equal(debugpyPortOf(['-X', 'frozen_modules=off', '-u', '-m', 'debugpy', '--log-to', '/tmp', '--listen', '5679', 'app.py']), 5679);
    assert.equal(debugpyPortOf(['-mdebugpy', '--configure-subProcess', 'false', '--listen', '127.0.0.1:6000', '-m', 'flask', 'run']), 6000);
    assert.equal(debugpyPortOf(['/usr/lib/python3/dist-packages/debugpy', '--listen', '5680', 'app.py']), 5680);
  });

  void it('is not fooled by debugpy connecting out, its own adapter, another module, or --listen given to the app', () => {
    assert.equal(debugpyPortOf(['-m', 'debugpy', '--connect', '10.0.0.1:5678', 'app.py']), undefined);
    assert.equal(debugpyPortOf(['/usr/lib/python3/dist-packages/debugpy/adapter', '--for-server', '41234', '--host', '0.0.0.0', '--port', '5678']), undefined);
    assert.equal(debugpyPortOf(['-m', 'http.server', '--listen', '8000']), undefined);
    assert.equal(debugpyPortOf(['app.py', '-m', 'debugpy', '--listen', '5678']), undefined);
    assert.equal(debugpyPortOf(['-m', 'debugpy', 'app.py', '--listen', '5678']), undefined);
    assert.equal(debugpyPortOf(['-c', 'import debugpy', '-m', 'debugpy', '--listen', '5678']), undefined);
    assert.equal(debugpyPortOf(['-m', 'debugpy', '--listen', '70000', 'app.py']), undefined);
  });

  void it("finds the listening debugpy processes in dockerd's ps -ef columns and a container's own ps", () => {
    const docker = debugpyProcessesOf({
      Titles: ['UID', 'PID', 'PPID', 'C', 'STIME', 'TTY', 'TIME', 'CMD'],
      Processes: [
        ['root', '4100', '4080', '0', '12:00', '?', '00:00:00', 'python3 -m debugpy --listen 0.0.0.0:5678 --wait-for-client app.py'],
        ['root', '4120', '4100', '0', '12:00', '?', '00:00:00', '/usr/bin/python3 /usr/lib/python3/dist-packages/debugpy/adapter --for-server 41234 --host 0.0.0.0 --port 5678'],
        ['root', '4130', '4080', '0', '12:00', '?', '00:00:00', '/usr/local/bin/python3.12 -m debugpy --listen 5690 worker.py'],
        ['root', '4140', '4080', '0', '12:00', '?', '00:00:00', 'node --inspect app.js'],
      ],
    });
    assert.deepEqual(docker.map((each) => [each.pid, each.port]), [[4100, 5678], [4130, 5690]]);
    const own = debugpyProcessesOf({ Titles: ['PID   USER     TIME  COMMAND'], Processes: [['1 root      0:00 python3 -m debugpy --listen 5678 app.py']] });
    assert.deepEqual(own.map((each) => [each.pid, each.command, each.port]), [[1, 'python3 -m debugpy --listen 5678 app.py', 5678]]);
  });
});

void describe('listening sockets in /proc/net/tcp', () => {
  const TCP = [
    '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode',
    '   0: 00000000:162E 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1 1 0000000000000000 100 0 0 10 0',
    '   1: 0100007F:1F90 0100007F:9C40 01 00000000:00000000 00:00000000 00000000     0        0 2 1 0000000000000000 20 4 30 10 -1',
  ].join('\n');

  void it('says a port listens only in state 0A, whatever the address', () => {
    assert.equal(listensOn(TCP, 5678), true);
    assert.equal(listensOn(TCP, 8080), false, 'an established connection is not a listener');
    assert.equal(listensOn(TCP, 5679), false);
    assert.equal(listensOn('   0: 00000000000000000000000000000000:162F 00000000000000000000000000000000:0000 0A 0', 5679), true, 'tcp6');
  });
});

void describe('the berth-python container', () => {
  void it('runs the program under debugpy waiting for the client, in remoteRoot, with the workspace mounted when asked', () => {
    const launch = { image: 'app:dev', program: 'main.py', args: ['--flag'], python: 'python3', port: 5678, remoteRoot: '/src', mount: '/home/me/app', env: { MODE: 'debug' } };
    assert.deepEqual(debugpyLaunchBody(launch), {
      Image: 'app:dev',
      Cmd: ['python3', '-m', 'debugpy', '--listen', '0.0.0.0:5678', '--wait-for-client', 'main.py', '--flag'],
      WorkingDir: '/src',
      Env: ['MODE=debug'],
      Labels: { 'berth.debug': 'python' },
      HostConfig: { Binds: ['/home/me/app:/src'] },
    });
    assert.deepEqual(debugpyLaunchBody({ ...launch, mount: undefined }).HostConfig, {});
  });
});
