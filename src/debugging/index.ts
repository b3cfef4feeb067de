/**
 * Debugging apps in containers: Attach Node.js Debugger and Attach Python Debugger on a running container (its
 * row's menu, or the palette with a pick), and the berth-python launch configuration. The debugger's port goes
 * through the window's port forwards (handed over by extension.ts), and each debug session owns its forward.
 */
import * as vscode from 'vscode';
import type { DisposableStore } from '../common/lifecycle';
import { registerCommandTable } from '../workbench/commandTable';
import { extendDeps } from '../workbench/deps';
import { debuggingCommands } from './commands';
import type { DebuggingDeps } from './deps';
import { BERTH_PYTHON_TYPE, PythonLaunchProvider } from './pythonLaunch';
import { DebugForwards } from './sessions';

export type { DebuggingDeps } from './deps';

export function registerDebugging(deps: DebuggingDeps, owner: DisposableStore): void {
  const debugForwards = owner.add(new DebugForwards(deps));
  const attachDeps = extendDeps(deps, { debugForwards });
  registerCommandTable(debuggingCommands, attachDeps, owner);
  owner.add(vscode.debug.registerDebugConfigurationProvider(BERTH_PYTHON_TYPE, new PythonLaunchProvider(attachDeps)));
}
