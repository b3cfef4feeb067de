/**
 * Show Logs on several selected containers (on one engine or several): one terminal with all their lines in the
 * engine's timestamp order, each prefixed with its container's name padded and coloured like a Compose project's
 * merged logs. The merge is the engine's (`mergeContainerLogs`), the prefixes the Compose terminal's.
 */
import * as vscode from 'vscode';
import { errorMessage } from '../common/errors';
import { compareLines, LinePrefixer, mergeContainerLogs, mergedLogsSourcesAcross, type MergedLine, type MergedLogLine } from '../engine';
import { composeTerminalText } from '../compose/terminalLines';
import { BufferedPseudoterminal } from '../terminals/bufferedPseudoterminal';
import { ANSI } from '../terminals/terminalText';
import type { CoreDeps } from '../workbench/deps';
import type { ContainerRef } from '../workbench/targets';

/** Lines the command's result keeps for automation and tests to read back; the terminal itself keeps its scrollback. */
const RECENT_LINES = 1000;

export interface MergedLogsResult {
  readonly terminalName: string;
  /** Lines shown so far. */
  readonly lines: () => number;
  /** The newest lines as shown (prefix and text, without colours). */
  readonly recent: () => string[];
  /** Whether the reading ended: every selected container stopped, the terminal closed, or it failed. */
  readonly ended: () => boolean;
}

/** Each container's label: its name, and its engine too when the same name is selected on several engines. */
export function mergedLabels(refs: ReadonlyArray<Pick<ContainerRef, 'name'> & { readonly session: { readonly name: string } }>): string[] {
  return refs.map((ref) => (refs.filter((other) => other.name === ref.name).length > 1 ? `${ref.name}@${ref.session.name}` : ref.name));
}

export function showMergedLogs(deps: CoreDeps, refs: readonly ContainerRef[]): MergedLogsResult {
  const labels = mergedLabels(refs);
  const terminalName = `Logs: ${labels.join(', ')}`;
  const terminal = new BufferedPseudoterminal();
  vscode.window.createTerminal({ name: terminalName, pty: terminal, iconPath: new vscode.ThemeIcon('output') }).show();
  const prefixer = new LinePrefixer(true);
  const plain = new LinePrefixer(false);
  const recent: string[] = [];
  let lines = 0;
  const asMerged = (line: MergedLogLine): MergedLine => {
    const ref = refs[line.source] as ContainerRef;
    // The label doubles as the colour key: one colour per selected container, in the order given.
    const label = labels[line.source] ?? ref.name;
    return { service: `${line.source}`, label, container: ref.id, stream: line.stream, seconds: line.seconds, nanos: line.nanos, text: line.text };
  };
  // Per container: the stamp of the last line shown and how many shown lines carry it (some engines stamp whole
  // seconds), so the resumed reading skips exactly what `since` (inclusive) sends again.
  const last: Array<{ seconds: number; nanos: number; count: number } | undefined> = refs.map(() => undefined);
  let replayed: Array<number | undefined> = refs.map(() => undefined);
  const show = (batch: readonly MergedLogLine[]): undefined => {
    const fresh = batch.filter((line) => {
      const seen = last[line.source];
      const order = seen ? compareLines(line, seen) : 1;
      if (order < 0) return false;
      if (order === 0 && seen) {
        const skip = replayed[line.source] ?? 0;
        if (skip > 0) {
          replayed[line.source] = skip - 1;
          return false;
        }
        seen.count += 1;
        return true;
      }
      last[line.source] = { seconds: line.seconds, nanos: line.nanos, count: 1 };
      return true;
    });
    const merged = fresh.map(asMerged);
    lines += merged.length;
    for (const line of merged) recent.push(plain.format(line));
    if (recent.length > RECENT_LINES) recent.splice(0, recent.length - RECENT_LINES);
    if (merged.length > 0) terminal.write(composeTerminalText(prefixer, merged));
    return undefined;
  };
  const run = async (): Promise<void> => {
    const targets = refs.map((ref) => ({ client: ref.session.client, id: ref.id }));
    const sources = await mergedLogsSourcesAcross(targets, terminal.signal);
    const tail = deps.settings.logsTail === 0 ? 'all' : deps.settings.logsTail;
    const client = (refs[0] as ContainerRef).session.client;
    const startedAt = Date.now() / 1000;
    // What is already logged, first without following: the merge then waits for every stream, so the order is exact
    // however slowly a stream opens (following, a stream quiet for a moment stops holding the others back).
    await mergeContainerLogs(client, sources, { follow: false, tail, signal: terminal.signal }, show);
    if (terminal.signal.aborted) return;
    replayed = last.map((seen) => seen?.count);
    const resumed = sources.map((source, index) => {
      const from = last[index];
      return { ...source, since: from ? from.seconds + Math.floor(from.nanos / 1000) / 1e6 : startedAt };
    });
    await mergeContainerLogs(client, resumed, { follow: true, tail: 'all', signal: terminal.signal }, show);
  };
  let ended = false;
  run().finally(() => (ended = true)).then(
    () => {
      if (!terminal.signal.aborted) terminal.writeLine(ANSI.dim('[Berth] end of logs: every selected container stopped'));
    },
    (error: unknown) => {
      if (terminal.signal.aborted) return;
      const message = errorMessage(error);
      deps.log.error(`Following logs of ${labels.join(', ')}: ${message}`);
      terminal.writeLine(ANSI.red(`[Berth] ${message}`));
    },
  );
  return { terminalName, lines: () => lines, recent: () => [...recent], ended: () => ended };
}
