/**
 * The one way Berth reaches a Node.js inspector in a container, for Attach and for the berth-node configuration:
 * the inspector port forwarded through the window's forwards (nothing published), the inspector asked until it
 * answers through the forward, and the JavaScript debugger's attach configuration that names the forward and the
 * token tying the debug session to it.
 */
import type * as vscode from 'vscode';
import { waitForInspector, type EngineClient } from '../engine';
import type { ActiveForward } from '../forwards';
import type { DebuggingDeps } from './deps';
import { FORWARD_TOKEN_FIELD } from './sessions';

/** Forwards CONTAINERPORT of the container and waits for its inspector; the forward is stopped again when it never answers. */
export async function forwardInspector(
  deps: Pick<DebuggingDeps, 'forwards'>,
  engine: string,
  client: EngineClient,
  containerId: string,
  containerPort: number,
  signal: AbortSignal,
): Promise<ActiveForward> {
  const started = await deps.forwards.start(engine, client, containerId, { localPort: 0, containerPort }, signal);
  try {
    await waitForInspector(started.forward.localPort, { signal });
  } catch (error) {
    await deps.forwards.stop(started);
    throw error;
  }
  return started;
}

/** VS Code's JavaScript debugger attached to the forward, with the workspace mapped onto the container's folder. */
export function inspectorAttachConfiguration(
  name: string,
  active: ActiveForward,
  token: string,
  roots: { readonly localRoot: string | undefined; readonly remoteRoot: string | undefined },
): vscode.DebugConfiguration {
  return {
    type: 'node',
    request: 'attach',
    name,
    address: '127.0.0.1',
    port: active.forward.localPort,
    ...(roots.localRoot !== undefined && roots.remoteRoot !== undefined ? { localRoot: roots.localRoot, remoteRoot: roots.remoteRoot } : {}),
    [FORWARD_TOKEN_FIELD]: token,
  };
}
