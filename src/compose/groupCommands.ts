/**
 * Start, Stop, Restart and Remove on a whole Compose project, through the Engine API (no compose CLI): several
 * containers at a time (bounded), under one cancellable progress notification. A container that fails is reported
 * on its own and the others go on.
 */
import * as vscode from 'vscode';
import { plural } from '../common/format';
import { actOnMembers, membersFor, type GroupAction } from '../engine';
import { command, type CommandEntry } from '../workbench/commandTable';
import type { CoreDeps } from '../workbench/deps';
import { confirm, reportError, withCancellableProgress } from '../workbench/feedback';
import { resolveProject } from './projects';

const TITLES: Record<GroupAction, string> = { start: 'Starting', stop: 'Stopping', restart: 'Restarting', remove: 'Removing' };

async function runGroupAction(deps: CoreDeps, action: GroupAction, args: unknown[]): Promise<{ done: string[]; failed: string[] } | undefined> {
  const target = await resolveProject(deps, args, `Compose project to ${action}`);
  if (!target) return undefined;
  const { session, project, options } = target;
  const members = membersFor(action, project.members);
  if (action === 'remove') {
    const running = project.members.filter((member) => member.state === 'running').length;
    const proceed = await confirm(
      `Remove the ${plural(project.members.length, 'container')} of ${project.name}${running > 0 ? ` (${running} running, forced)` : ''}?`,
      vscode.l10n.t('Remove'),
      typeof options['confirmed'] === 'boolean' ? options['confirmed'] : undefined,
      'Volumes and networks stay: Compose Down removes those.',
    );
    if (!proceed) return undefined;
  }
  const title = `${TITLES[action]} ${project.name}`;
  const result = await withCancellableProgress(title, (signal, progress) => {
    let settled = 0;
    return actOnMembers(session.client, action, members, {
      signal,
      timeoutSeconds: deps.settings.stopTimeoutSeconds,
      volumes: options['volumes'] === true,
      onSettled: (member) => {
        settled++;
        progress.report({ message: `${member.name} (${settled}/${members.length})`, increment: 100 / Math.max(1, members.length) });
      },
    });
  });
  for (const failure of result.failed) reportError(deps, `${TITLES[action]} ${failure.member.name}`, failure.error);
  const ids = members.map((member) => member.id);
  await session.model.refetchContainers(ids).catch((error: unknown) => reportError(deps, 'Refreshing containers', error));
  return { done: result.done.map((member) => member.name), failed: result.failed.map((failure) => failure.member.name) };
}

export const groupCommands: ReadonlyArray<CommandEntry<CoreDeps>> = (['start', 'stop', 'restart', 'remove'] as const).map((action) =>
  command(`berth.compose.${action}Project`, `${TITLES[action]} the project`, (deps) => (...args: unknown[]) => runGroupAction(deps, action, args)),
);
