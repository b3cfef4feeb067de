/**
 * A Remove the engine refused because the container runs (its row was drawn before it started, or another client
 * started it since): the error message offers "Remove with Force", which asks once more, naming the container by its
 * name, and then removes it with force.
 */
import * as vscode from 'vscode';
import { errorMessage } from '../common/errors';
import type { CoreDeps } from '../workbench/deps';
import { confirm, reportError, reportFailure, withCancellableProgress } from '../workbench/feedback';
import type { ContainerRef } from '../workbench/targets';

/** The action that removes a running container with force, in the display language. */
const forceRemoveAction = (): string => vscode.l10n.t('Remove with Force');

/** What the user was told about one refused container, and whether it was then removed with force. */
export interface RefusedRemove {
  readonly id: string;
  readonly name: string;
  readonly message: string;
  readonly forced: boolean;
}

/** The question before a forced remove: the container's name, and what force does to it. */
export function forceRemoveQuestion(name: string): { message: string; detail: string } {
  return {
    message: vscode.l10n.t('Remove the running container {0} with force?', name),
    detail: vscode.l10n.t('The engine kills {0} (SIGKILL, no graceful stop) and removes it, with its logs and any data not kept in a volume.', name),
  };
}

/** The name the engine has for the container now (a row or an id given by automation may be out of date). */
async function currentName(ref: ContainerRef): Promise<string> {
  try {
    const inspected = await ref.session.client.containers.inspect(ref.id);
    return inspected.Name.replace(/^\//, '') || ref.name;
  } catch {
    return ref.name;
  }
}

async function forceRemove(deps: CoreDeps, ref: ContainerRef, name: string): Promise<boolean> {
  try {
    await withCancellableProgress(vscode.l10n.t('Removing {0} with force', name), (signal) => ref.session.client.containers.remove(ref.id, { force: true, signal }));
    await ref.session.model.refetchContainers([ref.id]).catch((error: unknown) => reportError(deps, 'Refreshing containers', error));
    return true;
  } catch (error) {
    reportError(deps, `Removing ${name} with force`, error);
    return false;
  }
}

/** Asks (modal, by name) and force-removes; `confirmed` answers the question for automation. */
async function confirmAndForce(deps: CoreDeps, ref: ContainerRef, name: string, confirmed: boolean | undefined): Promise<boolean> {
  const question = forceRemoveQuestion(name);
  if (!(await confirm(question.message, forceRemoveAction(), confirmed, question.detail))) {
    deps.log.info(`${name}: remove with force declined; it keeps running`);
    return false;
  }
  return forceRemove(deps, ref, name);
}

/**
 * Tells the user the remove was refused and offers force. Interactive: the error message's action leads to the modal
 * question, and the command does not wait for a notification the user may never answer. From automation
 * (`confirmed` given) the action and the question are both answered by `confirmed`, and the result says what happened.
 */
export async function offerForceRemove(deps: CoreDeps, ref: ContainerRef, error: unknown, confirmed: boolean | undefined): Promise<RefusedRemove> {
  const name = await currentName(ref);
  const message = `Removing ${name} failed: ${errorMessage(error)}`;
  if (confirmed !== undefined) {
    deps.log.warn(message);
    return { id: ref.id, name, message, forced: await confirmAndForce(deps, ref, name, confirmed) };
  }
  void reportFailure(deps, message, error, [{ title: forceRemoveAction(), run: () => confirmAndForce(deps, ref, name, undefined) }]);
  return { id: ref.id, name, message, forced: false };
}
