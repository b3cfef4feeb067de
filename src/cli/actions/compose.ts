/** `berth compose …`: projects from labels, group actions and merged logs, all through the Engine API. */
import { COMPOSE_LABELS, EngineError, LinePrefixer, ProjectLogs, actOnMembers, findComposeProject, listComposeProjects, membersFor, type ComposeProject, type GroupAction } from '../../engine';
import { renderTable } from '../format';
import { containerFormatTarget } from '../formatContexts';
import { prepareFormat, renderFormatted } from '../formatOption';
import { goJson } from '../templateFunctions';
import { COMPOSE_LS_TABLE, composeLsFormatTarget, composeLsJson } from '../usageFormatContexts';
import type { CommandDeps } from '../io';

export async function composeLs(options: { all: boolean; quiet: boolean; format: string | undefined }, { io, signal, client }: CommandDeps): Promise<number> {
  // docker compose's `json` is one array, not one object per line; anything else is checked before anything is listed.
  const asArray = options.format?.trim() === 'json';
  const prepared = options.format !== undefined && !asArray && !options.quiet ? prepareFormat(options.format, COMPOSE_LS_TABLE) : undefined;
  // As docker compose ls: without -a only projects with a running container.
  const projects = (await listComposeProjects(client(), { signal })).filter((project) => options.all || project.running > 0);
  if (options.quiet) {
    io.stdout.write(projects.map((project) => `${project.name}\n`).join(''));
    return 0;
  }
  const rows = projects.map((project) => {
    const states = new Map<string, number>();
    for (const member of project.members) states.set(member.state, (states.get(member.state) ?? 0) + 1);
    const status = [...states.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([state, count]) => `${state}(${count})`).join(', ');
    return { name: project.name, status, configFiles: project.configFiles.join(',') };
  });
  if (asArray) io.stdout.write(`${goJson(rows.map(composeLsJson), false)}\n`);
  else if (prepared) io.stdout.write(renderFormatted(prepared, composeLsFormatTarget(rows)));
  else io.stdout.write(renderTable(['NAME', 'STATUS', 'CONFIG FILES'], rows.map((row) => [row.name, row.status, row.configFiles])));
  return 0;
}

/** docker compose's refusal of a SERVICE the project does not have, before anything is done. */
function checkServices(project: ComposeProject, services: readonly string[]): void {
  const known = new Set(project.members.map((member) => member.service));
  const unknown = services.filter((service) => !known.has(service));
  if (unknown.length === 0) return;
  throw new EngineError('not-found', `no such service: ${unknown.join(', ')} in the Compose project ${project.name}`, {
    hint: `Services there: ${[...known].sort().join(', ')}`,
  });
}

export async function composeGroup(
  options: { project: string; services: readonly string[]; action: GroupAction; timeoutSeconds: number | undefined; force: boolean },
  { io, signal, client }: CommandDeps,
): Promise<number> {
  const engine = client();
  const project = await findComposeProject(engine, options.project, { signal });
  checkServices(project, options.services);
  const wanted = new Set(options.services);
  let members = membersFor(options.action, project.members).filter((member) => wanted.size === 0 || wanted.has(member.service));
  let status = 0;
  if (options.action === 'remove' && !options.force) {
    const running = members.filter((member) => member.state === 'running' || member.state === 'restarting' || member.state === 'paused');
    for (const member of running) io.stderr.write(`berth: ${member.name} is ${member.state}: stop it first, or use -f to remove it anyway\n`);
    if (running.length > 0) status = 1;
    members = members.filter((member) => !running.includes(member));
  }
  const result = await actOnMembers(engine, options.action, members, {
    signal,
    timeoutSeconds: options.timeoutSeconds,
    onSettled: (member, error) => {
      if (error) io.stderr.write(`berth: ${member.name}: ${error.message}\n`);
      else io.stdout.write(`${member.name}\n`);
    },
  });
  return result.failed.length > 0 ? 1 : status;
}

/** `docker compose ps`: the project's containers (running ones unless -a), NAME IMAGE COMMAND SERVICE CREATED STATUS PORTS. */
export async function composePs(
  options: { project: string; services: readonly string[]; all: boolean; quiet: boolean },
  { io, signal, client }: CommandDeps,
): Promise<number> {
  const engine = client();
  const project = await findComposeProject(engine, options.project, { signal });
  checkServices(project, options.services);
  const filters: Record<string, string[]> = { label: [`${COMPOSE_LABELS.project}=${project.name}`] };
  const containers = (await engine.containers.list({ all: options.all, filters, signal }))
    .filter((container) => container.Labels?.[COMPOSE_LABELS.oneoff] !== 'True')
    .filter((container) => options.services.length === 0 || options.services.includes(container.Labels?.[COMPOSE_LABELS.service] ?? ''))
    .sort((a, b) => (a.Names[0] ?? '').localeCompare(b.Names[0] ?? ''));
  if (options.quiet) {
    io.stdout.write(containers.map((container) => `${container.Id}\n`).join(''));
    return 0;
  }
  const contexts = containerFormatTarget(containers, io.now(), true).items;
  // Every field of a container's context is text (see formatContexts.ts).
  const text = (context: (typeof contexts)[number], field: string): string => {
    const value = context.field(field, []);
    return typeof value === 'string' ? value : '';
  };
  const rows = contexts.map((context, index) => [
    ...['Names', 'Image', 'Command'].map((field) => text(context, field)),
    containers[index]?.Labels?.[COMPOSE_LABELS.service] ?? '',
    ...['RunningFor', 'Status', 'Ports'].map((field) => text(context, field)),
  ]);
  io.stdout.write(renderTable(['NAME', 'IMAGE', 'COMMAND', 'SERVICE', 'CREATED', 'STATUS', 'PORTS'], rows));
  return 0;
}

export async function composeLogs(
  options: { project: string; services: readonly string[]; follow: boolean; tail: number | 'all'; noColor: boolean },
  { io, signal, client }: CommandDeps,
): Promise<number> {
  const engine = client();
  const project = await findComposeProject(engine, options.project, { signal });
  const known = new Set(project.members.map((member) => member.service));
  const unknown = options.services.filter((service) => !known.has(service));
  if (unknown.length > 0 && !options.follow) {
    io.stderr.write(`berth: no container of service ${unknown.join(', ')} in ${project.name}. Services there: ${[...known].sort().join(', ')}\n`);
    return 1;
  }
  const prefixer = new LinePrefixer(!options.noColor && io.terminalSize() !== undefined);
  let pending: Promise<void> | undefined;
  const logs = new ProjectLogs(
    engine,
    project.name,
    {
      lines: (batch) => {
        const text = batch.map((line) => `${prefixer.format(line)}\n`).join('');
        // Backpressure: a slow reader of berth's output holds the next batch (the engine's stream waits too).
        pending = io.stdout.deliver(Buffer.from(text, 'utf8')) ?? pending;
      },
      notice: (text) => io.stderr.write(`berth: ${text}\n`),
    },
    { follow: options.follow, tail: options.tail, services: options.services, signal },
  );
  await logs.run();
  await pending;
  // ProjectLogs ends quietly when the signal aborts; Ctrl-C still ends the command as docker compose's does (130).
  signal.throwIfAborted();
  return 0;
}
