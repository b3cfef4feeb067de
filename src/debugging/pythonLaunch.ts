/**
 * The `berth-python` debug configuration: runs the workspace's Python app in a container under
 * `python3 -m debugpy --listen 0.0.0.0:PORT --wait-for-client` (the workspace folder bind-mounted at remoteRoot
 * unless `mountWorkspace` is false), waits until debugpy listens, forwards its port through the engine, and hands
 * VS Code's Python debugger a `debugpy` attach configuration with the path mapping. Ending the debug session stops
 * the forward and removes the container. Without the Python debugger it refuses before it starts anything.
 */
import * as vscode from 'vscode';
import { debugpyLaunchBody, waitForListening, type DebugpyLaunch, type EngineClient } from '../engine';
import { errorMessage } from '../common/errors';
import { reportError, withCancellableProgress } from '../workbench/feedback';
import type { AttachDeps } from './deps';
import { launchOf } from './pythonConfiguration';
import { debugpyAttachConfiguration, requirePythonDebugger } from './pythonDebugger';

export const BERTH_PYTHON_TYPE = 'berth-python';
const ACTIVITY = 'Starting the Python app for debugging';

/** The configuration a new launch.json gets, and the snippet's body. */
export const INITIAL_PYTHON_CONFIGURATION: vscode.DebugConfiguration = {
  type: BERTH_PYTHON_TYPE,
  request: 'launch',
  name: 'Berth: Python in a container',
  image: 'python:3-slim',
  program: 'app.py',
  remoteRoot: '/app',
};

export class PythonLaunchProvider implements vscode.DebugConfigurationProvider {
  constructor(private readonly deps: AttachDeps) {}

  provideDebugConfigurations(): vscode.DebugConfiguration[] {
    return [{ ...INITIAL_PYTHON_CONFIGURATION }];
  }

  async resolveDebugConfiguration(folder: vscode.WorkspaceFolder | undefined, config: vscode.DebugConfiguration, token?: vscode.CancellationToken): Promise<vscode.DebugConfiguration | null | undefined> {
    if (!requirePythonDebugger(this.deps, ACTIVITY, false)) return undefined;
    const localRoot = typeof config.localRoot === 'string' ? config.localRoot : folder?.uri.fsPath;
    let launch: DebugpyLaunch;
    try {
      launch = launchOf(config, localRoot);
    } catch (error) {
      reportError(this.deps, ACTIVITY, error);
      // null: VS Code opens launch.json, where the field is fixed.
      return null;
    }
    const session = this.deps.session;
    try {
      return await withCancellableProgress(vscode.l10n.t('Starting {0} in a container for debugging', launch.program), async (signal) => {
        // Cancelled from the notification or by VS Code (the launch was stopped while it resolved).
        const either = new AbortController();
        signal.addEventListener('abort', () => either.abort(), { once: true });
        const cancel = token?.onCancellationRequested(() => either.abort());
        try {
          return await this.start(session.id, session.client, launch, String(config.name ?? BERTH_PYTHON_TYPE), localRoot, either.signal);
        } finally {
          cancel?.dispose();
        }
      });
    } catch (error) {
      reportError(this.deps, ACTIVITY, error);
      return undefined;
    }
  }

  private async start(engine: string, client: EngineClient, launch: DebugpyLaunch, name: string, localRoot: string | undefined, signal: AbortSignal): Promise<vscode.DebugConfiguration> {
    const { Id: id } = await client.containers.create(debugpyLaunchBody(launch), { signal });
    const remove = async (): Promise<void> => {
      await client.containers.remove(id, { force: true });
      this.deps.log.info(`Removed the container ${id.slice(0, 12)} the berth-python launch "${name}" started`);
    };
    try {
      await client.containers.start(id, { signal });
      await waitForListening(client, id, launch.port, { signal });
      const active = await this.deps.forwards.start(engine, client, id, { localPort: 0, containerPort: launch.port }, signal);
      const token = this.deps.debugForwards.own(active, remove);
      this.deps.log.info(`berth-python "${name}": ${launch.program} runs in ${active.containerName} with debugpy on ${launch.port}, forwarded to ${active.forward.address}`);
      return debugpyAttachConfiguration(name, active.forward.localPort, token, localRoot, launch.remoteRoot);
    } catch (error) {
      await remove().catch((cleanup: unknown) => this.deps.log.warn(`Removing the container of "${name}": ${errorMessage(cleanup)}`));
      throw error;
    }
  }
}
