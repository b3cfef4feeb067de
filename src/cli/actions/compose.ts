/** `berth compose …`: projects from labels, group actions and merged logs, all through the Engine API. */
import { LinePrefixer, ProjectLogs, actOnMembers, findComposeProject, listComposeProjects, membersFor, type GroupAction } from '../../engine';
import { renderTable } from '../format';
import type { CommandDeps } from '../io';

export async function composeLs(options: { quiet: boolean }, { io, signal, client }: CommandDeps): Promise<number> {
  const projects = await listComposeProjects(client(), { signal });
  if (options.quiet) {
    io.stdout.write(projects.map((project) => `${project.name}\n`).join(''));
    return 0;
  }
  const rows = projects.map((project) => {
    const states = new Map<string, number>();
    for (const member of project.members) states.set(member.state, (states.get(member.state) ?? 0) + 1);
    const status = [...states.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([state, count]) => `${state}(${count})`).join(', ');
    return [project.name, status, project.configFiles.join(',')];
  });
  io.stdout.write(renderTable(['NAME', 'STATUS', 'CONFIG FILES'], rows));
  return 0;
}

export async function composeGroup(
  options: { project: string; action: GroupAction; timeoutSeconds: number | undefined; force: boolean },
  { io, signal, client }: CommandDeps,
): Promise<number> {
  const engine = client();
  const project = await findComposeProject(engine, options.project, { signal });
  let members = membersFor(options.action, project.members);
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
  return 0;
}
