/**
 * Several engines: Switch Context… (which engine is current), Add Engine… (a name and a host appended to
 * `berth.engines` in the user settings) and Remove Engine (only entries of `berth.engines`: contexts, Podman's
 * sockets and the default engine come from elsewhere, and the message says where).
 */
import { setTimeout as delay } from 'node:timers/promises';
import * as vscode from 'vscode';
import { errorMessage } from '../common/errors';
import { addConfiguredEngine, removeConfiguredEngine } from '../config';
import { parseHost } from '../engine';
import { addedEngineMessage, endpointKey, engineHostProblem, engineNameProblem, redactHost } from '../model/engineList';
import type { EngineSession } from '../model/session';
import { isEngineRoot } from '../views/engineForest';
import { confirmAutomatedWrite } from '../workbench/automation';
import { command, type CommandEntry } from '../workbench/commandTable';
import type { EnginesDeps } from './deps';

interface AddEngineArgs {
  name: string;
  host: string;
}

function isAddEngineArgs(value: unknown): value is AddEngineArgs {
  if (typeof value !== 'object' || value === null) return false;
  const { name, host } = value as { name?: unknown; host?: unknown };
  return typeof name === 'string' && typeof host === 'string';
}

/** An engine named by a row, an id/name string or `{ engine }`. */
function engineKeyOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (isEngineRoot(value)) return value.engine;
  const engine = typeof value === 'object' && value !== null ? (value as { engine?: unknown }).engine : undefined;
  return typeof engine === 'string' ? engine : undefined;
}

function findEngine(deps: EnginesDeps, key: string): EngineSession {
  const session = deps.engines.find(key);
  if (!session) throw new Error(`Berth has no engine "${key}". The engines are: ${deps.engines.all.map((engine) => engine.name).join(', ')}`);
  return session;
}

/** The engine already shown for a host, if any (two entries for one endpoint would show as one). */
function engineReaching(deps: EnginesDeps, host: string): EngineSession | undefined {
  let key: string;
  try {
    key = endpointKey(parseHost(host.trim(), {}));
  } catch {
    return undefined;
  }
  return deps.engines.all.find((session) => session.descriptor.endpoint && endpointKey(session.descriptor.endpoint) === key);
}

function hostProblem(deps: EnginesDeps, host: string): string | undefined {
  const problem = engineHostProblem(host);
  if (problem) return problem;
  const existing = engineReaching(deps, host);
  return existing ? `${existing.endpointDisplay} is already shown as the engine "${existing.name}"` : undefined;
}

async function pickEngine(deps: EnginesDeps): Promise<EngineSession | undefined> {
  deps.rediscoverEngines();
  const current = deps.session;
  const items = deps.engines.all.map((session) => ({
    label: session === current ? `$(check) ${session.name}` : session.name,
    description: session.statusText(),
    detail: `${session.endpointDisplay} — ${session.descriptor.sourceText}`,
    session,
  }));
  const chosen = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('Switch Context'),
    placeHolder: vscode.l10n.t('The engine palette commands and the status bar use'),
    matchOnDescription: true,
    matchOnDetail: true,
  });
  return chosen?.session;
}

async function switchTo(deps: EnginesDeps, target: unknown): Promise<{ engine: string; name: string } | undefined> {
  const key = engineKeyOf(target);
  const session = key === undefined ? await pickEngine(deps) : findEngine(deps, key);
  if (!session) return undefined;
  await deps.switchEngine(session.id);
  return { engine: session.id, name: session.name };
}

async function askEngine(deps: EnginesDeps): Promise<AddEngineArgs | undefined> {
  const names = deps.settings.engines.map((engine) => engine.name);
  const name = await vscode.window.showInputBox({
    title: vscode.l10n.t('Add Engine (1/2)'),
    prompt: vscode.l10n.t('A name for the engine'),
    placeHolder: 'build-host',
    ignoreFocusOut: true,
    validateInput: (value) => engineNameProblem(value, names),
  });
  if (name === undefined) return undefined;
  const host = await vscode.window.showInputBox({
    title: vscode.l10n.t('Add Engine (2/2): {0}', name.trim()),
    prompt: vscode.l10n.t('The engine host: unix:///path/to.sock, tcp://host:2376 (TLS from DOCKER_CERT_PATH) or ssh://user@host. No passwords.'),
    placeHolder: 'ssh://user@build-host',
    ignoreFocusOut: true,
    validateInput: (value) => hostProblem(deps, value),
  });
  if (host === undefined) return undefined;
  return { name: name.trim(), host: host.trim() };
}

/** Where an engine that is not in `berth.engines` comes from, and how to remove it there. */
function notRemovable(session: EngineSession): string {
  switch (session.descriptor.origin) {
    case 'context': {
      const context = session.id.slice('context:'.length);
      return `"${session.name}" is the docker context "${context}": Berth lists contexts but does not change them. Remove it with "docker context rm ${context}".`;
    }
    case 'podman':
      return `"${session.name}" is Podman's socket, which Berth finds by itself while the Podman service runs.`;
    case 'socket':
      return `"${session.name}" is the default socket of ${session.name}, which Berth finds by itself while it runs.`;
    default:
      return `"${session.name}" is the default engine (${session.descriptor.sourceText}); it cannot be removed. Point berth.engine.host elsewhere to change it.`;
  }
}

