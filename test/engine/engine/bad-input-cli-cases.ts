// The bad-input rows of the CLI around a run (issue 19): what berth says, word for word, and its exit status, next
// to what docker does on the same engine. Asserted by bad-input-cli.test.ts (docker's side in cli-parity.test.ts and
// cli-pressure.test.ts); part of BAD_INPUT_CASES.
import type { BadInputCase } from './bad-input-cases';

export const CLI_BAD_INPUT_CASES: readonly BadInputCase[] = [
  {
    id: 'cli-network-missing',
    category: 'The CLI around a run',
    action: 'run --network',
    input: 'bogusnet',
    kind: 'error',
    errorKind: 'not-found',
    message: 'network bogusnet not found. Check the network name: give an existing network, or a mode such as none or host',
  },
  {
    id: 'cli-broken-pipe',
    category: 'The CLI around a run',
    action: 'run',
    input: 'berth run --rm <image> <endless output> | head -1',
    kind: 'outcome',
    message: 'write /dev/stdout: broken pipe (exit 1, as docker); the container is stopped, and with --rm the engine removes it',
  },
  {
    id: 'cli-full-disk',
    category: 'The CLI around a run',
    action: 'run',
    input: 'berth run --rm <image> <endless output> > /dev/full',
    kind: 'outcome',
    message: 'write /dev/stdout: no space left on device (exit 1); the container is stopped, and with --rm the engine removes it',
  },
  {
    id: 'cli-tail-not-a-number',
    category: 'The CLI around a run',
    action: 'logs --tail',
    input: 'abc, -1, 1.5',
    kind: 'outcome',
    message: 'No message: every line is printed and the exit status is 0, as with docker (its engine reads such a value as "all")',
  },
  {
    id: 'cli-commit-bad-reference',
    category: 'The CLI around a run',
    action: 'commit',
    input: 'Repo:1',
    kind: 'outcome',
    message: 'invalid reference "Repo:1": repository names must be lowercase. (exit 1, as docker; nothing is committed)',
  },
  {
    id: 'cli-creds-store-missing',
    category: 'The CLI around a run',
    action: 'pull',
    input: '"credsStore": "desktop" (not installed) and an auths entry',
    kind: 'outcome',
    message: 'No message: the pull uses the auths entry, as docker does (BERTH_DEBUG=1 shows that the helper is absent)',
  },
  {
    id: 'cli-format-unparsable',
    category: 'The CLI around a run',
    action: 'ps / images --format',
    input: '{{.ID',
    kind: 'outcome',
    message: 'failed to parse template: template: :1: unclosed action (exit 1, as docker; `images` says "template parsing error:" as docker does; nothing is listed, the engine is not asked)',
  },
  {
    id: 'cli-format-unknown-field',
    category: 'The CLI around a run',
    action: 'ps --format',
    input: '{{.Foo}}',
    kind: 'outcome',
    message: 'failed to execute template: template: :1:2: executing "" at <.Foo>: can\'t evaluate field Foo in type *formatter.ContainerContext. The fields are .Command, .CreatedAt, … (exit 1, as docker, whose message stops before the list)',
  },
];
