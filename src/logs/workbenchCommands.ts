/**
 * The logs workbench: Filter Logs… and Clear Filter on the active logs editor or terminal, Go to Time in a logs
 * editor, Open Logs in a Time Range…, and Save Logs… (streamed to a file, with the view's filter and range).
 */
import * as vscode from 'vscode';
import { formatBytes } from '../common/format';
import { command, type CommandEntry } from '../workbench/commandTable';
import { confirmAutomatedWrite } from '../workbench/automation';
import { isCancellation, withCancellableProgress } from '../workbench/feedback';
import { resolveContainers } from '../workbench/targets';
import type { LogCommandDeps } from './deps';
import { LineFilter } from './lineFilter';
import { LOGS_SCHEME, logsUri, logsUriParts, type LogDocument } from './logsDocumentProvider';
import type { LogTerminalView } from './logTerminal';
import { askFilter, askRange, readTime } from './prompts';
import { saveContainerLogs } from './saveLogs';

type ActiveLogs = { readonly kind: 'document'; readonly uri: vscode.Uri; readonly document: LogDocument } | { readonly kind: 'terminal'; readonly view: LogTerminalView };

/** The logs view a command acts on: the URI it was given (an editor's title), the active logs editor, or terminal. */
function activeLogs(deps: LogCommandDeps, args: unknown[]): ActiveLogs | undefined {
  const given = args[0] instanceof vscode.Uri ? args[0] : undefined;
  const editorUri = given ?? vscode.window.activeTextEditor?.document.uri;
  if (editorUri?.scheme === LOGS_SCHEME) {
    const document = deps.logDocuments.documentOf(editorUri);
    if (document) return { kind: 'document', uri: editorUri, document };
  }
  const view = deps.logTerminalViews.of(vscode.window.activeTerminal);
  return view ? { kind: 'terminal', view } : undefined;
}

/**
 * A filter given as the second argument (`{ text, regex?, caseSensitive?, invert? }`, from a keybinding or a test):
 * the filter, 'clear' for an empty text, undefined when none was given. An invalid one is refused with its reason.
 */
function givenFilter(value: unknown): LineFilter | 'clear' | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { text, regex, caseSensitive, invert } = value as Record<string, unknown>;
  if (typeof text !== 'string') return undefined;
  if (text === '') return 'clear';
  const made = LineFilter.create({ text, regex: regex === true, caseSensitive: caseSensitive === true, invert: invert === true });
  if (made instanceof LineFilter) return made;
  throw new Error(made.error);
}

/** The file a command was given to write (`{ destination }`), or undefined when none was given. */
function givenDestination(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { destination } = value as Record<string, unknown>;
  return typeof destination === 'string' && destination !== '' ? destination : undefined;
}

function noLogsOpen(): undefined {
  void vscode.window.showInformationMessage(vscode.l10n.t('Open a logs editor or a logs terminal first (Open Logs in Editor, Show Logs).'));
  return undefined;
}

/** Applies a filter (or none) to a logs view, keeping its stream; the editor is reopened under the title naming it. */
async function applyFilter(deps: LogCommandDeps, target: ActiveLogs, filter: LineFilter | undefined): Promise<string> {
  if (target.kind === 'terminal') {
    target.view.setFilter(filter);
    return target.view.title;
  }
  const moved = deps.logDocuments.refilter(target.uri, filter);
  if (!moved) return target.uri.toString();
  const document = await vscode.workspace.openTextDocument(moved);
  await vscode.window.showTextDocument(document, { preview: false });
  // Looked up after the new editor opened: opening it replaces the tab objects, and closing a stale one fails.
  const oldTabs = vscode.window.tabGroups.all.flatMap((group) => group.tabs).filter((tab) => tab.input instanceof vscode.TabInputText && tab.input.uri.toString() === target.uri.toString());
  await vscode.window.tabGroups.close(oldTabs);
  return moved.toString();
}

