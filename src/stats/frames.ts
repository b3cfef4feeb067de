/**
 * The panel's history: one frame a second with each container's latest figures, rates for the I/O counters, the
 * last 5 minutes kept. Shared by the extension (which keeps it across the page's reloads) and the page's script
 * (the message shapes). No `vscode` import.
 */
import type { StatsFigures } from '../engine';

export const HISTORY_SECONDS = 300;

/** Per container, in the order of `names`; null where a figure is missing (the chart shows a gap, never 0 or NaN). */
export interface StatsFrame {
  /** Unix seconds. */
  readonly t: number;
  readonly cpu: Array<number | null>;
  /** Bytes. */
  readonly memory: Array<number | null>;
  /** Received + sent, bytes per second. */
  readonly network: Array<number | null>;
  /** Read + written, bytes per second. */
  readonly block: Array<number | null>;
}

export interface ProcessTable {
  readonly name: string;
  readonly titles: readonly string[];
  readonly processes: ReadonlyArray<readonly string[]>;
  readonly error?: string | undefined;
}

export class FrameHistory {
  private readonly frames: StatsFrame[] = [];
  private previous: Array<{ readonly at: number; readonly network: number; readonly block: number } | undefined>;

  constructor(readonly names: readonly string[]) {
    this.previous = names.map(() => undefined);
  }

  add(nowMs: number, figures: ReadonlyArray<StatsFigures | undefined>): StatsFrame {
    const frame: StatsFrame = { t: nowMs / 1000, cpu: [], memory: [], network: [], block: [] };
    figures.forEach((each, index) => {
      const live = each?.running === true ? each : undefined;
      frame.cpu.push(live?.cpuPercent ?? null);
      frame.memory.push(live?.memoryUsage ?? null);
      const network = live && live.networkRx !== undefined && live.networkTx !== undefined ? live.networkRx + live.networkTx : undefined;
      const block = live && live.blockRead !== undefined && live.blockWrite !== undefined ? live.blockRead + live.blockWrite : undefined;
      const at = live?.readAt ?? nowMs;
      const before = this.previous[index];
      frame.network.push(rate(before?.network, network, before?.at, at));
      frame.block.push(rate(before?.block, block, before?.at, at));
      this.previous[index] = network !== undefined && block !== undefined ? { at, network, block } : undefined;
    });
    this.frames.push(frame);
    if (this.frames.length > HISTORY_SECONDS) this.frames.splice(0, this.frames.length - HISTORY_SECONDS);
    return frame;
  }

  snapshot(): { names: readonly string[]; frames: readonly StatsFrame[] } {
    return { names: this.names, frames: this.frames };
  }
}

/** Per second between two readings of a counter; the same sample twice is a rate of 0, a counter reset a gap. */
function rate(before: number | undefined, now: number | undefined, beforeAt: number | undefined, nowAt: number): number | null {
  if (before === undefined || now === undefined || beforeAt === undefined || now < before) return null;
  const seconds = (nowAt - beforeAt) / 1000;
  return seconds > 0 ? (now - before) / seconds : 0;
}
