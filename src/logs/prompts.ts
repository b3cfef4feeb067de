/**
 * The logs workbench's questions: a filter (text or regular expression, case, invert, checked as typed) and times
 * (docker's since/until reading, an end before the start refused as typed).
 */
import * as vscode from 'vscode';
import { TimeArgumentError, timeArgumentSeconds } from '../engine/api';
import { LineFilter, type LogFilterSpec } from './lineFilter';
import { rangeError } from './logsView';

interface Toggle {
  readonly key: 'regex' | 'caseSensitive' | 'invert';
  readonly icon: string;
  readonly label: string;
}

const TOGGLES: readonly Toggle[] = [
  { key: 'caseSensitive', icon: 'case-sensitive', label: vscode.l10n.t('Match Case') },
  { key: 'regex', icon: 'regex', label: vscode.l10n.t('Use Regular Expression') },
  { key: 'invert', icon: 'exclude', label: vscode.l10n.t('Show Lines That Do Not Match') },
];

/** Asks for a filter; undefined when dismissed. An empty text with a filter set asks to clear it ('clear'). */
export async function askFilter(current: LogFilterSpec | undefined): Promise<LineFilter | 'clear' | undefined> {
  const state = { regex: current?.regex ?? false, caseSensitive: current?.caseSensitive ?? false, invert: current?.invert ?? false };
  const input = vscode.window.createInputBox();
  input.title = vscode.l10n.t('Filter Logs');
  input.prompt = vscode.l10n.t('Only lines that match are shown; the logs keep following. Empty: no filter.');
  input.placeholder = vscode.l10n.t('Text or regular expression');
  input.value = current?.text ?? '';
  const buttons = (): vscode.QuickInputButton[] =>
    TOGGLES.map((toggle) => ({
      iconPath: new vscode.ThemeIcon(state[toggle.key] ? 'pass-filled' : toggle.icon),
      tooltip: `${toggle.label} (${state[toggle.key] ? vscode.l10n.t('on') : vscode.l10n.t('off')})`,
    }));
  const check = (): LineFilter | { error: string } | undefined => (input.value === '' ? undefined : LineFilter.create({ text: input.value, ...state }));
  const validate = (): void => {
    const made = check();
    input.validationMessage = made === undefined || made instanceof LineFilter ? undefined : made.error;
  };
  input.buttons = buttons();
  validate();
  return new Promise((resolve) => {
    let result: LineFilter | 'clear' | undefined;
    input.onDidChangeValue(validate);
    input.onDidTriggerButton((button) => {
      const toggle = TOGGLES[input.buttons.indexOf(button)];
      if (!toggle) return;
      state[toggle.key] = !state[toggle.key];
      input.buttons = buttons();
      validate();
    });
    input.onDidAccept(() => {
      const made = check();
      if (made === undefined) result = 'clear';
      else if (made instanceof LineFilter) result = made;
      else return;
      input.hide();
    });
    input.onDidHide(() => {
      input.dispose();
      resolve(result);
    });
    input.show();
  });
}

/** Unix seconds of a typed time, or the message saying why it is no time. */
export function readTime(text: string, nowMs: number): number | { error: string } {
  try {
    return timeArgumentSeconds(text, nowMs);
  } catch (error) {
    if (!(error instanceof TimeArgumentError)) throw error;
    return { error: vscode.l10n.t('{0}. Give a duration before now (10m, 1h30m), a date or time (2026-11-28, 2026-11-28T13:23:37Z) or Unix seconds.', error.reason) };
  }
}

/** Asks for a start and an end; undefined when dismissed. Empty start: from the first line; empty end: follow. */
export async function askRange(): Promise<{ since: number | undefined; until: number | undefined } | undefined> {
  const sinceText = await vscode.window.showInputBox({
    title: vscode.l10n.t('Logs in a Time Range (1/2)'),
    prompt: vscode.l10n.t('From: a duration before now (10m), a date or time (local without a zone), or Unix seconds. Empty: from the first line.'),
    validateInput: (text) => (text.trim() === '' ? undefined : errorOf(readTime(text, Date.now()))),
  });
  if (sinceText === undefined) return undefined;
  const since = sinceText.trim() === '' ? undefined : (readTime(sinceText, Date.now()) as number);
  const untilText = await vscode.window.showInputBox({
    title: vscode.l10n.t('Logs in a Time Range (2/2)'),
    prompt: vscode.l10n.t('Until: the same forms. Empty: keep following.'),
    validateInput: (text) => {
      if (text.trim() === '') return undefined;
      const until = readTime(text, Date.now());
      return errorOf(until) ?? rangeError(since, until as number);
    },
  });
  if (untilText === undefined) return undefined;
  return { since, until: untilText.trim() === '' ? undefined : (readTime(untilText, Date.now()) as number) };
}

function errorOf(value: number | { error: string }): string | undefined {
  return typeof value === 'number' ? undefined : value.error;
}
