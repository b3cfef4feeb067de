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

/**
 * Each attach forwards a port to this machine (and Attach Node.js may signal a process): an outside caller's
 * arguments are shown first, under QUESTION, with the target as FIELD.
 */
function attachOptions(question: () => string, field: 'container' | 'project'): Pick<CommandEntry<AttachDeps>, 'rejectsWhen' | 'asksOutsideCallers'> {
  return {
    rejectsWhen: isAutomationCall,
    asksOutsideCallers: (target, options) =>
      target === undefined ? undefined : fieldsQuestion(question(), vscode.l10n.t('Attach'), { [field]: target, ...(typeof options === 'object' ? options : {}) }),
  };
}

export const debuggingCommands: ReadonlyArray<CommandEntry<AttachDeps>> = [
  command(
    'berth.attachNodeDebugger',
    'Attaching the Node.js debugger',
    (deps) => (...args: unknown[]) => attachNodeDebugger(deps, args),
    attachOptions(() => vscode.l10n.t("Attach a debugger to this container's Node.js app?"), 'container'),
  ),
  command(
    'berth.attachPythonDebugger',
    'Attaching the Python debugger',
    (deps) => (...args: unknown[]) => attachPythonDebugger(deps, args),
    attachOptions(() => vscode.l10n.t("Attach a debugger to this container's Python app?"), 'container'),
  ),
  command(
    'berth.compose.debugService',
    'Debugging a Compose service',
    (deps) => (...args: unknown[]) => debugComposeService(deps, args),
    attachOptions(() => vscode.l10n.t("Attach a debugger to this Compose service's Node.js app?"), 'project'),
  ),
];
