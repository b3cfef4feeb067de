/**
 * What an engine event means for the model. Docker and Podman name some actions differently
 * (`die`/`died`, `destroy`/`remove`), and some carry a suffix (`health_status: healthy`, `exec_start: sh`),
 * so only the part before the first `:` is compared.
 */
import type { EngineEvent } from '../engine';

/**
 * - `refetch`: fetch that one container again (an inspect). For a container stopping this is also the barrier:
 *   Docker emits `die` before its list view has the new state, but inspect waits for the container's lock,
 *   which the engine holds until the state is recorded;
 * - `remove`: delete it locally.
 */
export type ContainerEffect = 'refetch' | 'remove' | 'ignore';

/** Container actions that change nothing the views show. */
const IGNORED_CONTAINER_ACTIONS = new Set([
  'exec_create',
  'exec_start',
  'exec_die',
  'exec_detach',
  'attach',
  'detach',
  'resize',
  'top',
  'archive-path',
  'extract-to-dir',
  'export',
  'copy',
  'commit',
  'checkpoint',
  'prune',
  'mount',
  'unmount',
]);

const REMOVED_CONTAINER_ACTIONS = new Set(['destroy', 'remove']);

export function baseAction(action: string): string {
  const colon = action.indexOf(':');
  return (colon === -1 ? action : action.slice(0, colon)).trim();
}

export function containerEffect(action: string): ContainerEffect {
  const base = baseAction(action);
  if (REMOVED_CONTAINER_ACTIONS.has(base)) return 'remove';
  if (IGNORED_CONTAINER_ACTIONS.has(base)) return 'ignore';
  // Everything else (create, start, die/died, stop, kill, pause, restart, rename, health_status, oom, …)
  // may change what the views show; unknown actions are refetched rather than missed.
  return 'refetch';
}

/** Image actions that change nothing the views show. */
const IGNORED_IMAGE_ACTIONS = new Set(['push', 'save', 'prune', 'mount', 'unmount']);

/**
 * Every other image event (pull, tag, untag, delete/remove, import, load, build) is answered by inspecting the
 * image the event names (its id, bare hex on Podman): what the engine says now is the truth whatever order the
 * events came in. A 404 for that id removes the image locally; the tags it lost go with it.
 */
export function imageNeedsRefetch(action: string): boolean {
  return !IGNORED_IMAGE_ACTIONS.has(baseAction(action));
}

/** The image a container `commit` event created, when the engine says (Docker puts it in `imageID`). */
export function isCommitEvent(event: EngineEvent): boolean {
  return event.Type === 'container' && baseAction(event.Action) === 'commit';
}

export function committedImage(event: EngineEvent): string | undefined {
  if (!isCommitEvent(event)) return undefined;
  const attributes = event.Actor.Attributes ?? {};
  return attributes['imageID'] || attributes['imageRef'] || undefined;
}
