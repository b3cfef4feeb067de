/**
 * Logs in an editor: a read-only virtual document (`berth-logs:/<name>.log?id=<id>`) that shows the last
 * `berth.logs.tail` lines and keeps appending, like the Show Logs terminal: across restarts of the container and
 * outages of the engine, each said in the document by a `[Berth] …` line. Changes are announced at most every
 * UPDATE_INTERVAL_MS while output flows; closing the document ends the following.
 *
 * A filter and a time range ride in the URI (logsView.ts), so the title says them. Changing the filter moves the
 * following document to the new URI: the stream goes on, and the lines already read are judged again. The document
 * holds at most `berth.logs.maxLines` lines (the content-provider contract sends the whole text at each refresh);
 * older lines stay reachable through Save Logs or a time range.
 */
import * as vscode from 'vscode';
import { CoalescedRun } from '../common/coalescedRun';
import { errorMessage } from '../common/errors';
import type { LogDeps, SessionsDeps, SettingsDeps } from '../workbench/deps';
import { FollowingDocuments } from '../workbench/followingDocuments';
import { FilteredSink, LineFilter } from './lineFilter';
import { LogBuffer } from './logBuffer';
import { MatchDecorations } from './matchDecorations';
import { followContainerLogs, type LogsClient, type LogsClientSource } from './logFollower';
import { noMatchNotice, titleSegment, viewOfQuery, viewQuery, viewTitleSuffix, type LogsViewSpec } from './logsView';

/** What logs documents need: the log, the logs settings, and the engine a URI names. */
export type LogsDocumentDeps = LogDeps & Pick<SettingsDeps, 'settings'> & Pick<SessionsDeps, 'sessionFor'>;

export const LOGS_SCHEME = 'berth-logs';
const UPDATE_INTERVAL_MS = 100;

/** `engine` (a session id) is added when the container is not necessarily on the current engine. */
export function logsUri(name: string, id: string, engine?: string, view: LogsViewSpec = {}): vscode.Uri {
  const params = new URLSearchParams({ id, ...(engine === undefined ? {} : { engine }), ...viewQuery(view) });
  const query = params.toString();
  return vscode.Uri.from({ scheme: LOGS_SCHEME, path: `/${titleSegment(`${name}${viewTitleSuffix(view)}`)}.log`, query });
}

