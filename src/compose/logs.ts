/**
 * A Compose project's merged logs: one terminal (prefixes padded and coloured like `docker compose logs`) and one
 * live read-only document (`berth-compose-logs:/<project>.log?engine=…`). Both follow restarts and containers that
 * join the project later; closing the terminal or the document ends the reading.
 */
import * as vscode from 'vscode';
import { CoalescedRun } from '../common/coalescedRun';
import { errorMessage } from '../common/errors';
import { LinePrefixer, ProjectLogs, type MergedLine } from '../engine';
import { BufferedPseudoterminal } from '../terminals/bufferedPseudoterminal';
import { ANSI } from '../terminals/terminalText';
import { command, type CommandEntry } from '../workbench/commandTable';
import type { CoreDeps } from '../workbench/deps';
import { FollowingDocuments } from '../workbench/followingDocuments';
import { resolveProject } from './projects';
import { composeTerminalText } from './terminalLines';

export const COMPOSE_LOGS_SCHEME = 'berth-compose-logs';
const UPDATE_INTERVAL_MS = 100;

function tailOf(deps: CoreDeps): number | 'all' {
  return deps.settings.logsTail === 0 ? 'all' : deps.settings.logsTail;
}

export function composeLogsUri(project: string, engine: string, services: readonly string[] = []): vscode.Uri {
  const query = new URLSearchParams({ project, engine, ...(services.length > 0 ? { services: services.join(',') } : {}) });
  return vscode.Uri.from({ scheme: COMPOSE_LOGS_SCHEME, path: `/${project.replace(/[/\\:?#]/g, '_')}.log`, query: query.toString() });
}

class ProjectDocument {
  readonly controller = new AbortController();
  private readonly lines: string[] = [];
  private readonly prefixer = new LinePrefixer(false);
  private readonly updates: CoalescedRun;
  readonly backlog: Promise<void>;
  /** Every line the engine sent, kept or not: the bench and the tests count them. */
  received = 0;

  constructor(
    deps: CoreDeps,
    uri: vscode.Uri,
    changed: () => void,
  ) {
    this.updates = new CoalescedRun(changed, UPDATE_INTERVAL_MS, this.controller.signal);
    const query = new URLSearchParams(uri.query);
    const project = query.get('project') ?? '';
    const services = (query.get('services') ?? '').split(',').filter((service) => service !== '');
    const session = deps.sessionFor(query.get('engine') ?? undefined);
    const max = deps.settings.logsMaxLines;
    let first: () => void = () => undefined;
    this.backlog = new Promise((resolve) => (first = resolve));
    const reader = new ProjectLogs(session.client, project, {
      lines: (batch: readonly MergedLine[]) => {
        this.received += batch.length;
        for (const line of batch) this.lines.push(this.prefixer.format(line));
        if (this.lines.length > max) this.lines.splice(0, this.lines.length - max);
        this.updates.schedule();
      },
      notice: (text) => {
        this.lines.push(`[Berth] ${text}`);
        this.updates.schedule();
      },
    }, { follow: true, tail: tailOf(deps), services, signal: this.controller.signal });
    // The first listing is quick; the document opens with what arrived in the first moment and then grows.
    setTimeout(first, 300);
    reader.run().catch((error: unknown) => {
      if (this.controller.signal.aborted) return;
      deps.log.error(`Logs of project ${project}: ${errorMessage(error)}`);
      this.lines.push(`[Berth] logs failed: ${errorMessage(error)}`);
      this.updates.schedule();
    }).finally(first);
  }

  text(): string {
    return this.lines.length > 0 ? `${this.lines.join('\n')}\n` : '';
  }

  dispose(): void {
    this.controller.abort();
    this.updates.dispose();
  }
}

export class ProjectLogsDocuments extends FollowingDocuments<ProjectDocument> {
  constructor(private readonly deps: CoreDeps) {
    super(COMPOSE_LOGS_SCHEME);
  }

  protected open(uri: vscode.Uri, changed: (uri: vscode.Uri) => void): ProjectDocument {
    return new ProjectDocument(this.deps, uri, () => changed(uri));
  }

  /** For tests and the bench: lines received by an open document. */
  received(uri: vscode.Uri): number | undefined {
    return this.documents.get(uri.toString())?.received;
  }
}

export function logsCommands(documents: ProjectLogsDocuments): ReadonlyArray<CommandEntry<CoreDeps>> {
  return [
    command('berth.compose.logs', 'Showing the project logs', (deps) => async (...args: unknown[]) => {
      const target = await resolveProject(deps, args, 'Compose project whose logs to follow');
      if (!target) return undefined;
      const { session, project, options } = target;
      const terminal = new BufferedPseudoterminal();
      const terminalName = `Logs: ${project.name}`;
      vscode.window.createTerminal({ name: terminalName, pty: terminal, iconPath: new vscode.ThemeIcon('layers') }).show();
      const prefixer = new LinePrefixer(true);
      let lines = 0;
      const reader = new ProjectLogs(session.client, project.name, {
        lines: (batch) => {
          lines += batch.length;
          terminal.write(composeTerminalText(prefixer, batch));
        },
        notice: (text) => terminal.writeLine(ANSI.dim(`[Berth] ${text}`)),
      }, { follow: true, tail: tailOf(deps), services: Array.isArray(options['services']) ? options['services'].map(String) : [], signal: terminal.signal });
      reader.run().catch((error: unknown) => {
        if (!terminal.signal.aborted) terminal.writeLine(ANSI.red(`[Berth] ${errorMessage(error)}`));
      });
      return { terminalName, lines: () => lines };
    }),
    command('berth.compose.logsInEditor', 'Opening the project logs', (deps) => async (...args: unknown[]) => {
      const target = await resolveProject(deps, args, 'Compose project whose logs to open');
      if (!target) return undefined;
      const services = Array.isArray(target.options['services']) ? target.options['services'].map(String) : [];
      const uri = composeLogsUri(target.project.name, target.session.id, services);
      const document = await vscode.workspace.openTextDocument(uri);
      await vscode.window.showTextDocument(document, { preview: false });
      return { uri: uri.toString(), received: () => documents.received(uri) };
    }),
  ];
}
