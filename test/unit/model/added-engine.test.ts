// Add Engine's confirmation (issue 20): where the entry went, whether its row was selected, and never a password
// that the host URL carried.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { addedEngineMessage } from '../../../src/model/engineList';

void describe('addedEngineMessage', () => {
  void it('says where the entry went and that its row is selected', () => {
    assert.equal(
      addedEngineMessage('build', 'ssh://me@build-host', 'user settings', true),
      'Added the engine "build" (ssh://me@build-host) to berth.engines in the user settings. Its row is selected in the Containers view.',
    );
  });

  void it('says nothing of a row when none was selected (one engine shows no engine rows)', () => {
    assert.equal(addedEngineMessage('p', 'unix:///run/p.sock', 'user settings', false), 'Added the engine "p" (unix:///run/p.sock) to berth.engines in the user settings.');
  });

  void it('a password in the host never reaches the message', () => {
    const message = addedEngineMessage('t', 'tcp://me:s3cret@build-host:2376', 'user settings', true);
    assert.ok(!message.includes('s3cret'), message);
    assert.match(message, /tcp:\/\/me:\*\*\*@build-host:2376/);
  });
});
