// The logs follower's moves between states (issue 34 item 9): every state on every input it can take, and a refusal
// for an input its step cannot end with.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { nextFollowState, stateFor, type FollowInput, type FollowState, type SeenContainer } from '../../../src/logs/followerStates';

const seen = (container: SeenContainer): FollowInput => ({ kind: 'seen', ...container });
const running: SeenContainer = { running: true, newRun: false, cut: false };
const stoppedShown: SeenContainer = { running: false, newRun: false, cut: false };
const stoppedNewRun: SeenContainer = { running: false, newRun: true, cut: false };
const runningCut: SeenContainer = { running: true, newRun: false, cut: true };
const stoppedCut: SeenContainer = { running: false, newRun: false, cut: true };
const stoppedCutNewRun: SeenContainer = { running: false, newRun: true, cut: true };

void describe('stateFor: where a container state leads', () => {
  const cases: Array<[string, SeenContainer, FollowState]> = [
    ['running: its run is followed', running, 'following'],
    ['stopped, its run already read: wait for a start', stoppedShown, 'waiting'],
    ['stopped after a run not read yet: that run is read', stoppedNewRun, 'following'],
    ['running after an outage: the follow resumes', runningCut, 'following'],
    ['stopped during an outage: the rest is drained, not followed', stoppedCut, 'draining'],
    ['stopped during an outage after a new run: still drained', stoppedCutNewRun, 'draining'],
  ];
  for (const [name, container, expected] of cases) void test(name, () => assert.equal(stateFor(container), expected));
});

void describe('nextFollowState: each state on each input', () => {
  // Following and waiting end alike: with the container seen again, its removal, or the engine gone.
  const afterAStep = (from: FollowState): Array<[FollowState, FollowInput, FollowState]> => [
    [from, seen(running), 'following'],
    [from, seen(stoppedShown), 'waiting'],
    [from, seen(stoppedNewRun), 'following'],
    [from, { kind: 'removed' }, 'done'],
    [from, { kind: 'finished' }, 'done'],
    [from, { kind: 'unreachable' }, 'outage'],
  ];
  const table: Array<[FollowState, FollowInput, FollowState]> = [
    ...afterAStep('following'),
    ...afterAStep('waiting'),
    ['draining', { kind: 'drained' }, 'waiting'],
    ['draining', { kind: 'unreachable' }, 'outage'],
    ['outage', seen(runningCut), 'following'],
    ['outage', seen(stoppedCut), 'draining'],
    ['outage', seen(stoppedCutNewRun), 'draining'],
    ['outage', { kind: 'removed' }, 'done'],
  ];
  for (const [from, input, to] of table) {
    const detail = input.kind === 'seen' ? ` (${stateFor(input)} container)` : '';
    void test(`${from} + ${input.kind}${detail} -> ${to}`, () => assert.equal(nextFollowState(from, input), to));
  }

  const refused: Array<[FollowState, FollowInput]> = [
    ['following', { kind: 'drained' }],
    ['waiting', { kind: 'drained' }],
    ['outage', { kind: 'drained' }],
    ['outage', { kind: 'unreachable' }],
    ['outage', { kind: 'finished' }],
    ['draining', seen(running)],
    ['draining', { kind: 'removed' }],
    ['draining', { kind: 'finished' }],
    ['done', seen(running)],
    ['done', { kind: 'removed' }],
  ];
  for (const [from, input] of refused) {
    void test(`${from} refuses ${input.kind}`, () => assert.throws(() => nextFollowState(from, input), new RegExp(`cannot take '${input.kind}'`)));
  }
});
