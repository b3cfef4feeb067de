import { test } from 'node:test';
import assert from 'node:assert/strict';
import { showViewHeader, type ViewHeader } from '../../../src/views/viewHeader';

/** A TreeView's header as VS Code's extension host has it: every message set is sent, changed or not. */
class RecordingHeader implements ViewHeader {
  readonly sets: string[] = [];
  private describedAs: string | undefined;
  private saying: unknown;
  get description(): string | undefined {
    return this.describedAs;
  }
  set description(value: string | undefined) {
    this.sets.push(`description=${String(value)}`);
    this.describedAs = value;
  }
  get message(): unknown {
    return this.saying;
  }
  set message(value: unknown) {
    this.sets.push(`message=${String(value)}`);
    this.saying = value;
  }
}

test('a header shown again unchanged sets nothing, so no message change holds back the refresh after it', () => {
  const view = new RecordingHeader();
  showViewHeader(view, { description: '3 of 10', message: undefined });
  assert.deepEqual(view.sets, ['description=3 of 10'], 'the first description is set; the message was already none');
  showViewHeader(view, { description: '3 of 10', message: undefined });
  showViewHeader(view, { description: '3 of 10', message: undefined });
  assert.deepEqual(view.sets, ['description=3 of 10'], 'keystrokes that leave the header as it was set nothing');
});

test('a changed description or message is set, and only that one', () => {
  const view = new RecordingHeader();
  showViewHeader(view, { description: undefined, message: 'Showing the list saved 2 minutes ago' });
  showViewHeader(view, { description: '2 of 10', message: 'Showing the list saved 2 minutes ago' });
  showViewHeader(view, { description: '2 of 10', message: undefined });
  assert.deepEqual(view.sets, ['message=Showing the list saved 2 minutes ago', 'description=2 of 10', 'message=undefined']);
  assert.equal(view.message, undefined);
  assert.equal(view.description, '2 of 10');
});

test('a header with only one part leaves the other as it is', () => {
  const view = new RecordingHeader();
  showViewHeader(view, { description: '1 of 4', message: 'No registries yet' });
  showViewHeader(view, { message: undefined });
  showViewHeader(view, { description: '2 of 4' });
  assert.deepEqual(view.sets, ['description=1 of 4', 'message=No registries yet', 'message=undefined', 'description=2 of 4']);
  assert.equal(view.description, '2 of 4', 'a message-only header kept the description');
});
