/**
 * The logs follower's states and the one table of moves between them. Each state is a step that does its reading
 * and ends with an input; this table alone picks the next state, so that the follower's loop is not steered by
 * flags tested in a fixed order. Pure, so that every move can be tested without an engine.
 *
 * - following: the run shown is streamed live until the engine ends the stream.
 * - draining: after an outage that left the container stopped, the rest of that run is read up to its end, unfollowed.
 * - waiting: the container is stopped; its exit is announced once and the follower waits for its next start.
 * - outage: the engine went away; the follower waits for it and learns the container's state again.
 */

export type FollowState = 'following' | 'draining' | 'waiting' | 'outage' | 'done';

/** The container's state as the moves need it. */
export interface SeenContainer {
  readonly running: boolean;
  /** It has run since the run shown, which was not read yet. */
  readonly newRun: boolean;
  /** An outage cut the stream: what the run wrote after the last line shown is still to read. */
  readonly cut: boolean;
}

export type FollowInput =
  /** The container's state, inspected again after a step. */
  | ({ readonly kind: 'seen' } & SeenContainer)
  /** The rest of the run cut by an outage was read. */
  | { readonly kind: 'drained' }
  | { readonly kind: 'removed' }
  /** Nothing more to show: restarts are not followed. */
  | { readonly kind: 'finished' }
  /** The engine stopped answering. */
  | { readonly kind: 'unreachable' };

/**
 * Where to go for the container's state. A stopped run cut by an outage is read without following: following would
 * stream a run started in the meantime with no "restarted" line before it.
 */
export function stateFor(seen: SeenContainer): 'following' | 'draining' | 'waiting' {
  if (seen.cut && !seen.running) return 'draining';
  return seen.running || seen.cut || seen.newRun ? 'following' : 'waiting';
}

type Moves = { readonly [kind in FollowInput['kind']]?: (input: Extract<FollowInput, { kind: kind }>) => FollowState };

const onSeen = (input: SeenContainer): FollowState => stateFor(input);
const toDone = (): FollowState => 'done';
const toOutage = (): FollowState => 'outage';

/** The moves each state may make; an input missing from a row cannot come from that state's step. */
const moves: { readonly [state in Exclude<FollowState, 'done'>]: Moves } = {
  following: { seen: onSeen, removed: toDone, finished: toDone, unreachable: toOutage },
  draining: { drained: () => 'waiting', unreachable: toOutage },
  waiting: { seen: onSeen, removed: toDone, finished: toDone, unreachable: toOutage },
  // The outage step retries an unreachable engine itself; it ends once the engine answers.
  outage: { seen: onSeen, removed: toDone },
};

export function nextFollowState(state: FollowState, input: FollowInput): FollowState {
  if (state === 'done') throw new Error(`the logs follower has stopped; it cannot take '${input.kind}'`);
  const move = moves[state][input.kind] as ((input: FollowInput) => FollowState) | undefined;
  if (!move) throw new Error(`the logs follower cannot take '${input.kind}' while ${state}`);
  return move(input);
}
