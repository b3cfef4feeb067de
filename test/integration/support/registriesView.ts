// The Registries view as the registries suites read it (through berth.internal.registriesChildren), and a command
// that must fail, with its message.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { errorMessage } from '../../../src/common/errors';

export interface ChildSummary {
  label: string;
  description: string | undefined;
  contextValue: string | undefined;
  tooltip: string | undefined;
  node: unknown;
}

/** The rows at a path of labels (`[]` = registries, `['127.0.0.1:5055']` = its repositories, …); `fresh` refreshes first. */
export async function registryRows(path: string[] = [], fresh = false): Promise<ChildSummary[]> {
  if (fresh) await vscode.commands.executeCommand('berth.registries.refresh');
  return (await vscode.commands.executeCommand<ChildSummary[]>('berth.internal.registriesChildren', path)) ?? [];
}

/** Runs a command that must fail; returns its error message. */
export async function failureOf(command: string, ...args: unknown[]): Promise<string> {
  try {
    await vscode.commands.executeCommand(command, ...args);
  } catch (error) {
    return errorMessage(error);
  }
  assert.fail(`${command} should have failed`);
}
