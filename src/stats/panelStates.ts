/**
 * What the Stats panel says about containers that stop or go away while it is open: the charts keep their last
 * figures, so without a word a stopped container looks like an idle one. States come from the engine model the views
 * already follow (no extra engine call). No `vscode` here.
 */
import { isRunningState } from '../model/records';

/** The state word the model gives, or `removed` when the model no longer has the container. */
export interface ObservedState {
  readonly id: string;
  readonly name: string;
  readonly state: string;
}

interface Tracked {
  readonly name: string;
  readonly state: string;
  /** When the panel saw the state begin (ms since the epoch). */
  readonly since: number;
}

export const REMOVED = 'removed';

export class PanelStates {
  private readonly byId = new Map<string, Tracked>();

  constructor(private readonly clock: (at: number) => string) {}

  /** Records the states seen now; true when any of them changed. */
  update(observed: readonly ObservedState[], now: number): boolean {
    let changed = false;
    for (const { id, name, state } of observed) {
      const before = this.byId.get(id);
      if (before?.state === state) continue;
      // Once gone, a container does not come back under the same id.
      if (before?.state === REMOVED) continue;
      this.byId.set(id, { name, state, since: now });
      changed = true;
    }
    return changed;
  }

  /** True when every container the panel shows has been removed: nothing more can come. */
  allRemoved(): boolean {
    return this.byId.size > 0 && [...this.byId.values()].every((tracked) => tracked.state === REMOVED);
  }

  /** The note for one container that has no process now, or undefined while it runs. */
  note(id: string): string | undefined {
    const tracked = this.byId.get(id);
    if (!tracked || isRunningState(tracked.state)) return undefined;
    const at = this.clock(tracked.since);
    if (tracked.state === REMOVED) return `${tracked.name} was removed at ${at}. The charts keep its figures until then.`;
    const what = tracked.state === 'exited' ? `stopped at ${at}` : `is ${tracked.state} (since ${at})`;
    return `${tracked.name} ${what}. The charts keep its figures until then and go on if it starts again.`;
  }

  /** Notes for every container without a process, in the panel's order. */
  notes(ids: readonly string[]): string[] {
    return ids.map((id) => this.note(id)).filter((note): note is string => note !== undefined);
  }
}
