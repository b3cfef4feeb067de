/**
 * `berth`: the command-line front end (bundled to dist/cli.js). Wires the process to `runCli`: argv, the output
 * streams, stdin, the environment and the signals. The first Ctrl-C aborts the running call through its AbortSignal
 * (a foreground run then stops its container and shows it to its end); a second one exits at once. SIGTERM, SIGHUP
 * and SIGQUIT go to whoever took them over (`berth run` passes them to its container); else berth exits on them.
 */
import { once } from 'node:events';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { version } from '../package.json';
import { codeCacheFolder, loadWithCodeCache, type LoadedBundle } from './cli/codeCache';
import { EXIT_INTERRUPTED } from './cli/exitCodes';
import { errorMessage } from './common/errors';
import type { ForwardedSignal, OutputStream, ProcessSignals } from './cli/io';
import { outputStream } from './cli/streams';
import { versionLine } from './cli/versionLine';

/**
 * Node compiles a built-in outside its start-up snapshot from a code cache made for V8's default flags. Once
 * setEngineFlags has changed them, V8 refuses every such cache and compiles each built-in required later from its
 * source, inner functions included (≈ 4 % of `berth ps`'s instructions). So what every engine command needs is
 * loaded before: the output streams (a terminal, pipe or file, opened by the caller) and node:net, which undici
 * requires when the main bundle loads.
 */
function loadEngineBuiltIns(): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only by commands that run the main bundle
  require('node:net');
}

/**
 * Set before anything is compiled or allocated in bulk: called once `berth --version` is answered, before the main
 * bundle loads (and after loadEngineBuiltIns). node:v8 is required here, not at the top: it loads modules of its own
 * (heap snapshots, serialisation) that `berth --version` has no use for.
 */
function setEngineFlags(): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only by commands that run the main bundle
  const { setFlagsFromString } = require('node:v8') as typeof import('node:v8');
  // Berth's peak memory stays under 64 MB whatever a container prints (bench and test/engine/cli-pressure.test.ts):
  // - undici parses HTTP with llhttp compiled to WebAssembly, which V8's optimising tier compiles a second time in the
  //   background: ≈ 35 MB more at start, and time, for a parser that reads a few small responses. Liftoff suffices.
  // - Streaming output allocates a buffer per chunk; a young generation left to grow to its 16 MB default holds tens
  //   of MB of them between collections. Not growing it keeps only what is in flight. Optimised code would win
  //   nothing for a process that waits on I/O, and its compiler's memory shows in the peak too.
  setFlagsFromString('--liftoff-only');
  setFlagsFromString('--no-opt');
  setFlagsFromString('--semi-space-growth-factor=1');
  // - Container output arrives as Buffers whose bytes live outside V8's heap. V8 frees them only once a collection finds
  //   them dead, and small objects fill the young generation slowly: up to 8 MB of `run`'s 16-64 KiB chunks waited for
  //   it. A minor collection after each MiB of such chunks keeps that under a MiB (≈ 5 MB of the budget, no measurable
  //   time). Smaller chunks (log lines) are left out: collecting while they are in flight promotes them, and the old
  //   generation then grows by more than the collections save.
  setFlagsFromString('--expose-gc');
}

// The gc function lives in a context of its own, made only when output first needs collecting: making a V8 context
// is a measurable part of a short command's start (`berth --version`, `berth ps`).
let collectYoungInContext: ((options: { type: 'minor' }) => void) | undefined;
const collectYoung = (options: { type: 'minor' }): void => {
  collectYoungInContext ??= runInNewContext('gc') as (options: { type: 'minor' }) => void;
  collectYoungInContext(options);
};
const COLLECT_EVERY_BYTES = 1 << 20;
const LARGE_CHUNK_BYTES = 16 * 1024;

function collectingAsItDelivers(output: OutputStream): OutputStream {
  let delivered = 0;
  return {
    write: (text) => output.write(text),
    deliver: (data) => {
      if (data.length >= LARGE_CHUNK_BYTES) delivered += data.length;
      if (delivered >= COLLECT_EVERY_BYTES) {
        delivered = 0;
        collectYoung({ type: 'minor' });
      }
      return output.deliver(data);
    },
    get failure() {
      return output.failure;
    },
    failed: output.failed,
  };
}

