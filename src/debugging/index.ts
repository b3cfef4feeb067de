/**
 * Debugging apps in containers: Attach Node.js Debugger on a running container (its row's menu, or the palette with
 * a pick). The inspector port goes through the window's port forwards (handed over by extension.ts), and each debug
 * session owns its forward.
 */
import type { DisposableStore } from '../common/lifecycle';
import { registerCommandTable } from '../workbench/commandTable';
import { extendDeps } from '../workbench/deps';
import { debuggingCommands } from './commands';
import type { DebuggingDeps } from './deps';
import { DebugForwards } from './sessions';

export type { DebuggingDeps } from './deps';

export function registerDebugging(deps: DebuggingDeps, owner: DisposableStore): void {
  const debugForwards = owner.add(new DebugForwards(deps));
  registerCommandTable(debuggingCommands, extendDeps(deps, { debugForwards }), owner);
}
