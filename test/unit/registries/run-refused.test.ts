// The message of a Run whose pull the registry refused and the user did not sign in (issue 20, item 7): it names the
// registry and the image, says nothing was created, and ends with the engine's own words (which say what to do).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { runRefusedMessage } from '../../../src/registries/authRetry';

void describe('runRefusedMessage', () => {
  void it('names the registry the reference points at, and keeps the engine\'s words whole', () => {
    const engine = 'Head "http://127.0.0.1:5191/v2/berth/busybox/manifests/1.0": no basic auth credentials. Sign in to the registry and try again';
    assert.equal(
      runRefusedMessage('127.0.0.1:5191/berth/busybox:1.0', engine),
      `127.0.0.1:5191 refused the pull of 127.0.0.1:5191/berth/busybox:1.0, so nothing was created: ${engine}`,
    );
  });

  void it('an image without a registry host is Docker Hub\'s', () => {
    assert.match(runRefusedMessage('team/app:1', 'unauthorized'), /^docker\.io refused the pull of team\/app:1, so nothing was created: unauthorized$/);
  });
});
