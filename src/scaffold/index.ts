/**
 * The Scaffold feature: Add Docker Files to Workspace… (palette, and the Explorer's context menu on folders). It needs
 * only the log for its error reports; the generator (detect.ts, render.ts) is vscode-free.
 */
import type { DisposableStore } from '../common/lifecycle';
import { command, registerCommandTable } from '../workbench/commandTable';
import type { ReportDeps } from '../workbench/feedback';
import { addDockerFiles, isScaffoldRequest } from './addDockerFiles';

export type ScaffoldDeps = ReportDeps;

export function registerScaffold(deps: ScaffoldDeps, owner: DisposableStore): void {
  registerCommandTable(
    [command('berth.addDockerFiles', 'Adding Docker files', () => (target?: unknown) => addDockerFiles(target), { rejectsWhen: isScaffoldRequest })],
    deps,
    owner,
  );
}
