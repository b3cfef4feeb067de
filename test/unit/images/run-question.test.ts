// What Run asks an outside caller (src/images/runQuestion.ts): every value that decides the container's reach, the
// environment by name only.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { runQuestionDetail } from '../../../src/images/runQuestion';

void describe('runQuestionDetail', () => {
  void it('shows the image, command, mounts, environment names, ports, network and flags', () => {
    const detail = runQuestionDetail({
      image: 'busybox',
      cmd: ['sh', '-c', 'cat /host/etc/shadow'],
      engine: 'settings:remote',
      options: { volumes: ['/:/host', 'data:/data:ro'], env: ['TOKEN=s3cret', 'GITHUB_TOKEN'], envFiles: ['/home/me/.env'], ports: ['0.0.0.0:22:22'], network: 'host', user: 'root' },
      autoRemove: true,
    }).split('\n');
    for (const line of [
      'Image: busybox',
      'Engine: settings:remote',
      'Command: sh, -c, cat /host/etc/shadow',
      'Mounts: /:/host, data:/data:ro',
      "Environment: TOKEN, GITHUB_TOKEN (its value from this machine's environment)",
      'Environment files: /home/me/.env',
      'Ports: 0.0.0.0:22:22',
      'Network: host',
      'User: root',
      'Flags: removed when it exits',
    ]) {
      assert.ok(detail.includes(line), `missing "${line}" in:\n${detail.join('\n')}`);
    }
    assert.ok(!detail.join('\n').includes('s3cret'), 'an environment value is shown');
  });

  void it('shows a value of the wrong type as it is, and a newline cannot add a line', () => {
    const detail = runQuestionDetail({ image: 'busybox', options: { volumes: '/:/host\nNetwork: none' } }).split('\n');
    assert.ok(detail.includes('Mounts: /:/host\\u{a}Network: none'), detail.join('\n'));
    assert.ok(!detail.includes('Network: none'));
  });
});
