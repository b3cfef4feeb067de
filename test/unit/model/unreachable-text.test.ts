import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { UNREACHABLE_REASONS, unreachablePickNotice, unreachableViewMessage } from '../../../src/model/unreachableText';

const nls = JSON.parse(readFileSync(join(__dirname, '../../../package.nls.json'), 'utf8')) as Record<string, string>;

void test("the view's message says the reason in the walkthrough's words, then the endpoint, then where Retry is", () => {
  for (const [reason, words] of Object.entries(UNREACHABLE_REASONS)) {
    for (const view of ['containers', 'images']) {
      const key = `viewsWelcome.berth.${view}.enginestate-unreachable-unreachablereason-${reason}`;
      assert.ok(nls[key]?.startsWith(words), `${key} starts with the message's words: ${nls[key] ?? '(missing)'}`);
    }
  }
  const message = unreachableViewMessage('refused', 'unix:///run/user/1000/podman/podman.sock');
  assert.deepEqual(message.split(' · '), [
    'The container engine refused the connection. Is Docker or Podman running?',
    'Endpoint: unix:///run/user/1000/podman/podman.sock',
    "Retry Connection is in this view's title bar; Open Settings and Show Log are in its … menu.",
  ]);
});

void test('in German, the message says the reason in the German walkthrough\'s words (the bundle @vscode/l10n gets)', async () => {
  const l10n = await import('@vscode/l10n');
  const german = JSON.parse(readFileSync(join(__dirname, '../../../package.nls.de.json'), 'utf8')) as Record<string, string>;
  l10n.config({ contents: readFileSync(join(__dirname, '../../../l10n/bundle.l10n.de.json'), 'utf8') });
  try {
    for (const reason of Object.keys(UNREACHABLE_REASONS) as Array<keyof typeof UNREACHABLE_REASONS>) {
      const [words, endpoint] = unreachableViewMessage(reason, 'unix:///x.sock').split(' · ');
      assert.notEqual(words, UNREACHABLE_REASONS[reason], `${reason}: still English`);
      const key = `viewsWelcome.berth.containers.enginestate-unreachable-unreachablereason-${reason}`;
      assert.ok(german[key]?.startsWith(words ?? '?'), `${key} starts with "${words ?? ''}": ${german[key] ?? '(missing)'}`);
      assert.equal(endpoint, 'Endpunkt: unix:///x.sock');
    }
  } finally {
    l10n.config({ contents: {} });
  }
});

void test("Run Container's image pick says the engine is down and why, instead of an empty list", () => {
  const notice = unreachablePickNotice('docker', 'refused', 'unix:///var/run/docker.sock');
  assert.equal(notice.label, 'docker is not reachable, so no local image is listed');
  assert.deepEqual(notice.detail.split(' · '), [
    'The container engine refused the connection. Is Docker or Podman running?',
    'Endpoint: unix:///var/run/docker.sock',
    "Retry Connection is in the Containers view's title bar.",
  ]);
});
