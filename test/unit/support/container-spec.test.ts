// The test containers' create body: NetworkMode is always `none` and the cleanup label always there, whatever a
// caller passes, so no test container can reach a network or escape cleanup.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { containerSpec } from '../../support/containerSpec';

void describe('containerSpec', () => {
  void it('sets the image, the command, the cleanup label and NetworkMode none', () => {
    assert.deepEqual(containerSpec('busybox:local', ['sh', '-c', 'true']), {
      Image: 'busybox:local',
      Cmd: ['sh', '-c', 'true'],
      Labels: { 'berth.test': '1' },
      HostConfig: { NetworkMode: 'none' },
    });
  });

  void it("leaves Cmd out without a command, so the image's default runs", () => {
    assert.equal('Cmd' in containerSpec('busybox:local'), false);
  });

  void it('keeps what the caller adds, but NetworkMode stays none and the cleanup label stays', () => {
    const spec = containerSpec('busybox:local', ['true'], {
      Tty: true,
      Labels: { 'berth.test': '0', team: 'a' },
      HostConfig: { NetworkMode: 'host', RestartPolicy: { Name: 'always' } },
    });
    assert.equal(spec.Tty, true);
    assert.deepEqual(spec.Labels, { 'berth.test': '1', team: 'a' });
    assert.deepEqual(spec.HostConfig, { NetworkMode: 'none', RestartPolicy: { Name: 'always' } });
  });
});
