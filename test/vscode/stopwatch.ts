/** Times named stages of a run, for the report printed at the end. */
export class Stopwatch {
  private readonly stages: Array<{ name: string; ms: number }> = [];

  async stage<T>(name: string, work: () => Promise<T>): Promise<T> {
    const started = performance.now();
    try {
      return await work();
    } finally {
      const ms = performance.now() - started;
      this.stages.push({ name, ms });
      console.log(`[stage] ${name}: ${(ms / 1000).toFixed(1)} s`);
    }
  }

  report(): string {
    return this.stages.map(({ name, ms }) => `  ${name.padEnd(28)} ${(ms / 1000).toFixed(1)} s`).join('\n');
  }

  toJSON(): Record<string, number> {
    return Object.fromEntries(this.stages.map(({ name, ms }) => [name, Math.round(ms)]));
  }
}
