/**
 * `berth build`: the shared build workflow (engine/build/build.ts) with docker build's output. The engine's step lines go
 * to stdout as they arrive, pulled base-image layers as one line per change; `-q` keeps them back (and shows them on
 * stderr if the build fails) and prints only the image id. A failing RUN exits with its own status, as docker does.
 */
import { BuildError, buildImage, buildImageFromStdin, type BuildMessage } from '../../engine';
import { UsageError } from '../args';
import { EXIT_FAILURE } from '../failure';
import type { BuildCommandOptions } from '../options';
import type { CommandDeps } from '../io';
import { PullProgressPrinter } from '../progress';

/** docker's name for a context read from stdin: a tar archive, or a lone Dockerfile. */
const STDIN = '-';

export async function buildCommand(options: BuildCommandOptions, deps: CommandDeps): Promise<number> {
  const { io, signal, client } = deps;
  const printer = new PullProgressPrinter(io.stdout, false);
  const heldBack: string[] = [];
  const show = (message: BuildMessage): void => {
    if (message.stream !== undefined) {
      printer.finish();
      if (options.quiet) heldBack.push(message.stream);
      else io.stdout.write(message.stream);
    } else if (message.status !== undefined && !options.quiet) {
      printer.update(message);
    }
  };
  try {
    if (options.context === STDIN) {
      const imageId = await buildFromStdin(options, deps, show);
      if (options.quiet) io.stdout.write(`${imageId ?? ''}\n`);
      return 0;
    }
    const result = await buildImage(client(), { ...requestOf(options, deps, show), contextDir: options.context, dockerfile: options.dockerfile, cwd: process.cwd() });
    if (options.quiet) io.stdout.write(`${result.imageId ?? ''}\n`);
    return 0;
  } catch (error) {
    printer.finish();
    if (options.quiet && heldBack.length > 0) io.stderr.write(heldBack.join(''));
    if (error instanceof BuildError && !signal.aborted) {
      io.stderr.write(`berth: ${error.message.replace(/\s*[\r\n]+\s*/g, ' ')}\n`);
      return error.exitCode;
    }
    throw error;
  }
}

function buildFromStdin(options: BuildCommandOptions, deps: CommandDeps, onMessage: (message: BuildMessage) => void): Promise<string | undefined> {
  if (options.dockerfile === STDIN) throw new UsageError("invalid argument: can't use stdin for both build context and dockerfile", EXIT_FAILURE);
  return buildImageFromStdin(deps.client(), deps.io.stdin as AsyncIterable<Buffer | string>, { ...requestOf(options, deps, onMessage), dockerfileInArchive: options.dockerfile });
}

/** What every build takes from the command line, wherever its context comes from. */
function requestOf(options: BuildCommandOptions, { io, signal, credentials }: CommandDeps, onMessage: (message: BuildMessage) => void) {
  return {
    tags: options.tags,
    buildArgs: resolveBuildArgs(options.buildArgs, io.env),
    target: options.target,
    noCache: options.noCache,
    networkMode: options.network,
    quiet: options.quiet,
    credentials: credentials(),
    signal,
    onMessage,
  };
}

/** `--build-arg K=V` as given; `K` alone takes K's value from berth's environment and is left out when unset (as docker). */
export function resolveBuildArgs(entries: readonly string[], env: NodeJS.ProcessEnv): Record<string, string> {
  const args: Record<string, string> = {};
  for (const entry of entries) {
    const equals = entry.indexOf('=');
    if (equals !== -1) args[entry.slice(0, equals)] = entry.slice(equals + 1);
    else if (env[entry] !== undefined) args[entry] = env[entry];
  }
  return args;
}
