/**
 * The `berth-node` debug configuration: the workspace's Node.js app run in a container with its inspector on (the
 * image built first when the configuration names a Dockerfile), the inspector forwarded through the engine, and
 * the configuration resolved into VS Code's JavaScript debugger attached to the forward. The work happens before
 * variables are substituted so that the configuration VS Code gets back (type `node`) goes through the JavaScript
 * debugger's own resolution; `${workspaceFolder}` is the one variable read here. Ending the debug session stops
 * the forward and removes the container, and says so.
 */
import { basename } from 'node:path';
import * as vscode from 'vscode';
import { errorMessage } from '../common/errors';
import {
  DEFAULT_INSPECTOR_PORT,
  EngineError,
  buildImage,
  exitedBeforeInspector,
  launchNodeApp,
  locateLaunchDockerfile,
  checkNodeLaunchSpec,
  programInContainer,
  type EngineClient,
  type LaunchedNodeApp,
} from '../engine';
import type { EngineSession } from '../model/session';
import { reportError, withCancellableProgress } from '../workbench/feedback';
import type { LaunchDeps } from './deps';
import { forwardInspector, inspectorAttachConfiguration } from './inspectorForward';

export const NODE_LAUNCH_TYPE = 'berth-node';
const DEFAULT_REMOTE_ROOT = '/app';

/** The attributes of a `berth-node` configuration (package.json's configurationAttributes say the same to users). */
interface NodeLaunchConfiguration extends vscode.DebugConfiguration {
  image?: string;
  dockerfile?: string;
  program?: string;
  args?: string[];
  remoteRoot?: string;
  localRoot?: string;
  inspectorPort?: number;
  networkMode?: string;
  env?: Record<string, string>;
  labels?: Record<string, string>;
}

/** What a new launch.json starts with: the folder's Dockerfile when it has one. */
export function initialNodeLaunchConfiguration(hasDockerfile: boolean): NodeLaunchConfiguration {
  return {
    type: NODE_LAUNCH_TYPE,
    request: 'launch',
    name: vscode.l10n.t('Berth: Node.js app in a container'),
    ...(hasDockerfile ? { dockerfile: 'Dockerfile' } : { image: 'node:lts-slim' }),
    program: 'index.js',
    remoteRoot: DEFAULT_REMOTE_ROOT,
  };
}

/** An image tag a Dockerfile build of FOLDER gets when the configuration names none. */
function debugImageTag(folder: string): string {
  const name = basename(folder).toLowerCase().replace(/[^a-z0-9._-]+/g, '-').replace(/^[^a-z0-9]+/, '') || 'app';
  return `berth-debug-${name}:latest`;
}

const inFolder = (text: string, folder: string): string => text.split('${workspaceFolder}').join(folder);

async function hasDockerfile(folder: vscode.Uri): Promise<boolean> {
  const found = await Promise.resolve(vscode.workspace.fs.stat(vscode.Uri.joinPath(folder, 'Dockerfile'))).catch(() => undefined);
  return found !== undefined;
}

export class NodeLaunchProvider implements vscode.DebugConfigurationProvider {
  constructor(private readonly deps: LaunchDeps) {}

  async provideDebugConfigurations(folder: vscode.WorkspaceFolder | undefined): Promise<vscode.DebugConfiguration[]> {
    return [initialNodeLaunchConfiguration(folder !== undefined && (await hasDockerfile(folder.uri)))];
  }

  async resolveDebugConfiguration(
    folder: vscode.WorkspaceFolder | undefined,
    given: vscode.DebugConfiguration,
    token?: vscode.CancellationToken,
  ): Promise<vscode.DebugConfiguration | undefined> {
    // Another resolver of this type already made it the JavaScript debugger's attach configuration.
    if (given.type !== undefined && given.type !== NODE_LAUNCH_TYPE) return given;
    const workspace = folder ?? vscode.workspace.workspaceFolders?.[0];
    try {
      const config: NodeLaunchConfiguration =
        given.type === undefined && given.request === undefined ? initialNodeLaunchConfiguration(workspace !== undefined && (await hasDockerfile(workspace.uri))) : given;
      // The app's folder: what is copied to remoteRoot, the build context, and where program and dockerfile are found.
      const appFolder = config.localRoot !== undefined && config.localRoot !== '' ? inFolder(config.localRoot, workspace?.uri.fsPath ?? '') : workspace?.uri.fsPath;
      if (appFolder === undefined || appFolder === '') {
        throw new EngineError('bad-request', 'A berth-node configuration needs a workspace folder', { hint: 'Open the folder of the app (or set localRoot), then start debugging' });
      }
      return await this.launch(appFolder, config, token);
    } catch (error) {
      reportError(this.deps, vscode.l10n.t('Starting {0}', given.name || NODE_LAUNCH_TYPE), error);
      return undefined;
    }
  }

