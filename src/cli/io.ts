/** What a command may touch: its two output streams, the environment, the clock and the abort signal. */
export interface CliIo {
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  readonly env: NodeJS.ProcessEnv;
  readonly stderrIsTerminal: boolean;
  /** Milliseconds since the epoch; tables show ages relative to it. */
  readonly now: () => number;
}

export interface CommandContext {
  readonly io: CliIo;
  /** Aborted by Ctrl-C (SIGINT). */
  readonly signal: AbortSignal;
}
