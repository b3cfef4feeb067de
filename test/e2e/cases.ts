// A tiny sequential case runner: the UI cases share one workbench, so they run in order and each one is counted.
import { Stopwatch } from '../vscode/stopwatch';

export interface CaseResult {
  name: string;
  ok: boolean;
  ms: number;
  error?: string;
  /** Not run because the machine lacks what it needs (e.g. Podman): neither passed nor failed. */
  skipped?: string;
}

export class CaseRunner {
  readonly results: CaseResult[] = [];

  constructor(private readonly stopwatch: Stopwatch) {}

  /** Runs one case; a failure is recorded (and `onFailure` may save evidence) but does not stop later cases. */
  async run(name: string, body: () => Promise<void>, onFailure?: (name: string) => Promise<void>): Promise<boolean> {
    // A developer's shortcut to some cases (`BERTH_E2E_GREP=<regexp>`): the others count as skipped, so the stage's minimum fails.
    const grep = process.env['BERTH_E2E_GREP'];
    if (grep && !new RegExp(grep).test(name)) {
      this.results.push({ name, ok: true, ms: 0, skipped: 'filtered out by BERTH_E2E_GREP' });
      return false;
    }
    const started = performance.now();
    try {
      await this.stopwatch.stage(name, body);
      this.results.push({ name, ok: true, ms: performance.now() - started });
      console.log(`  ✔ ${name}`);
      return true;
    } catch (error) {
      const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
      this.results.push({ name, ok: false, ms: performance.now() - started, error: message });
      console.log(`  ✗ ${name}\n${indent(message)}`);
      await onFailure?.(name).catch(() => undefined);
      return false;
    }
  }

  /** Records a case that could not run because an earlier step it depends on failed. */
  skip(name: string, reason: string): void {
    this.results.push({ name, ok: false, ms: 0, error: `not run: ${reason}` });
    console.log(`  ✗ ${name} (not run: ${reason})`);
  }

  /** Records a case this machine cannot run (not a failure); the reason shows in the report. */
  notApplicable(name: string, reason: string): void {
    this.results.push({ name, ok: true, ms: 0, skipped: reason });
    console.log(`  - ${name} (skipped: ${reason})`);
  }

  get counts(): { passed: number; failed: number; pending: number } {
    const pending = this.results.filter((result) => result.skipped !== undefined).length;
    const passed = this.results.filter((result) => result.ok).length - pending;
    return { passed, failed: this.results.length - passed - pending, pending };
  }
}

function indent(text: string): string {
  return text
    .split('\n')
    .slice(0, 12)
    .map((line) => `      ${line}`)
    .join('\n');
}
