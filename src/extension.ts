/**
 * Entry point. Makes the log and the core (settings + engine sessions), then lets each feature folder register
 * itself on one owner. Activation makes no engine call; the first listing starts in the background.
 * Where things go: docs/architecture.md.
 */
import * as l10n from '@vscode/l10n';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { registerAgents } from './agents';
import { registerBuild } from './build';
import { registerChanges } from './changes';
import { DisposableStore } from './common/lifecycle';
import { registerCompose } from './compose';
import { registerDebugging } from './debugging';
import { registerContainers } from './containers';
import { registerEngines } from './engineSwitcher';
import { registerFiles } from './files';
import { registerFilters } from './filter';
import { registerImages } from './images';
import { registerLanguage } from './language';
import { registerLogs } from './logs';
import { registerNetworks } from './networks';
import { registerEvents } from './events';
import { registerPorts } from './ports';
import { registerForwards } from './forwards';
import { registerPrune } from './prune';
import { registerRegistries } from './registries';
import { registerScaffold } from './scaffold';
import { registerStats } from './stats';
import { registerTrust } from './trust';
import { registerVolumes } from './volumes';
import { command, registerCommandTable, registerInternalCommands } from './workbench/commandTable';
import { setBerthTestMode } from './workbench/automation';
import { BerthCore, type BerthApi } from './workbench/core';
import { extendDeps } from './workbench/deps';

export function activate(context: vscode.ExtensionContext): BerthApi {
  const started = performance.now();
  // The vscode-free view-models translate through @vscode/l10n: hand it the bundle VS Code loaded for this language.
  if (vscode.l10n.bundle) l10n.config({ contents: vscode.l10n.bundle });
  registerInternalCommands(context.extensionMode !== vscode.ExtensionMode.Production);
  setBerthTestMode(context.extensionMode !== vscode.ExtensionMode.Production);
  const owner = new DisposableStore();
  context.subscriptions.push(owner);
  const log = owner.add(vscode.window.createOutputChannel('Berth', { log: true }));
  const core = owner.add(new BerthCore(log, context.workspaceState, join(context.globalStorageUri.fsPath, 'listings')));

  const registries = registerRegistries(
    { log, engines: core.engines, secrets: context.secrets, globalState: context.globalState, engine: (target) => core.sessionOfTarget(target).client, logUri: context.logUri },
    owner,
  );
  const containers = registerContainers(core, owner);
  const images = registerImages(
    extendDeps(core, { registries, revealContainer: (id: string, engine: string) => containers.view.reveal(id, engine) }),
    owner,
  );
  const volumes = registerVolumes(extendDeps(core, { revealContainer: (id: string, engine: string) => containers.view.reveal(id, engine) }), owner);
  registerBuild(extendDeps(core, { registries, revealImage: (key: string, engine: string) => images.view.reveal(key, engine), workspaceState: context.workspaceState }), owner);
  registerStats(extendDeps(core, { containersView: containers.view, extensionUri: context.extensionUri }), owner);
  const networks = registerNetworks(extendDeps(core, { revealContainer: (id: string, engine: string) => containers.view.reveal(id, engine) }), owner);
  registerFilters(
    extendDeps(core, { workspaceState: context.workspaceState, views: { containers: containers.view, images: images.view, volumes: volumes.view, networks: networks.view } }),
    owner,
  );
  const events = registerEvents(
    extendDeps(core, {
      revealContainer: (id: string, engine: string) => containers.view.reveal(id, engine),
      revealImage: (key: string, engine: string) => images.view.reveal(key, engine),
    }),
    owner,
  );
  registerPrune(core, owner);
  registerLogs(core, owner);
  registerCompose(core, owner);
  const files = registerFiles(core, owner);
  const ports = registerPorts(extendDeps(core, { containersView: containers.view }), owner);
  owner.add(containers.view.setChildRows(ports.rows));
  const forwards = registerForwards(extendDeps(core, { containersView: containers.view }), owner);
  owner.add(containers.view.setChildRows(forwards.rows));
  registerDebugging(extendDeps(core, { forwards: forwards.forwards, registries }), owner);
  owner.add(containers.view.setChildRows(files.rows));
  const changes = registerChanges(extendDeps(core, { containersView: containers.view }), owner);
  owner.add(containers.view.setChildRows(changes.rows));
  owner.add(volumes.view.setChildRows(files.rows));
  registerEngines(extendDeps(core, { revealEngine: (engine: string) => containers.view.revealEngine(engine) }), owner);
  registerTrust(core, owner);
  registerLanguage({ log, engines: core.engines, extensionUri: context.extensionUri }, owner);
  registerScaffold(core, owner);
  registerAgents(extendDeps(core, { credentials: () => registries.chain.asLookup() }), owner);
  // For tests: the rows a view shows under a path of labels.
  registerCommandTable(
    [
      command('berth.internal.viewChildren', 'Reading a view', () => (view?: unknown, path?: unknown) => {
        const labels = Array.isArray(path) ? path.map(String) : [];
        if (view === 'volumes') return volumes.view.rowsAt(labels);
        if (view === 'networks') return networks.view.rowsAt(labels);
        if (view === 'events') return events.view.rowsAt(labels);
        return view === 'images' ? images.view.rowsAt(labels) : containers.view.rowsAt(labels);
      }),
      // The rows themselves, as VS Code hands them to a command (Containers or Images view).
      command('berth.internal.viewRowNodes', 'Reading a view', () => (view?: unknown, path?: unknown) => {
        const labels = Array.isArray(path) ? path.map(String) : [];
        if (view === 'events') return events.view.getChildren();
        return view === 'images' ? images.view.rowNodesAt(labels) : containers.view.rowNodesAt(labels);
      }),
      // For tests: a view's description (`N of M` while a filter applies).
      command('berth.internal.viewDescription', 'Reading a view', () => (view?: unknown) => {
        const treeViews = { containers: containers.view.treeView, images: images.view.treeView, volumes: volumes.view.view, networks: networks.view.view };
        return (treeViews[view as keyof typeof treeViews] ?? containers.view.treeView).description;
      }),
      // For tests: the ids of the container rows selected in the Containers view.
      command('berth.internal.selectedContainerRows', 'Reading a view', () => () =>
        containers.view.treeView.selection.flatMap((node) => (node.kind === 'container' ? [node.id] : []))),
      // For tests: the engine rows selected in the Containers view, by engine id.
      command('berth.internal.selectedEngineRows', 'Reading a view', () => () =>
        containers.view.treeView.selection.filter((node) => node.kind === 'engine').map((node) => node.engine)),
    ],
    core,
    owner,
  );
  core.startAfterActivation();

  // Both figures go to the log at info level: bench/ reads them from the real extension host.
  log.info(`Activated in ${(performance.now() - started).toFixed(2)} ms`);
  core.api.whenModelReady().then(
    () => log.info(`Views ready ${(performance.now() - started).toFixed(2)} ms after activation began`),
    () => undefined, // Unreachable engine: the model logs why and the welcome view says so.
  );
  return core.api;
}

export function deactivate(): void {
  // Everything is owned by the store in context.subscriptions; VS Code disposes it.
}
