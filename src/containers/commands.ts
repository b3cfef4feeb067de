/** Lifecycle commands on containers: start, stop, restart, remove, stop all, wait, copy id/name, the show-all toggle. */
import * as vscode from 'vscode';
import { setShowAll } from '../config';
import { DEFAULT_CONCURRENCY, forEachBounded } from '../common/concurrency';
import { plural, shortId } from '../common/format';
import { isRunningRemoveRefusal, stopAllRunning } from '../engine';
import { isRunningState, isSwarmManaged, SWARM_LABEL_PREFIX } from '../model/records';
import { isEngineRoot } from '../views/engineForest';
import { givenTargets, listLine, OUTSIDE_CALLER_LINE } from '../workbench/callOrigin';
import { command, type CommandEntry, type OutsideQuestion } from '../workbench/commandTable';
import type { CoreDeps } from '../workbench/deps';
import { confirm, reportError, withCancellableProgress } from '../workbench/feedback';
import { offerForceRemove, type RefusedRemove } from './forceRemove';
import { byEngine, imageRefOf, resolveContainers, type ContainerRef } from '../workbench/targets';

const notRunning = (record: { state: string }): boolean => !isRunningState(record.state);
const running = (record: { state: string }): boolean => isRunningState(record.state);
const any = (): boolean => true;

/**
 * Runs `act` on the containers a few at a time (the shared bound of every multi-action) under one cancellable
 * notification; reports each failure on its own, returns the successes in the order given.
 */
async function forEach(
  deps: CoreDeps,
  title: string,
  refs: readonly ContainerRef[],
  act: (ref: ContainerRef, signal: AbortSignal) => Promise<void>,
  report: (ref: ContainerRef, error: unknown) => void = (ref, error) => reportError(deps, `${title} ${ref.name}`, error),
): Promise<string[]> {
  const succeeded = refs.map(() => false);
  await withCancellableProgress(title, async (signal, progress) => {
    let settled = 0;
    await forEachBounded(
      refs,
      DEFAULT_CONCURRENCY,
      async (ref, index) => {
        try {
          await act(ref, signal);
          succeeded[index] = true;
        } catch (error) {
          report(ref, error);
        }
        settled += 1;
        progress.report({ message: refs.length > 1 ? `${ref.name} (${settled} of ${refs.length})` : ref.name });
      },
      signal,
    );
  });
  const done = refs.filter((_, index) => succeeded[index]).map((ref) => ref.id);
  // Events will say the same a moment later; fetching now makes the tree current when the command returns.
  for (const [session, group] of byEngine(refs)) {
    await session.model.refetchContainers(group.map((ref) => ref.id)).catch((error: unknown) => reportError(deps, 'Refreshing containers', error));
  }
  return done;
}

function isImageRow(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'image';
}

function swarmService(ref: ContainerRef): string | undefined {
  const labels = ref.record?.summary.Labels ?? {};
  return labels[`${SWARM_LABEL_PREFIX}service.name`] ?? labels[`${SWARM_LABEL_PREFIX}service.id`] ?? 'its service';
}

/**
 * Remove asks nothing for a stopped container picked in the palette or clicked in the view: that choice is the
 * user's. Containers named by an outside caller are shown first.
 */
function removeQuestion(...args: unknown[]): OutsideQuestion | undefined {
  const given = givenTargets(args);
  if (given.length === 0) return undefined;
  return {
    message: vscode.l10n.t('Remove {0}?', given.length === 1 ? (given[0] ?? '') : plural(given.length, 'container')),
    action: vscode.l10n.t('Remove'),
    detail: [OUTSIDE_CALLER_LINE, ...listLine('Containers', given)].join('\n'),
  };
}