export const logWorkbenchCommands: ReadonlyArray<CommandEntry<LogCommandDeps>> = [
  command('berth.logs.filter', 'Filtering logs', (deps) => async (...args: unknown[]) => {
    const target = activeLogs(deps, args);
    if (!target) return noLogsOpen();
    const current = target.kind === 'terminal' ? target.view.filter : target.document.filter;
    const answer = givenFilter(args[1]) ?? (await askFilter(current?.spec));
    if (answer === undefined) return undefined;
    return { shown: await applyFilter(deps, target, answer === 'clear' ? undefined : answer) };
  }),

  command('berth.logs.clearFilter', 'Clearing the logs filter', (deps) => async (...args: unknown[]) => {
    const target = activeLogs(deps, args);
    if (!target) return noLogsOpen();
    return { shown: await applyFilter(deps, target, undefined) };
  }),

  command('berth.logs.goToTime', 'Going to a time in the logs', (deps) => async (...args: unknown[]) => {
    const target = activeLogs(deps, args);
    if (target?.kind !== 'document') {
      void vscode.window.showInformationMessage(vscode.l10n.t('Go to Time works in a logs editor: open one with Open Logs in Editor.'));
      return undefined;
    }
    const text = await vscode.window.showInputBox({
      title: vscode.l10n.t('Go to Time'),
      prompt: vscode.l10n.t('A duration before now (10m), a date or time (local without a zone), or Unix seconds.'),
      validateInput: (value) => {
        const read = readTime(value, Date.now());
        return typeof read === 'number' ? undefined : read.error;
      },
    });
    if (text === undefined) return undefined;
    const seconds = readTime(text, Date.now()) as number;
    const line = target.document.shown.lineOfTime(seconds) ;
    if (line === 'before') {
      void vscode.window.showInformationMessage(vscode.l10n.t('That time is before the first line this document keeps (berth.logs.maxLines). Open Logs in a Time Range… or Save Logs… reach it.'));
      return { line: 'before' };
    }
    if (line === undefined) {
      void vscode.window.showInformationMessage(vscode.l10n.t('No line is that late yet; the document keeps following.'));
      return { line: 'after' };
    }
    const shownLine = line + (target.document.header === undefined ? 0 : 1);
    const editor = await vscode.window.showTextDocument(target.uri, { preview: false });
    const position = new vscode.Position(shownLine, 0);
    editor.selection = new vscode.Selection(position, position);
    editor.revealRange(new vscode.Range(position, position), vscode.TextEditorRevealType.AtTop);
    return { line: shownLine };
  }),

  command('berth.openLogsInRange', 'Opening logs in a time range', (deps) => async (...args: unknown[]) => {
    const target = await resolveContainers(deps, args, { placeHolder: vscode.l10n.t('Container whose logs to open'), eligible: () => true, many: false });
    const ref = target?.refs[0];
    if (!ref) return undefined;
    const range = await askRange();
    if (!range) return undefined;
    const uri = logsUri(ref.name, ref.id, deps.engines.isMulti ? ref.session.id : undefined, range);
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { preview: false });
    return { uri: uri.toString() };
  }),

  command('berth.logs.save', 'Saving logs', (deps) => async (...args: unknown[]) => {
    const active = args[0] === undefined || args[0] instanceof vscode.Uri ? activeLogs(deps, args) : undefined;
    let source: { id: string; name: string; engine: string | undefined; filter: LineFilter | undefined; since?: number | undefined; until?: number | undefined };
    if (active?.kind === 'document') {
      const parts = logsUriParts(active.uri);
      source = { id: active.document.id, name: parts.name, engine: active.document.engine, filter: active.document.filter, ...active.document.range };
    } else if (active?.kind === 'terminal') {
      source = { id: active.view.container.id, name: active.view.name, engine: active.view.container.engine, filter: active.view.filter };
    } else {
      const target = await resolveContainers(deps, args, { placeHolder: vscode.l10n.t('Container whose logs to save'), eligible: () => true, many: false });
      const ref = target?.refs[0];
      if (!ref) return undefined;
      source = { id: ref.id, name: ref.name, engine: ref.session.id, filter: undefined };
    }
    const destination = givenDestination(args[1]);
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const fileName = `${source.name.replace(/[/\\:?#*"<>|]/g, '_')}.log`;
    const chosen =
      destination !== undefined
        ? vscode.Uri.file(destination)
        : await vscode.window.showSaveDialog({
            title: vscode.l10n.t('Save Logs of {0}', source.name),
            ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, fileName) } : {}),
            filters: { [vscode.l10n.t('Log files')]: ['log', 'txt'] },
          });
    if (!chosen) return undefined;
    if (destination !== undefined && !(await confirmAutomatedWrite(vscode.l10n.t('Save the logs of {0} to {1}?', source.name, chosen.fsPath), vscode.l10n.t('Save'), 'A command gave Berth this path to write; what is there is replaced.'))) return undefined;
    const client = deps.sessionFor(source.engine).client;
    try {
      const saved = await withCancellableProgress(vscode.l10n.t('Saving the logs of {0}', source.name), (signal, progress) =>
        saveContainerLogs(client, source.id, chosen.fsPath, {
          signal,
          filter: source.filter,
          since: source.since,
          until: source.until,
          onProgress: (bytes) => progress.report({ message: formatBytes(bytes) }),
        }),
      );
      const message = source.filter
        ? vscode.l10n.t('Saved {0} of {1} lines ({2}, filter {3}) of {4} to {5}.', saved.linesWritten, saved.linesRead, formatBytes(saved.bytes), source.filter.describe(), source.name, chosen.fsPath)
        : vscode.l10n.t('Saved {0} lines ({1}) of {2} to {3}.', saved.linesWritten, formatBytes(saved.bytes), source.name, chosen.fsPath);
      void vscode.window.showInformationMessage(message);
      return { path: chosen.fsPath, ...saved };
    } catch (error) {
      if (!isCancellation(error)) throw error;
      void vscode.window.showInformationMessage(vscode.l10n.t('Saving the logs of {0} was cancelled; no file was left.', source.name));
      return { cancelled: true };
    }
  }),
];
