/** Show Container Stats: the panel (panel.ts) for the chosen running containers, titled by them or their project. */
import * as vscode from 'vscode';
import { command, type CommandEntry } from '../workbench/commandTable';
import { resolveContainers } from '../workbench/targets';
import { StatsPanel, type StatsPanelDeps } from './panel';

export const statsCommands: ReadonlyArray<CommandEntry<StatsPanelDeps>> = [
  command('berth.showContainerStats', 'Opening container stats', (deps) => async (...args: unknown[]) => {
    const target = await resolveContainers(deps, args, { placeHolder: vscode.l10n.t('Containers whose stats to show'), eligible: (record) => record.state === 'running', many: true });
    if (!target || target.refs.length === 0) return undefined;
    const refs = target.refs;
    const project = refs[0]?.record?.composeProject;
    const title = refs.length === 1 ? (refs[0]?.name ?? '') : project !== undefined && refs.every((ref) => ref.record?.composeProject === project) ? project : `${refs.length} containers`;
    const panel = new StatsPanel(deps, refs, title);
    return { title: panel.title };
  }),
];