/** The container a logs URI shows: its id, engine, name and view. */
export function logsUriParts(uri: vscode.Uri): { id: string; engine: string | undefined; name: string; view: LogsViewSpec } {
  const query = new URLSearchParams(uri.query);
  const id = query.get('id') ?? uri.path.replace(/^\/|\.log$/g, '');
  const name = uri.path.replace(/^\//, '').replace(/\.log$/, '').split(' · ')[0] ?? id;
  return { id, engine: query.get('engine') ?? undefined, name, view: viewOfQuery(query) };
}

export class LogDocument {
  /** Every line read (up to the cap); `shown` is the same buffer without a filter, the kept lines with one. */
  readonly buffer: LogBuffer;
  private kept: LogBuffer | undefined;
  private readonly filtered: FilteredSink;
  readonly controller = new AbortController();
  readonly backlog: Promise<void>;
  private readonly updates = new CoalescedRun(() => {
    this.changed(this.uri);
    this.tellAboutCap();
  }, UPDATE_INTERVAL_MS, this.controller.signal);
  private toldAboutCap = false;

  constructor(
    private readonly deps: LogsDocumentDeps,
    private uri: vscode.Uri,
    readonly id: string,
    readonly engine: string,
    client: LogsClientSource,
    private readonly changed: (uri: vscode.Uri) => void,
  ) {
    this.buffer = new LogBuffer(deps.settings.logsMaxLines);
    const view = logsUriParts(uri).view;
    this.range = { since: view.since, until: view.until };
    this.filtered = new FilteredSink({
      output: (stream, text, stamp) => this.kept?.append(stream, text, stamp),
      notice: (text) => this.kept?.appendNotice(text),
    });
    this.setFilter(view.filter ? LineFilter.create(view.filter) : undefined);
    let backlogDone: () => void = () => undefined;
    this.backlog = new Promise((resolve) => (backlogDone = resolve));
    const sink = {
      output: (stream: 'stdout' | 'stderr', text: string, stamp?: string) => {
        this.buffer.append(stream, text, stamp);
        if (this.kept) this.filtered.output(stream, text, stamp);
        this.updates.schedule();
      },
      notice: (text: string) => {
        this.buffer.appendNotice(text);
        this.kept?.appendNotice(text);
        this.updates.schedule();
      },
    };
    followContainerLogs(client, id, sink, {
      // A range from a start reads all of it; the tail is for following from now.
      tail: view.since !== undefined || deps.settings.logsTail === 0 ? 'all' : deps.settings.logsTail,
      since: view.since,
      until: view.until,
      signal: this.controller.signal,
      followRestarts: view.until === undefined,
      onBacklog: backlogDone,
    })
      .catch((error: unknown) => {
        if (this.controller.signal.aborted) return;
        const message = errorMessage(error);
        deps.log.error(`Logs of ${id}: ${message}`);
        this.buffer.appendNotice(`logs failed: ${message}`);
        this.kept?.appendNotice(`logs failed: ${message}`);
        this.updates.schedule();
      })
      .finally(() => {
        backlogDone();
        if (view.until !== undefined && !this.controller.signal.aborted) {
          this.buffer.appendNotice('end of the time range');
          this.kept?.appendNotice('end of the time range');
          this.updates.schedule();
        }
      });
  }

  readonly range: { readonly since: number | undefined; readonly until: number | undefined };

  get filter(): LineFilter | undefined {
    return this.filtered.filter;
  }

  /** The buffer the document shows. */
  get shown(): LogBuffer {
    return this.kept ?? this.buffer;
  }

  /** A new filter (or none): the lines already read are judged again, the stream goes on. */
  setFilter(filter: LineFilter | { error: string } | undefined): void {
    const usable = filter instanceof LineFilter ? filter : undefined;
    this.filtered.filter = usable;
    this.kept = usable ? LogBuffer.kept(this.buffer, (line) => usable.keeps(line), this.deps.settings.logsMaxLines) : undefined;
  }

  /** The document now lives at URI (its title names the new filter). */
  moveTo(uri: vscode.Uri): void {
    this.uri = uri;
  }

  /** A first line when a filter keeps nothing: it says so, and that the document still follows. */
  get header(): string | undefined {
    const filter = this.filter;
    if (!filter || this.shown.outputLineCount > 0) return undefined;
    return `[Berth] ${noMatchNotice(filter.describe(), this.buffer.outputLineCount)}\n`;
  }

  text(): string {
    return (this.header ?? '') + this.shown.text();
  }

  dispose(): void {
    this.controller.abort();
    this.updates.dispose();
  }

  private tellAboutCap(): void {
    if (this.toldAboutCap || this.buffer.dropped === 0) return;
    this.toldAboutCap = true;
    const max = this.deps.settings.logsMaxLines;
    void vscode.window
      .showInformationMessage(
        vscode.l10n.t('The logs document keeps the last {0} lines (berth.logs.maxLines); older lines are dropped to keep the editor responsive.', max),
        'Open Settings',
      )
      .then((choice) => {
        if (choice) void vscode.commands.executeCommand('workbench.action.openSettings', 'berth.logs.maxLines');
      });
  }
}

export class LogsDocumentProvider extends FollowingDocuments<LogDocument> {
  constructor(private readonly deps: LogsDocumentDeps) {
    super(LOGS_SCHEME);
    this._register(new MatchDecorations(LOGS_SCHEME, (uri) => this.documents.get(uri.toString())?.filter));
  }

  protected open(uri: vscode.Uri, changed: (uri: vscode.Uri) => void): LogDocument {
    const parts = logsUriParts(uri);
    // The engine by its id, its session asked again on each call: the document follows a session rebuilt after an outage.
    const engine = parts.engine ?? this.deps.sessionFor(undefined).id;
    const client = (): LogsClient => this.deps.sessionFor(engine).client;
    return new LogDocument(this.deps, uri, parts.id, engine, client, changed);
  }

  /** The following document behind an open logs URI. */
  documentOf(uri: vscode.Uri): LogDocument | undefined {
    return this.documents.get(uri.toString());
  }

  /**
   * Gives the document at URI a new filter and moves it to the URI that names it, keeping its stream; the new URI,
   * to open in place of the old one.
   */
  refilter(uri: vscode.Uri, filter: LineFilter | undefined): vscode.Uri | undefined {
    const document = this.documents.get(uri.toString());
    if (!document) return undefined;
    const parts = logsUriParts(uri);
    const moved = logsUri(parts.name, parts.id, parts.engine, { ...parts.view, filter: filter?.spec });
    this.documents.delete(uri.toString());
    document.setFilter(filter);
    document.moveTo(moved);
    this.documents.set(moved.toString(), document);
    // VS Code may still hold a document at that URI from before (the view had this filter once, or none): it must
    // read the text again now, not at the next line, which may never come.
    this.announce(moved);
    return moved;
  }
}