  private async launch(folder: string, config: NodeLaunchConfiguration, token: vscode.CancellationToken | undefined): Promise<vscode.DebugConfiguration> {
    const session = this.deps.session;
    const remoteRoot = config.remoteRoot ?? DEFAULT_REMOTE_ROOT;
    const localRoot = folder;
    const inspectorPort = config.inspectorPort ?? DEFAULT_INSPECTOR_PORT;
    const program = programInContainer(inFolder(config.program ?? 'index.js', folder), folder);
    checkNodeLaunchSpec({ program, remoteRoot, inspectorPort });
    const dockerfile = config.dockerfile !== undefined && config.dockerfile !== '' ? await locateLaunchDockerfile(folder, inFolder(config.dockerfile, folder)) : undefined;
    if (dockerfile === undefined && (config.image === undefined || config.image.trim() === '')) {
      throw new EngineError('bad-request', 'The berth-node configuration names neither an image nor a dockerfile', {
        hint: 'Set image to the image to run the app in, or dockerfile to build one first',
      });
    }
    const title = vscode.l10n.t('Starting {0} in a container on {1}', basename(program), session.name);
    return withCancellableProgress(title, async (cancelled, progress) => {
      const signal = token ? AbortSignal.any([cancelled, abortOn(token)]) : cancelled;
      let image = config.image?.trim() ?? '';
      if (dockerfile !== undefined) {
        image ||= debugImageTag(folder);
        progress.report({ message: vscode.l10n.t('building {0}', image) });
        await this.build(session, folder, dockerfile, image, signal, (line) => progress.report({ message: line }));
      }
      progress.report({ message: vscode.l10n.t('starting the app') });
      const launched = await launchNodeApp(
        session.client,
        {
          image,
          program,
          args: config.args,
          remoteRoot,
          inspectorPort,
          networkMode: config.networkMode ?? (this.deps.settings.runNetwork || undefined),
          env: config.env,
          labels: { ...config.labels, 'berth.created-by': 'vscode' },
          workspaceFolder: folder,
        },
        signal,
      );
      try {
        progress.report({ message: vscode.l10n.t('forwarding the inspector') });
        const active = await forwardInspector(this.deps, session.id, session.client, launched.id, inspectorPort, signal).catch(async (error: unknown) => {
          throw (await exitedBeforeInspector(session.client, launched.id)) ?? error;
        });
        const removeContainer = () => this.removeAfterSession(session.client, launched, active.forward.address);
        const debugToken = this.deps.debugForwards.own(active, removeContainer);
        this.deps.log.info(`Started ${program} in ${launched.name} on ${session.name}; its inspector ${inspectorPort} is forwarded to ${active.forward.address}`);
        return inspectorAttachConfiguration(config.name || vscode.l10n.t('Berth: {0}', launched.name), active, debugToken, { localRoot, remoteRoot });
      } catch (error) {
        await session.client.containers.remove(launched.id, { force: true }).catch(() => undefined);
        throw error;
      }
    });
  }

  private async build(session: EngineSession, folder: string, dockerfile: string, tag: string, signal: AbortSignal, onLine: (line: string) => void): Promise<void> {
    const result = await buildImage(session.client, {
      contextDir: folder,
      dockerfile,
      tags: [tag],
      networkMode: vscode.workspace.getConfiguration('berth.build').get<string>('network', '').trim() || undefined,
      credentials: this.deps.registries.chain.asLookup(),
      signal,
      onMessage: (message) => {
        // A message's text may hold several lines (consecutive ones come merged): each is logged and shown alone.
        for (const part of message.stream?.split('\n') ?? []) {
          const line = part.trim();
          if (line) {
            this.deps.log.info(`[build ${tag}] ${line}`);
            onLine(line);
          }
        }
      },
    });
    this.deps.log.info(`Built ${tag} (${result.imageId ?? 'id unknown'}) on ${session.name} for debugging`);
  }

  private async removeAfterSession(client: EngineClient, launched: LaunchedNodeApp, address: string): Promise<void> {
    try {
      await client.containers.remove(launched.id, { force: true });
      this.deps.log.info(`Debug session ended: removed container ${launched.name}`);
      void vscode.window.showInformationMessage(vscode.l10n.t('Debug session ended: stopped forwarding {0} and removed container {1}.', address, launched.name));
    } catch (error) {
      this.deps.log.warn(`Removing ${launched.name} after its debug session: ${errorMessage(error)}`);
      void vscode.window.showWarningMessage(
        vscode.l10n.t('Debug session ended, but container {0} could not be removed: {1}', launched.name, errorMessage(error)),
      );
    }
  }
}

function abortOn(token: vscode.CancellationToken): AbortSignal {
  const controller = new AbortController();
  if (token.isCancellationRequested) controller.abort();
  else token.onCancellationRequested(() => controller.abort());
  return controller.signal;
}
