import { command, type CommandEntry } from '../workbench/commandTable';
import { addDockerFiles, isScaffoldRequest } from './addDockerFiles';
import type { ScaffoldDeps } from './deps';

export const scaffoldCommands: ReadonlyArray<CommandEntry<ScaffoldDeps>> = [
  command('berth.addDockerFiles', 'Adding Docker files', () => (target?: unknown) => addDockerFiles(target), { rejectsWhen: isScaffoldRequest }),
];
