/**
 * Debugging apps in containers: Attach Node.js Debugger on a running container (its row's menu, or the palette with
 * a pick). The inspector port goes through the window's port forwards (handed over by extension.ts), and each debug
 * session owns its forward.
 */
import * as vscode from 'vscode';
import type { DisposableStore } from '../common/lifecycle';
import type { ActiveForwards } from '../forwards';
import { command, registerCommandTable, type CommandEntry } from '../workbench/commandTable';
import { extendDeps, type CoreDeps } from '../workbench/deps';
import { fieldsQuestion } from '../workbench/callOrigin';
import { attachNodeDebugger, isAutomation, type AttachDeps } from './attach';
import { DebugForwards } from './sessions';

export interface DebuggingDeps extends CoreDeps {
  readonly forwards: Pick<ActiveForwards, 'start' | 'stop'>;
}

const debuggingCommands: ReadonlyArray<CommandEntry<AttachDeps>> = [
  command('berth.attachNodeDebugger', 'Attaching the Node.js debugger', (deps) => (...args: unknown[]) => attachNodeDebugger(deps, args), {
    rejectsWhen: isAutomation,
    // It may signal a process and forwards a port to this machine: an outside caller's arguments are shown first.
    asksOutsideCallers: (target, options) =>
      target === undefined
        ? undefined
        : fieldsQuestion(vscode.l10n.t("Attach a debugger to this container's Node.js app?"), vscode.l10n.t('Attach'), { container: target, ...(typeof options === 'object' ? options : {}) }),
  }),
];

export function registerDebugging(deps: DebuggingDeps, owner: DisposableStore): void {
  const debugForwards = owner.add(new DebugForwards(deps));
  registerCommandTable(debuggingCommands, extendDeps(deps, { debugForwards }), owner);
}