const SWITCH_TO_IT = 'Switch to It';
/** How long Add Engine waits for the new row to be selected before it answers without saying so. */
const REVEAL_WAIT_MS = 8_000;

export const engineCommands: ReadonlyArray<CommandEntry<EnginesDeps>> = [
  command('berth.switchContext', 'Switching the engine', (deps) => (target?: unknown) => switchTo(deps, target)),

  command('berth.useEngine', 'Switching the engine', (deps) => (target?: unknown) => switchTo(deps, target)),

  command('berth.addEngine', 'Adding an engine', (deps) => async (...args: unknown[]) => {
    const given = isAddEngineArgs(args[0]) ? { name: args[0].name.trim(), host: args[0].host.trim() } : await askEngine(deps);
    if (!given) return undefined;
    const problem = engineNameProblem(given.name, deps.settings.engines.map((engine) => engine.name)) ?? hostProblem(deps, given.host);
    if (problem) throw new Error(problem);
    // Arguments from another extension or a workspace's task input write the user's settings only with their yes.
    if (isAddEngineArgs(args[0]) && !(await confirmAutomatedWrite(vscode.l10n.t('Add the engine "{0}" to your berth.engines setting?', given.name), vscode.l10n.t('Add Engine'), `Host: ${redactHost(given.host)}. A command called Berth: Add Engine with these values; Berth connects to this engine and may send it registry credentials once you use it.`))) {
      deps.log.warn(`Add Engine ${given.name} (${redactHost(given.host)}) from a command's arguments: declined`);
      return undefined;
    }
    const target = await addConfiguredEngine(given);
    const where = target === vscode.ConfigurationTarget.Global ? 'user settings' : 'workspace settings (this workspace sets berth.engines)';
    deps.log.info(`Added engine ${given.name}: ${redactHost(given.host)} to berth.engines in the ${where}`);
    // The configuration listener has made its session by now; make sure, whatever the event order.
    deps.rediscoverEngines();
    const engine = `settings:${given.name}`;
    // Its row may be below a long list of the current engine's containers: scroll to it, select it, and say so.
    // The message says the row is selected only once it is (a hidden view may not show it within the bound).
    const reveal = deps.revealEngine(engine)?.then(
      (selected) => selected,
      (error: unknown) => {
        deps.log.warn(`Selecting the row of engine ${given.name}: ${errorMessage(error)}`);
        return false;
      },
    );
    const revealed = reveal !== undefined && (await Promise.race([reveal, delay(REVEAL_WAIT_MS, false)]));
    void vscode.window
      .showInformationMessage(addedEngineMessage(given.name, given.host, where, revealed), SWITCH_TO_IT)
      .then((choice) => (choice === SWITCH_TO_IT ? vscode.commands.executeCommand('berth.useEngine', engine) : undefined));
    return { engine, name: given.name, host: given.host, revealed };
  }),

  command('berth.removeEngine', 'Removing an engine', (deps) => async (target?: unknown) => {
    const key = engineKeyOf(target);
    let session: EngineSession | undefined;
    if (key !== undefined) session = findEngine(deps, key);
    else {
      const configured = deps.engines.all.filter((engine) => configuredNames(engine).length > 0);
      if (configured.length === 0) {
        void vscode.window.showInformationMessage(vscode.l10n.t('No engine comes from the berth.engines setting; only those can be removed.'));
        return undefined;
      }
      const chosen = await vscode.window.showQuickPick(
        configured.map((engine) => ({ label: engine.name, description: engine.endpointDisplay, engine })),
        { title: vscode.l10n.t('Remove Engine'), placeHolder: vscode.l10n.t('An engine from the berth.engines setting') },
      );
      session = chosen?.engine;
    }
    if (!session) return undefined;
    const names = configuredNames(session);
    if (typeof target === 'string' && names.length > 0 && !(await confirmAutomatedWrite(vscode.l10n.t('Remove the engine "{0}" from your berth.engines setting?', session.name), vscode.l10n.t('Remove Engine'), `A command called Berth: Remove Engine with "${target}".`))) {
      return undefined;
    }
    if (names.length === 0) {
      void vscode.window.showInformationMessage(notRemovable(session));
      return undefined;
    }
    for (const name of names) await removeConfiguredEngine(name);
    deps.log.info(`Removed engine ${names.join(', ')} from berth.engines`);
    deps.rediscoverEngines();
    return { removed: names[0] };
  }),
];

/** The `berth.engines` entries behind an engine: its own, and any merged into it for reaching the same endpoint. */
function configuredNames(session: EngineSession): string[] {
  return [session.id, ...session.descriptor.aliases]
    .filter((id) => id.startsWith('settings:'))
    .map((id) => id.slice('settings:'.length));
}
