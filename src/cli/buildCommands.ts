/**
 * `berth build`, and the run options `berth run` shares with docker run (ports, mounts, env files, …). `berth build` has docker build's syntax and exit statuses: one context folder, `-t` repeatable, `-f` relative to
 * the current folder, `--build-arg KEY` alone taking its value from berth's environment, `-q` printing only the id.
 */
import { parseImageReference } from '../engine/registry';
import { UsageError } from './args';
import type { BuildCommandOptions, RunOptions } from './options';
import { booleanFlag, declareCommand, listFlag, valueFlag, type FlagValues } from './spec';
import { nonEmpty } from './values';

/** The flags `berth run` shares with docker run for ports, mounts, env files and the rest of the run options. */
export const runOptionFlags = {
  publish: listFlag('publish', 'p', '[IP:][HOST_PORT:]PORT[/PROTO]', 'Publish a container port on the host, e.g. 8080:80 or 127.0.0.1::80 (repeatable)'),
  volume: listFlag('volume', 'v', 'SOURCE:TARGET[:ro]', 'Bind-mount a host path or mount a named volume (repeatable)'),
  envFile: listFlag('env-file', undefined, 'FILE', 'Read environment variables from a file of KEY=VALUE lines (repeatable)'),
  workdir: valueFlag('workdir', 'w', 'DIR', 'Working directory inside the container (absolute)'),
  entrypoint: valueFlag('entrypoint', undefined, 'COMMAND', "Override the image's entrypoint (one word; empty clears it)"),
  user: valueFlag('user', 'u', 'USER[:GROUP]', 'Run as this user (name or UID)'),
  restart: valueFlag('restart', undefined, 'POLICY', 'Restart policy: no, always, unless-stopped, on-failure[:N]'),
};

export function runOptionValues(flags: FlagValues<typeof runOptionFlags>): Pick<RunOptions, 'ports' | 'volumes' | 'envFiles' | 'workdir' | 'entrypoint' | 'user' | 'restart'> {
  return {
    ports: flags.publish,
    volumes: flags.volume,
    envFiles: flags.envFile,
    workdir: nonEmpty(flags.workdir, '--workdir'),
    entrypoint: flags.entrypoint,
    user: nonEmpty(flags.user, '--user'),
    restart: nonEmpty(flags.restart, '--restart'),
  };
}

export const buildCommands = {
  build: declareCommand({
    usage: 'berth build [OPTIONS] CONTEXT|-',
    summary: 'Build an image from a Dockerfile and a context folder',
    details:
      "Through the Engine API (`POST /build`), with the engine's classic builder (or Podman's Buildah): the context is streamed as a tar " +
      'while it is read, `.dockerignore` is honoured with docker\'s rules, the Dockerfile may live outside the context, and credentials for ' +
      "private base images come from the docker configuration. The engine's step lines go to stdout; `-q` prints only the image id. A " +
      "failing `RUN` exits with that command's status, as docker build does. With `-` as CONTEXT the context is read from stdin: a tar " +
      'archive (plain or compressed, streamed as it is read; `-f` names the Dockerfile inside it), or else a lone Dockerfile (at most 4 MiB).',
    positionals: { min: 1, max: 1 },
    flags: {
      tag: listFlag('tag', 't', 'NAME[:TAG]', 'Name and optionally tag the image (repeatable)'),
      file: valueFlag('file', 'f', 'PATH', 'The Dockerfile (default: CONTEXT/Dockerfile); a relative path starts from the current folder'),
      buildArg: listFlag('build-arg', undefined, 'KEY=VALUE', 'Set a build-time variable (repeatable); KEY alone takes its value from here'),
      target: valueFlag('target', undefined, 'STAGE', 'Build up to this stage of a multi-stage Dockerfile'),
      noCache: booleanFlag('no-cache', undefined, 'Do not use the cache'),
      network: valueFlag('network', undefined, 'MODE', "Network mode for RUN steps, e.g. none (default: the engine's)"),
      quiet: booleanFlag('quiet', 'q', 'Print only the image ID'),
    },
    build: (flags, positionals): BuildCommandOptions => ({
      context: positionals[0] as string,
      dockerfile: nonEmpty(flags.file, '--file'),
      tags: flags.tag.map(checkTag),
      buildArgs: flags.buildArg.map(checkBuildArg),
      target: nonEmpty(flags.target, '--target'),
      noCache: flags.noCache,
      network: nonEmpty(flags.network, '--network'),
      quiet: flags.quiet,
    }),
    run: async (options, deps): Promise<number> => (await import('./actions/build.js')).buildCommand(options, deps),
  }),
};

/** docker's flag check: `invalid argument "X" for "-t, --tag" flag: invalid reference format…`. */
function checkTag(tag: string): string {
  const refuse = (why: string): never => {
    throw new UsageError(`invalid argument "${tag}" for "-t, --tag" flag: invalid reference format${why ? `: ${why}` : ''}`);
  };
  if (tag.includes('@')) refuse('a build gets a tag, not a digest');
  try {
    const { repository } = parseImageReference(tag);
    if (repository !== repository.toLowerCase()) refuse('repository name must be lowercase');
  } catch (error) {
    if (error instanceof UsageError) throw error;
    refuse(error instanceof Error ? error.message.replace(/^Invalid image reference "[^"]*": /, '') : '');
  }
  return tag;
}

function checkBuildArg(entry: string): string {
  if (entry === '' || entry.startsWith('=')) throw new UsageError(`invalid argument "${entry}" for "--build-arg" flag: expected KEY=VALUE or KEY.`);
  return entry;
}
