/**
 * Debugging apps in containers: Attach Node.js Debugger and Attach Python Debugger on a running container (its
 * row's menu, or the palette with a pick), and the `berth-node` and `berth-python` debug configurations that run the
 * workspace's app in a container first. The debugger's port goes through the window's port forwards (handed over by
 * extension.ts), and each debug session owns its forward (and the container a configuration started).
 */
import * as vscode from 'vscode';
import type { DisposableStore } from '../common/lifecycle';
import { registerCommandTable } from '../workbench/commandTable';
import { extendDeps } from '../workbench/deps';
import { debuggingCommands } from './commands';
import type { DebuggingDeps } from './deps';
import { NODE_LAUNCH_TYPE, NodeLaunchProvider } from './launchProvider';
import { BERTH_PYTHON_TYPE, PythonLaunchProvider } from './pythonLaunch';
import { DebugForwards } from './sessions';

export type { DebuggingDeps } from './deps';

export function registerDebugging(deps: DebuggingDeps, owner: DisposableStore): void {
  const debugForwards = owner.add(new DebugForwards(deps));
  const featureDeps = extendDeps(deps, { debugForwards });
  registerCommandTable(debuggingCommands, featureDeps, owner);
  const provider = new NodeLaunchProvider(featureDeps);
  owner.add(vscode.debug.registerDebugConfigurationProvider(NODE_LAUNCH_TYPE, provider, vscode.DebugConfigurationProviderTriggerKind.Initial));
  // Only offered in the Run and Debug list: every registration's resolve runs, so the resolver is registered once.
  owner.add(
    vscode.debug.registerDebugConfigurationProvider(NODE_LAUNCH_TYPE, { provideDebugConfigurations: (folder) => provider.provideDebugConfigurations(folder) }, vscode.DebugConfigurationProviderTriggerKind.Dynamic),
  );
  owner.add(vscode.debug.registerDebugConfigurationProvider(BERTH_PYTHON_TYPE, new PythonLaunchProvider(featureDeps)));
}
