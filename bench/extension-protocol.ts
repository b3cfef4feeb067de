/** What the extension-host half of the benchmark (extension-host.ts) and its launcher (extension-vscode.ts) exchange. */
import type { Summary } from './stats';

export const BENCH_RESULT_MARKER = 'BERTH_BENCH_RESULT';
export const BENCH_STEP_MARKER = 'BERTH_BENCH_STEP';

export type HostPhase = 'activation' | 'blackhole' | 'idle' | 'logs' | 'follow';

export interface HostPlan {
  readonly phases: readonly HostPhase[];
  /** unix:// of the engine the extension is configured for. */
  readonly engineHost: string;
  readonly image: string;
  readonly logLines: number;
  /** berth.logs.maxLines in force. */
  readonly maxLines: number;
  /** How long the idle phase watches the aftermath of one change. */
  readonly aftermathMs: number;
  readonly quietBeforeMs: number;
}

export interface ActivationSample {
  readonly kind: 'activation' | 'blackhole';
  /** Whether something had activated Berth before the benchmark asked. */
  readonly wasActive: boolean;
  /** `await extension.activate()` as the caller in the host sees it: loading the bundle plus activate(), ms. */
  readonly activateCallMs: number;
  /** Until whenModelReady() resolved, from the same start, ms. */
  readonly readyCallMs: number | undefined;
  readonly readyWithin: boolean;
  /** `Activated in X ms`, from the Berth log. */
  readonly activatedMs: number | undefined;
  /** `Views ready Y ms after activation began`, from the Berth log. */
  readonly viewsReadyMs: number | undefined;
  /** `vscode.env.language` in the host: `de` when the German bundles were loaded. */
  readonly language?: string | undefined;
}

export interface TimerCounts {
  readonly scheduled: number;
  readonly fired: number;
  readonly sources: readonly string[];
}

export interface IdleSample {
  readonly kind: 'idle';
  readonly aftermathMs: number;
  readonly aftermath: TimerCounts;
  readonly quiet: boolean;
  readonly windowMs: number;
  readonly quietBeforeMs: number;
  readonly window: TimerCounts;
}

export interface LogsSample {
  readonly kind: 'logs';
  readonly lines: number;
  readonly logBytes: number;
  /** The whole log read with Berth's engine client alone (engine + transport + demux), ms: the floor. */
  readonly engineReadMs: number;
  readonly maxLines: number;
  /** berth.openLogsInEditor resolved (the document is open and shown), ms. */
  readonly openedMs: number;
  /** The document had all its lines, ms. */
  readonly contentMs: number;
  readonly visible: boolean;
  readonly lineCount: number;
  readonly firstLine: string;
  readonly lastLine: string;
  readonly rssBefore: number;
  readonly rssAfter: number;
  readonly rssPeak: number;
  readonly rssAfterClose: number;
  readonly heapBefore: number;
  readonly heapAfter: number;
  /** Extension host → workbench → extension host command round trips while loading, ms. */
  readonly roundTrip: Summary;
  readonly roundTripMax: number;
  /** How late a 50 ms sleep in the extension host woke up while loading, ms. */
  readonly loopDelay: Summary;
  readonly loopDelayMax: number;
}

/** perf_hooks' event-loop delay over a stretch, ms. */
export interface LoopDelay {
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
  readonly samples: number;
}

/** A followed logs editor past 1,000,000 lines: a new line's way to the document, and the host's event loop. */
export interface FollowSample {
  readonly kind: 'follow';
  readonly lines: number;
  readonly maxLines: number;
  readonly marks: number;
  readonly markIntervalMs: number;
  /** Marks stamped after the document loaded, which the figures are made of. */
  readonly measured: number;
  /** berth.openLogsInEditor → the document holds its capped window, ms. */
  readonly loadMs: number;
  readonly lineCount: number;
  /** The engine's stamp on a line → the line's text in the document, ms. */
  readonly stampToText: Summary;
  readonly stampToTextP95: number;
  /** The line on the bench's own follow stream (Berth's engine client alone) → its text in the document, ms. */
  readonly floorToText: Summary;
  readonly floorToTextP95: number;
  /** The engine's stamp → the line on the bench's own follow stream, ms. */
  readonly stampToFloor: Summary;
  readonly loadingLoopDelay: LoopDelay;
  readonly followingLoopDelay: LoopDelay;
  /** Marks seen in the document, and on the bench's own stream, in all. */
  readonly shownMarks: number;
  readonly floorMarks: number;
  readonly documentChanges: number;
  readonly lastLines: readonly string[];
}

export interface HostError {
  readonly kind: 'error';
  readonly message: string;
}

export type HostResult = ActivationSample | IdleSample | LogsSample | FollowSample | HostError;
