// Keystrokes typed into Attach Shell before a shell is known to run: held, then handed in order to the shell that runs.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { InputQueue } from '../../../src/terminals/shellSession';

void test('input typed before a shell runs is held, then delivered in order to the shell that does run', () => {
  const queue = new InputQueue();
  queue.push('echo $((6*7))');
  queue.push(' > /tmp/answer\r');
  // The bash probe turned out missing: nothing was attached, and detaching keeps holding what is typed.
  queue.detach();
  queue.push('ls\r');
  const sh: string[] = [];
  queue.attach((data) => sh.push(data));
  assert.deepEqual(sh, ['echo $((6*7))', ' > /tmp/answer\r', 'ls\r']);
  queue.push('exit\r');
  assert.deepEqual(sh.at(-1), 'exit\r', 'once attached, input passes straight through');
  queue.detach();
  queue.push('late');
  assert.equal(sh.length, 4, 'after the shell ended nothing is written to it');
});
