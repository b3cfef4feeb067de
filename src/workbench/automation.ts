/**
 * Arguments that skip a prompt (docs/commands.md, "Automation API"). Any extension, a command link in a hover or a
 * trusted notebook, a task's or launch configuration's `${input:…}` of type command, or a keybinding can call Berth's
 * commands with arguments, and a cloned repository can ship the last three. So arguments that only pick what a
 * command acts on are taken as given; those that would write a secret or a setting, or take a workspace setting's
 * word for something that widens a container's reach, are a request the user is asked about; and a command that
 * runs, creates, tags, pushes, removes or prunes asks, showing the values, whenever its arguments do not come from
 * Berth's own UI (workbench/callOrigin.ts, commandTable.ts). Berth's own tests (the extension runs in Development or
 * Test mode) skip those questions, or capture them (`berth.internal.outsideArguments`).
 */
import * as vscode from 'vscode';

let berthTestMode = false;

/**
 * How Berth's test mode treats outside arguments: 'given' (the default) lets them stand, as the tests that drive
 * commands by id rely on; 'asked' applies the production rule, but records each question and answers it with
 * `testAnswer` instead of showing a modal. Outside test mode neither applies: questions are asked.
 */
type TestRule = 'given' | 'asked';
let testRule: TestRule = 'given';
let testAnswer = false;
let captured: CapturedQuestion[] = [];

/** A modal question as the user would see it. */
export interface CapturedQuestion {
  readonly message: string;
  readonly action: string;
  readonly detail: string | undefined;
}

/** Set once in activate(): true when the extension host runs Berth from source or under its test runner. */
export function setBerthTestMode(enabled: boolean): void {
  berthTestMode = enabled;
}

/** Whether automation may write secrets and settings without asking (Berth's own tests only). */
export function isBerthTestMode(): boolean {
  return berthTestMode;
}

/** Whether arguments from outside Berth's UI stand as given: only in Berth's test mode, under its default rule. */
export function outsideArgumentsStand(): boolean {
  return berthTestMode && testRule === 'given';
}

/**
 * For Berth's tests (`berth.internal.outsideArguments`): switches the test mode's rule, sets the answer captured
 * questions get, and hands back (and forgets) the questions captured so far. Does nothing outside test mode.
 */
export function setOutsideArgumentRule(rule: TestRule, answer: boolean): CapturedQuestion[] {
  if (!berthTestMode) return [];
  testRule = rule;
  testAnswer = answer;
  const questions = captured;
  captured = [];
  return questions;
}

/** A modal question with one action; whether the user chose it. Captured instead under the test mode's 'asked' rule. */
export async function askModal(message: string, action: string, detail?: string): Promise<boolean> {
  if (berthTestMode && testRule === 'asked') {
    captured.push({ message, action, detail });
    return testAnswer;
  }
  const options: vscode.MessageOptions = detail === undefined ? { modal: true } : { modal: true, detail };
  return (await vscode.window.showWarningMessage(message, options, action)) === action;
}

/**
 * Asks before automation writes a secret or a setting; in Berth's test mode the caller's arguments stand.
 * Resolves true when the write may go ahead.
 */
export async function confirmAutomatedWrite(message: string, action: string, detail: string): Promise<boolean> {
  if (outsideArgumentsStand()) return true;
  return askModal(message, action, detail);
}
