/**
 * Debug Service… on a Compose project's row: the project's running containers by service, a pick of the service
 * (and of its container when it runs several), then Attach Node.js Debugger on that container, which finds the node
 * process started with the inspector on (or offers SIGUSR1) and forwards it.
 */
import * as vscode from 'vscode';
import { COMPOSE_LABELS, EngineError } from '../engine';
import { containerRefOf, splitArgs, type ContainerRef } from '../workbench/targets';
import { attachToContainer, type AttachOptions, type AttachSummary } from './attach';
import type { AttachDeps } from './deps';

/** What automation may pass after the project's row (or `{ project, engine }`). */
interface DebugServiceOptions extends AttachOptions {
  readonly engine?: string;
  readonly service?: string;
  /** The container (name or id) when the service runs several. */
  readonly container?: string;
}

function serviceOf(ref: ContainerRef): string | undefined {
  return ref.record?.summary.Labels?.[COMPOSE_LABELS.service];
}

/** The running containers of the project TARGET names: a group row's members, or those with its project label. */
function projectContainers(deps: AttachDeps, target: unknown, engine: string | undefined): { project: string; refs: ContainerRef[] } {
  const given = typeof target === 'object' && target !== null && typeof (target as { project?: unknown }).project === 'string' ? (target as { project: string }).project : undefined;
  const refs =
    given !== undefined
      ? [...deps.sessionFor(engine).model.containers()].filter((record) => record.composeProject === given).flatMap((record) => containerRefOf(deps, record.id, engine))
      : containerRefOf(deps, target, engine);
  const running = refs.filter((ref) => ref.record?.state === 'running');
  const project = given ?? running.map((ref) => ref.record?.composeProject).find((name) => name !== undefined) ?? '';
  return { project, refs: running };
}

async function chooseService(project: string, refs: readonly ContainerRef[], wanted: string | undefined): Promise<string | undefined> {
  const services = [...new Set(refs.map(serviceOf).filter((name): name is string => name !== undefined))].sort();
  if (services.length === 0) {
    throw new EngineError('not-found', `No service of Compose project ${project} is running`, { hint: 'Start the project (Compose Up), then debug a service' });
  }
  if (wanted !== undefined) {
    if (!services.includes(wanted)) throw new EngineError('not-found', `Service ${wanted} of Compose project ${project} is not running`, { hint: `Choose one of: ${services.join(', ')}` });
    return wanted;
  }
  if (services.length === 1) return services[0];
  const picked = await vscode.window.showQuickPick(
    services.map((service) => ({ label: service, description: vscode.l10n.t('{0} running', refs.filter((ref) => serviceOf(ref) === service).length) })),
    { title: vscode.l10n.t('Debug Service: {0}', project), placeHolder: vscode.l10n.t('Service with the Node.js app to debug') },
  );
  return picked?.label;
}

async function chooseContainer(service: string, refs: readonly ContainerRef[], wanted: string | undefined): Promise<ContainerRef | undefined> {
  if (wanted !== undefined) {
    const found = refs.find((ref) => ref.name === wanted || ref.id.startsWith(wanted));
    if (!found) throw new EngineError('not-found', `No running container ${wanted} belongs to service ${service}`, { hint: `Choose one of: ${refs.map((ref) => ref.name).join(', ')}` });
    return found;
  }
  if (refs.length === 1) return refs[0];
  const picked = await vscode.window.showQuickPick(
    refs.map((ref) => ({ label: ref.name, description: ref.id.slice(0, 12), ref })),
    { title: vscode.l10n.t('Debug Service: {0}', service), placeHolder: vscode.l10n.t('Container of {0} to debug', service) },
  );
  return picked?.ref;
}

/** From the palette: the Compose project with running containers, picked when there are several. */
async function pickProject(deps: AttachDeps, engine: string | undefined): Promise<{ project: string } | undefined> {
  const running = [...deps.sessionFor(engine).model.containers()].filter((record) => record.state === 'running' && record.composeProject !== undefined);
  const projects = [...new Set(running.map((record) => record.composeProject as string))].sort();
  if (projects.length === 0) throw new EngineError('not-found', 'No Compose project is running', { hint: 'Start the project (Compose Up), then debug a service' });
  if (projects.length === 1) return { project: projects[0] as string };
  const picked = await vscode.window.showQuickPick(projects, { placeHolder: vscode.l10n.t('Compose project with the service to debug') });
  return picked === undefined ? undefined : { project: picked };
}

export async function debugComposeService(deps: AttachDeps, args: unknown[]): Promise<AttachSummary | undefined> {
  const { target, options } = splitArgs(args);
  const given = options as DebugServiceOptions;
  const automation = typeof target === 'object' && target !== null && !('kind' in target);
  const named = target ?? (await pickProject(deps, given.engine));
  if (named === undefined) return undefined;
  const { project, refs } = projectContainers(deps, named, given.engine);
  if (project === '' && refs.length === 0) {
    throw new EngineError('not-found', 'No running Compose project was given', { hint: "Use Debug Service… on a Compose project's row" });
  }
  const service = await chooseService(project, refs, given.service);
  if (service === undefined) return undefined;
  const chosen = await chooseContainer(service, refs.filter((ref) => serviceOf(ref) === service), given.container);
  if (!chosen) return undefined;
  return attachToContainer(deps, chosen, given, automation);
}
