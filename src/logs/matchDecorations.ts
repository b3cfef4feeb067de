/**
 * Highlights the filter's matches in logs editors: only the lines on screen (and a margin) are searched, on each
 * scroll and each refresh, so the cost stays the same at any size of document.
 */
import * as vscode from 'vscode';
import { Disposable } from '../common/lifecycle';
import type { LineFilter } from './lineFilter';

/** Lines searched above and below the visible ones, so a short scroll shows highlights at once. */
const MARGIN_LINES = 50;
/** Characters of a line searched: a megabyte-long line is highlighted in its beginning only. */
const SEARCHED_CHARS = 10_000;

export class MatchDecorations extends Disposable {
  private readonly decoration = this._register(
    vscode.window.createTextEditorDecorationType({
      backgroundColor: new vscode.ThemeColor('editor.findMatchHighlightBackground'),
      borderColor: new vscode.ThemeColor('editor.findMatchHighlightBorder'),
      borderStyle: 'solid',
      borderWidth: '1px',
    }),
  );

  constructor(
    private readonly scheme: string,
    private readonly filterOf: (uri: vscode.Uri) => LineFilter | undefined,
  ) {
    super();
    this._register(vscode.window.onDidChangeVisibleTextEditors(() => this.updateAll()));
    this._register(vscode.window.onDidChangeTextEditorVisibleRanges((event) => this.update(event.textEditor)));
    this._register(
      vscode.workspace.onDidChangeTextDocument((event) => {
        if (event.document.uri.scheme !== this.scheme) return;
        for (const editor of vscode.window.visibleTextEditors) if (editor.document === event.document) this.update(editor);
      }),
    );
  }

  updateAll(): void {
    for (const editor of vscode.window.visibleTextEditors) this.update(editor);
  }

  private update(editor: vscode.TextEditor): void {
    const { document } = editor;
    if (document.uri.scheme !== this.scheme) return;
    const filter = this.filterOf(document.uri);
    const ranges: vscode.Range[] = [];
    if (filter) {
      for (const visible of editor.visibleRanges) {
        const first = Math.max(0, visible.start.line - MARGIN_LINES);
        const last = Math.min(document.lineCount - 1, visible.end.line + MARGIN_LINES);
        for (let line = first; line <= last; line++) {
          const text = document.lineAt(line).text;
          if (text.startsWith('[Berth] ')) continue;
          for (const [start, end] of filter.matches(text.slice(0, SEARCHED_CHARS))) ranges.push(new vscode.Range(line, start, line, end));
        }
      }
    }
    editor.setDecorations(this.decoration, ranges);
  }
}