export const containerCommands: ReadonlyArray<CommandEntry<CoreDeps>> = [
  command('berth.start', 'Starting', (deps) => async (...args: unknown[]) => {
    const target = await resolveContainers(deps, args, { placeHolder: vscode.l10n.t('Containers to start'), eligible: notRunning, many: true });
    if (!target) return undefined;
    const started = await forEach(deps, 'Starting', target.refs, (ref, signal) =>
      ref.session.client.containers.start(ref.id, { signal }),
    );
    return { started };
  }),

  command('berth.restart', 'Restarting', (deps) => async (...args: unknown[]) => {
    const target = await resolveContainers(deps, args, { placeHolder: vscode.l10n.t('Containers to restart'), eligible: any, many: true });
    if (!target) return undefined;
    const timeoutSeconds = deps.settings.stopTimeoutSeconds;
    const restarted = await forEach(deps, 'Restarting', target.refs, (ref, signal) =>
      ref.session.client.containers.restart(ref.id, { timeoutSeconds, signal }),
    );
    return { restarted };
  }),

  command('berth.stop', 'Stopping', (deps) => async (...args: unknown[]) => {
    const target = await resolveContainers(deps, args, { placeHolder: vscode.l10n.t('Containers to stop'), eligible: running, many: true });
    if (!target) return undefined;
    const swarm = target.refs.filter((ref) => ref.record && isSwarmManaged(ref.record.summary));
    for (const ref of swarm) {
      deps.log.warn(`${ref.name} is a swarm task of ${swarmService(ref)}: the service will start a replacement when it stops`);
    }
    if (swarm.length > 0) {
      const names = swarm.map((ref) => `${ref.name} (service ${swarmService(ref)})`).join(', ');
      const proceed = await confirm(
        `${names} ${swarm.length === 1 ? 'is' : 'are'} managed by Docker Swarm. Stopping will make the service start a replacement.`,
        vscode.l10n.t('Stop Anyway'),
        target.options.confirmed,
        'To stop the service for good, scale it to 0 or remove it with the docker CLI.',
      );
      if (!proceed) return undefined;
    }
    const timeoutSeconds = deps.settings.stopTimeoutSeconds;
    const stopped = await forEach(deps, 'Stopping', target.refs, (ref, signal) =>
      ref.session.client.containers.stop(ref.id, { timeoutSeconds, signal }),
    );
    return { stopped, swarmWarned: swarm.map((ref) => ref.id) };
  }),

  command('berth.remove', 'Removing', (deps) => async (...args: unknown[]) => {
    const target = await resolveContainers(deps, args, { placeHolder: vscode.l10n.t('Containers to remove'), eligible: any, many: true });
    if (!target) return undefined;
    const live = target.refs.filter((ref) => ref.record && isRunningState(ref.record.state));
    if (live.length > 0) {
      const proceed = await confirm(
        live.length === 1
          ? vscode.l10n.t('{0} is running. Remove anyway (forced)?', live.map((ref) => ref.name).join(', '))
          : vscode.l10n.t('{0} are running. Remove anyway (forced)?', live.map((ref) => ref.name).join(', ')),
        vscode.l10n.t('Remove'),
        target.options.confirmed,
      );
      // A typed answer: automation tells "declined" from a failure (which resolves to undefined).
      if (!proceed) return { removed: [], refused: [], declined: true };
    }
    // A container that started after its row was drawn is refused; it gets "Remove with Force" below, not a bare error.
    const runningRefusals: Array<{ ref: ContainerRef; error: unknown }> = [];
    const removed = await forEach(
      deps,
      'Removing',
      target.refs,
      (ref, signal) => ref.session.client.containers.remove(ref.id, { force: live.includes(ref), signal }),
      (ref, error) => (isRunningRemoveRefusal(error) ? runningRefusals.push({ ref, error }) : reportError(deps, `Removing ${ref.name}`, error)),
    );
    const refused: RefusedRemove[] = [];
    for (const { ref, error } of runningRefusals) refused.push(await offerForceRemove(deps, ref, error, target.options.confirmed));
    return { removed, refused };
  }, { asksOutsideCallers: removeQuestion }),

  command('berth.stopAll', 'Stopping all containers', (deps) => async (...args: unknown[]) => {
    // From an engine row: that engine (the row is the target); from the palette or automation: `{ confirmed?, engine? }`.
    const options = (isEngineRoot(args[0]) ? (args[1] ?? {}) : (args[0] ?? {})) as { confirmed?: boolean; engine?: string };
    const session = deps.sessionFor(isEngineRoot(args[0]) ? args[0].engine : options.engine);
    const count = [...session.model.containers()].filter((record) => record.state === 'running').length;
    const where = deps.engines.isMulti ? ` on ${session.name}` : '';
    const proceed = await confirm(vscode.l10n.t('Stop all {0}{1}?', plural(count, 'running container'), where), vscode.l10n.t('Stop All'), options.confirmed);
    if (!proceed) return { stopped: [], failed: [], declined: true };
    const timeoutSeconds = deps.settings.stopTimeoutSeconds;
    const result = await withCancellableProgress(vscode.l10n.t('Stopping all running containers'), (signal, progress) =>
      stopAllRunning(session.client, {
        timeoutSeconds,
        signal,
        onStopped: (id: string) => progress.report({ message: session.model.container(id)?.name ?? shortId(id) }),
      }),
    );
    for (const failure of result.failed) reportError(deps, `Stopping ${shortId(failure.id)}`, failure.error);
    await session.model.refetchContainers([...result.stopped, ...result.failed.map((failure) => failure.id)]);
    return { stopped: result.stopped, failed: result.failed.map((failure) => failure.id) };
  }),

  command('berth.waitForExit', 'Waiting for exit', (deps) => async (...args: unknown[]) => {
    const target = await resolveContainers(deps, args, { placeHolder: vscode.l10n.t('Container to wait for (running ones first)'), eligible: any, many: false });
    const ref = target?.refs[0];
    if (!ref) return undefined;
    // A container that never started has no exit status: waiting for "not running" would answer 0 at once.
    const inspected = await ref.session.client.containers.inspect(ref.id);
    const notStarted = inspected.State.Status === 'created';
    if (notStarted) {
      const start = await confirm(
        `${ref.name} has not started, so it has no exit status to wait for.`,
        vscode.l10n.t('Start and Wait'),
        target.options.confirmed,
        'Start it now and wait for it to exit, or pick a running container.',
      );
      if (!start) return { id: ref.id, notStarted: true };
    }
    const exitCode = await withCancellableProgress(vscode.l10n.t('Waiting for {0} to exit', ref.name), async (signal) => {
      // Registered before the start, so an exit right after it is not missed.
      const wait = await ref.session.client.containers.wait(ref.id, { condition: notStarted ? 'next-exit' : 'not-running', signal });
      if (notStarted) await ref.session.client.containers.start(ref.id, { signal });
      const result = await wait.result;
      if (result.Error?.Message) deps.log.warn(`Waiting for ${ref.name}: ${result.Error.Message}`);
      return result.StatusCode;
    });
    deps.log.info(`${ref.name} exited with status ${exitCode}`);
    void vscode.window.showInformationMessage(vscode.l10n.t('{0} exited with status {1}.', ref.name, exitCode));
    return { id: ref.id, exitCode };
  }),

  command('berth.copyId', 'Copying the ID', (deps) => async (...args: unknown[]) => {
    const image = isImageRow(args[0]) ? imageRefOf(deps, args[0]) : undefined;
    if (image) {
      await vscode.env.clipboard.writeText(image.id);
      return image.id;
    }
    const target = await resolveContainers(deps, args, { placeHolder: vscode.l10n.t('Container'), eligible: any, many: false });
    const ref = target?.refs[0];
    if (!ref) return undefined;
    await vscode.env.clipboard.writeText(ref.id);
    return ref.id;
  }),

  command('berth.containers.showAll', 'Showing all containers', () => async () => {
    await setShowAll(true);
  }),
  command('berth.containers.showRunning', 'Showing running containers', () => async () => {
    await setShowAll(false);
  }),

  command('berth.copyName', 'Copying the name', (deps) => async (...args: unknown[]) => {
    const target = await resolveContainers(deps, args, { placeHolder: vscode.l10n.t('Container'), eligible: any, many: false });
    const ref = target?.refs[0];
    if (!ref) return undefined;
    await vscode.env.clipboard.writeText(ref.name);
    return ref.name;
  }),
];
