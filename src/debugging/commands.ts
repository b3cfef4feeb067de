/**
 * Attach Node.js Debugger and Attach Python Debugger on a running container's row, and Debug Service… on a Compose
 * project's row (or the palette with picks).
 */
import * as vscode from 'vscode';
import { fieldsQuestion } from '../workbench/callOrigin';
import { command, type CommandEntry } from '../workbench/commandTable';
import { isAutomationCall } from '../workbench/targets';
import { attachNodeDebugger } from './attach';
import { debugComposeService } from './composeService';
import type { AttachDeps } from './deps';
import { attachPythonDebugger } from './pythonAttach';

export const debuggingCommands: ReadonlyArray<CommandEntry<AttachDeps>> = [
  command('berth.attachNodeDebugger', 'Attaching the Node.js debugger', (deps) => (...args: unknown[]) => attachNodeDebugger(deps, args), {
    rejectsWhen: isAutomationCall,
    // It may signal a process and forwards a port to this machine: an outside caller's arguments are shown first.
    asksOutsideCallers: (target, options) =>
      target === undefined
        ? undefined
        : fieldsQuestion(vscode.l10n.t("Attach a debugger to this container's Node.js app?"), vscode.l10n.t('Attach'), { container: target, ...(typeof options === 'object' ? options : {}) }),
  }),
  command('berth.attachPythonDebugger', 'Attaching the Python debugger', (deps) => (...args: unknown[]) => attachPythonDebugger(deps, args), {
    rejectsWhen: isAutomationCall,
    // It forwards a port to this machine: an outside caller's arguments are shown first.
    asksOutsideCallers: (target, options) =>
      target === undefined
        ? undefined
        : fieldsQuestion(vscode.l10n.t("Attach a debugger to this container's Python app?"), vscode.l10n.t('Attach'), { container: target, ...(typeof options === 'object' ? options : {}) }),
  }),
  command('berth.compose.debugService', 'Debugging a Compose service', (deps) => (...args: unknown[]) => debugComposeService(deps, args), {
    rejectsWhen: isAutomationCall,
    asksOutsideCallers: (target, options) =>
      target === undefined
        ? undefined
        : fieldsQuestion(vscode.l10n.t("Attach a debugger to this Compose service's Node.js app?"), vscode.l10n.t('Attach'), { project: target, ...(typeof options === 'object' ? options : {}) }),
  }),
];
