/**
 * Arguments that skip a prompt (docs/commands.md, "Automation API"). Any extension, a task's or launch
 * configuration's `${input:…}` of type command, or a keybinding can call Berth's commands with arguments, and a
 * cloned repository can ship the last three. So arguments that only answer questions about the caller's own
 * request (`confirmed`, `whenClosed`) are taken as given, while those that would write a secret or a setting, or
 * take a workspace setting's word for something that widens a container's reach, are a request: the user is still
 * asked, unless the caller is Berth's own tests (the extension runs in Development or Test mode).
 */
import * as vscode from 'vscode';

let berthTestMode = false;

/** Set once in activate(): true when the extension host runs Berth from source or under its test runner. */
export function setBerthTestMode(enabled: boolean): void {
  berthTestMode = enabled;
}

/** Whether automation may write secrets and settings without asking (Berth's own tests only). */
export function isBerthTestMode(): boolean {
  return berthTestMode;
}

/**
 * Asks before automation writes a secret or a setting; in Berth's test mode the caller's arguments stand.
 * Resolves true when the write may go ahead.
 */
export async function confirmAutomatedWrite(message: string, action: string, detail: string): Promise<boolean> {
  if (berthTestMode) return true;
  return (await vscode.window.showWarningMessage(message, { modal: true, detail }, action)) === action;
}
