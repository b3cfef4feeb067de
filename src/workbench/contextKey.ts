/** A typed `setContext` key (as in vscode-references-view): one place names the key and the type of its value. */
import * as vscode from 'vscode';

export class ContextKey<V extends string | boolean | number> {
  constructor(readonly name: string) {}

  set(value: V): void {
    void vscode.commands.executeCommand('setContext', this.name, value);
  }

  reset(): void {
    void vscode.commands.executeCommand('setContext', this.name, undefined);
  }
}
