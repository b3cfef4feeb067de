/**
 * A container's row from its `create` event, before the inspect answers. The event names the container, the image it
 * was created from and its labels (Docker and Podman put the labels among the event's attributes), and a container
 * that was only just created has no run, ports or mounts yet: it reads `Created`, as `docker ps` words it. The model
 * shows that row at once and inspects the container as for any event, which fills in the rest (command, image id,
 * mounts) a round trip later. That round trip, and the batch window, are then no longer between `docker create` and
 * the row. No `vscode` here.
 */
import type { ContainerSummary, EngineEvent } from '../engine';
import type { Listener } from '../common/emitter';
import { baseAction } from './actions';

/** Attributes the engines add to a container event that are not the container's labels. */
const NOT_LABELS = new Set([
  'name',
  'image',
  // Podman's, on every container event.
  'containerExitCode',
  'podId',
]);

/** The listing row a `create` event describes, or undefined for any other event (or one that names no container). */
export function summaryFromCreateEvent(event: EngineEvent): ContainerSummary | undefined {
  if (event.Type !== 'container' || baseAction(event.Action) !== 'create') return undefined;
  const attributes = event.Actor?.Attributes ?? {};
  const id = event.Actor?.ID;
  const name = attributes['name'];
  const image = attributes['image'];
  if (!id || !name || image === undefined) return undefined;
  const labels: Record<string, string> = {};
  for (const [key, value] of Object.entries(attributes)) if (!NOT_LABELS.has(key)) labels[key] = value;
  return {
    Id: id,
    Names: [name.startsWith('/') ? name : `/${name}`],
    Image: image,
    // Not in the event: the inspect brings it (a container without one counts towards no image meanwhile).
    ImageID: '',
    Command: '',
    Created: event.time,
    Ports: [],
    Labels: labels,
    State: 'created',
    Status: 'Created',
  };
}

/**
 * The rows the model made from create events, until each one's inspect replaces it: such a row is not a `previous` to
 * keep fields from, a tooltip waits for its inspect, and the view need not draw it again when the inspect changes
 * nothing shown. Held weakly, so a replaced row is forgotten with it. The one place that says whether a row is one.
 */
export class CreateEventRows {
  readonly #rows = new WeakSet<ContainerSummary>();

  add(summary: ContainerSummary): void {
    this.#rows.add(summary);
  }

  /** Whether SUMMARY is a row made from a create event that its inspect has not completed yet. */
  has(summary: ContainerSummary | undefined): boolean {
    return summary !== undefined && this.#rows.has(summary);
  }

  /**
   * Resolves once CURRENT() is no longer such a row, checked on each ON_CHANGE, or after TIMEOUT_MS (an inspect that
   * failed leaves the row as the event gave it); at once when it is not one now.
   */
  whenCompleted(current: () => ContainerSummary | undefined, onChange: Listener<unknown>, timeoutMs: number): Promise<void> {
    if (!this.has(current())) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        listener.dispose();
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      const listener = onChange(() => {
        if (!this.has(current())) done();
      });
    });
  }
}
