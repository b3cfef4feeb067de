/**
 * `berth cp`: one front over the archive API copies of src/engine/files/containerCopy.ts. With `-` as the host side, as
 * docker does, the tar archive itself goes to stdout (`cp C:SRC -`) or comes from stdin (`cp - C:DIR`): berth passes
 * the bytes through and extracts nothing on the host.
 */
import { copyFromContainer, copySource, copyToContainer, kindOfStat } from '../../engine/files';
import { EngineError } from '../../engine/connection';
import type { CopyArguments } from '../values';
import type { CommandDeps } from '../io';

/** `-L`: follow a symlink named as the source, as docker cp -L does. */
export type CopyCommandOptions = CopyArguments & { readonly followLink: boolean };

/** docker's name for the host side that is a stream; a file of that name is written `./-`. */
const STREAM = '-';

export async function copyCommand(options: CopyCommandOptions, deps: CommandDeps): Promise<number> {
  const { signal, client } = deps;
  if (options.hostPath === STREAM) return options.direction === 'from-container' ? archiveToStdout(options, deps) : archiveFromStdin(options, deps);
  if (options.direction === 'from-container') await copyFromContainer(client(), options.container, options.containerPath, options.hostPath, signal, options.followLink);
  else await copyToContainer(client(), options.hostPath, options.container, options.containerPath, signal, options.followLink);
  return 0;
}

async function archiveToStdout(options: CopyCommandOptions, { io, signal, client }: CommandDeps): Promise<number> {
  // With -L the archive is the link's target's, named as the engine names it: docker cp -L - renames nothing either.
  const source = options.followLink ? (await copySource(client(), options.container, options.containerPath, true, signal)).path : options.containerPath;
  const archive = await client().containers.getArchive(options.container, source, { signal });
  try {
    for await (const chunk of archive.body) {
      const delivered = io.stdout.deliver(chunk);
      if (delivered) await delivered;
      if (io.stdout.failure) break;
    }
  } finally {
    archive.cancel();
  }
  return 0;
}

async function archiveFromStdin(options: CopyCommandOptions, { io, signal, client }: CommandDeps): Promise<number> {
  const engine = client();
  const stat = await engine.containers.statPath(options.container, options.containerPath, { signal }).catch((error: unknown) => {
    // A missing path is refused below as docker refuses it; a missing container keeps its own message.
    if (error instanceof EngineError && error.kind === 'not-found' && error.message.startsWith('No such file or directory in the container')) return undefined;
    throw error;
  });
  if (stat === undefined || kindOfStat(stat) !== 'directory') {
    throw new EngineError('bad-request', `destination "${options.container}:${options.containerPath}" must be a directory`, {
      hint: 'A tar archive from stdin is unpacked into an existing directory of the container: give one, e.g. CONTAINER:/tmp',
    });
  }
  await engine.containers.putArchive(options.container, options.containerPath, io.stdin, { signal, noOverwriteDirNonDir: true });
  return 0;
}