const FORWARDED: readonly ForwardedSignal[] = ['SIGTERM', 'SIGHUP', 'SIGQUIT'];
const SIGNAL_NUMBERS: Record<ForwardedSignal, number> = { SIGHUP: 1, SIGQUIT: 3, SIGTERM: 15 };

function processSignals(): ProcessSignals & { dispose(): void } {
  let taker: ((signal: ForwardedSignal) => void) | undefined;
  const listeners = FORWARDED.map((name) => {
    const listener = (): void => {
      if (taker) taker(name);
      else process.exit(128 + SIGNAL_NUMBERS[name]);
    };
    process.on(name, listener);
    return { name, listener };
  });
  return {
    forward: (handler) => {
      taker = handler;
      return () => {
        if (taker === handler) taker = undefined;
      };
    },
    onResize: (handler) => {
      process.on('SIGWINCH', handler);
      return () => process.off('SIGWINCH', handler);
    },
    dispose: () => {
      for (const { name, listener } of listeners) process.off(name, listener);
    },
  };
}

async function main(): Promise<number> {
  const controller = new AbortController();
  const onInterrupt = (): void => {
    if (controller.signal.aborted) process.exit(EXIT_INTERRUPTED);
    controller.abort();
  };
  process.on('SIGINT', onInterrupt);
  const signals = processSignals();
  let bundle: LoadedBundle<typeof import('./cli/main')> | undefined;
  // The code cache is kept only from a run that asked for the engine client and succeeded: V8 writes what the run
  // compiled, and a cache made by `berth --help` or a failed call would leave the engine client out of every later
  // start (an empty `berth ps` from such a cache costs ≈ 15 % more instructions).
  let reachedEngine = false;
  let exitCode: number | undefined;
  try {
    const argv = process.argv.slice(2);
    if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v')) {
      process.stdout.write(versionLine(version));
      return 0;
    }
    const stdout = collectingAsItDelivers(outputStream(process.stdout));
    const stderr = collectingAsItDelivers(outputStream(process.stderr));
    loadEngineBuiltIns();
    setEngineFlags();
    // Loaded only now (a bundle of its own, esbuild.js): `berth --version` above compiles none of it. Not import():
    // Node would hand an import() of the bundle to its ES module loader, which scans all of it for exports. Run from
    // the sources (tsx) there is no bundle beside this file, and the module is required as usual.
    bundle = loadWithCodeCache<typeof import('./cli/main')>(join(__dirname, 'cli-main.js'), codeCacheFolder(process.env));
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { runCli } = bundle?.exports ?? (require('./cli/main') as typeof import('./cli/main'));
    exitCode = await runCli(argv, {
      io: {
        stdout,
        stderr,
        // Read only by a command that takes input: opening stdin loads stream and readline modules.
        get stdin() {
          return process.stdin;
        },
        env: process.env,
        stderrIsTerminal: process.stderr.isTTY === true,
        terminalSize: () => {
          if (!process.stdout.isTTY) return undefined;
          // Asked of the terminal itself: stdout's columns are refreshed by a SIGWINCH listener that may run after ours.
          const [columns, rows] = process.stdout.getWindowSize();
          return { columns, rows };
        },
        now: () => Date.now(),
      },
      signal: controller.signal,
      signals,
      version,
      onEngineClient: () => {
        reachedEngine = true;
      },
    });
    return exitCode;
  } finally {
    process.off('SIGINT', onInterrupt);
    signals.dispose();
    if (reachedEngine && exitCode === 0) bundle?.saveCache();
  }
}

/** Resolves once everything written to the stream has been handed to the OS (pipes are asynchronous on macOS). */
async function drained(stream: NodeJS.WriteStream): Promise<void> {
  if (stream.writableLength === 0 || stream.destroyed) return;
  // A stream that fails meanwhile has nothing left to drain; its failure was reported already.
  await Promise.race([once(stream, 'drain'), once(stream, 'close')]).catch(() => undefined);
}

main()
  .catch((error: unknown) => {
    // runCli reports every failure itself; this is the last guard against a stack trace.
    process.stderr.write(`berth: ${errorMessage(error)}\n`);
    return 1;
  })
  .then(async (exitCode) => {
    // The client is closed by now; exiting here skips waiting for the engine to acknowledge the socket's close,
    // which costs a CLI call tens of milliseconds on a busy machine.
    await Promise.all([drained(process.stdout), drained(process.stderr)]);
    process.exit(exitCode);
  })
  .catch(() => process.exit(1));
