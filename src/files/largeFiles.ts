/**
 * `berth.files.maxOpenMB`: a file over it is opened only after the user says so (a modal), since the whole file
 * crosses the engine's socket and sits in the editor. A yes holds for that file at that mtime for the session.
 */
import * as vscode from 'vscode';
import { formatBytes } from '../common/format';

const DEFAULT_MAX_OPEN_MB = 50;
const BYTES_PER_MB = 1024 * 1024;

/** For tests: answers the question instead of a person (undefined: ask). Set through `berth.internal.answerLargeFiles`. */
let automatedAnswer: boolean | undefined;

export function answerLargeFilesFor(answer: boolean | undefined): void {
  automatedAnswer = answer;
}

export function maxOpenMB(): number {
  const value = vscode.workspace.getConfiguration('berth').get<number>('files.maxOpenMB', DEFAULT_MAX_OPEN_MB);
  return Number.isFinite(value) && value > 0 ? value : DEFAULT_MAX_OPEN_MB;
}

export class LargeFileGate {
  private readonly approved = new Set<string>();

  /** Resolves when PATH (SIZE bytes, MTIME) may be read; throws the refusal VS Code shows when the user declines. */
  async check(uri: vscode.Uri, path: string, size: number, mtime: number): Promise<void> {
    const limitMB = maxOpenMB();
    if (size <= limitMB * BYTES_PER_MB) return;
    const key = `${uri.toString()}@${mtime}`;
    if (this.approved.has(key)) return;
    const message = vscode.l10n.t('{0} is {1}, over berth.files.maxOpenMB ({2} MB). Open it anyway?', path, formatBytes(size), limitMB);
    const openAnyway = vscode.l10n.t('Open Anyway');
    const open = automatedAnswer ?? (await vscode.window.showWarningMessage(message, { modal: true, detail: vscode.l10n.t('The whole file is read from the engine into the editor.') }, openAnyway)) === openAnyway;
    if (!open) {
      throw vscode.FileSystemError.Unavailable(
        `${path} is ${formatBytes(size)}, over berth.files.maxOpenMB (${limitMB} MB), and was not opened. Download it instead, or raise the setting`,
      );
    }
    this.approved.add(key);
  }
}
