/** `berth cp`: one front over the archive API copies of src/engine/containerCopy.ts. */
import { copyFromContainer, copyToContainer } from '../../engine/containerCopy';
import type { CopyArguments as CopyCommandOptions } from '../values';
import type { CommandDeps } from '../io';

export async function copyCommand(options: CopyCommandOptions, { signal, client }: CommandDeps): Promise<number> {
  if (options.direction === 'from-container') await copyFromContainer(client(), options.container, options.containerPath, options.hostPath, signal);
  else await copyToContainer(client(), options.hostPath, options.container, options.containerPath, signal);
  return 0;
}
