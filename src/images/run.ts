/**
 * Run Container… and Run in Background…: pick a local image or type a reference, then optional
 * command, name, TTY and remove-when-done. A foreground run streams its output into a terminal that
 * ends with the exit status (runSession.ts).
 */
import * as vscode from 'vscode';
import { splitCommandLine } from '../common/argv';
import { errorMessage, validatedBy } from '../common/errors';
import { DisposableStore } from '../common/lifecycle';
import { shortId } from '../common/format';
import { LayerProgress, pullProgressText } from '../common/layerProgress';
import { runInBackground, validateContainerName, validateImageReference, type RunOptionsInput } from '../engine';
import { withRegistryAuthRetry, type AuthRetryOptions } from '../registries';
import type { EngineSession } from '../model/session';
import { classifyUnreachable } from '../model/unreachable';
import { unreachablePickNotice } from '../model/unreachableText';
import { shownValue } from '../workbench/callOrigin';
import { command, type CommandEntry, type OutsideQuestion } from '../workbench/commandTable';
import type { WhenClosed } from './runTerminal';
import { withCancellableProgress } from '../workbench/feedback';
import { pickMany } from '../workbench/multiPick';
import type { ImagesCommandDeps } from './deps';
import { askRunOptions, resolveChosenOptions } from './runOptionsStep';
import { runQuestionDetail } from './runQuestion';
import { explainRefusal, RunSession } from './runSession';
import { offerForTyped } from './typedImage';
import { runNetworkFor, type WorkspaceNetworkAnswer } from './workspaceNetwork';
import { droppedPortsWarning } from '../model/ports';

export interface RunArgs {
  image: string;
  cmd?: string[];
  name?: string;
  tty?: boolean;
  /** Keep stdin open and send the terminal's keys to it (docker run -i); TTY runs are always interactive. */
  interactive?: boolean;
  autoRemove?: boolean;
  /** For automation: what closing the Run terminal mid-run does, instead of asking. */
  whenClosed?: WhenClosed;
  /** The engine (id or name) to run on; default the current one. */
  engine?: string;
  /** Ports, env, mounts and the rest (the options step, or a profile). */
  options?: RunOptionsInput;
  /**
   * For automation: how to answer the Sign In… a registry refusal of the pull brings: the credentials to sign in
   * with, or false to decline. Given, a failed run rejects instead of showing a message.
   */
  signIn?: false | { username: string; password: string };
  /** For Berth's tests: the answer to the question about a workspace's `berth.run.network` (ignored outside test mode). */
  workspaceNetwork?: WorkspaceNetworkAnswer;
}

function isRunArgs(value: unknown): value is RunArgs {
  return typeof value === 'object' && value !== null && typeof (value as { image?: unknown }).image === 'string';
}

async function pickImage(session: EngineSession, title: string): Promise<string | undefined> {
  const tags = [...session.model.images()].flatMap((record) => record.tags).sort((a, b) => a.localeCompare(b));
  const quickPick = vscode.window.createQuickPick();
  quickPick.title = title;
  quickPick.placeholder = 'Pick a local image or type a reference (pulled when missing)';
  const unreachable = session.model.state === 'unreachable';
  // An empty list would read as "no images": say that the engine is down, and why.
  const notice: vscode.QuickPickItem[] = unreachable
    ? [{ ...unreachablePickNotice(session.name, classifyUnreachable(session.model.lastError), session.endpointDisplay), iconPath: new vscode.ThemeIcon('warning'), alwaysShow: true }]
    : [];
  const localItems = [...notice, ...tags.map((tag) => ({ label: tag, description: vscode.l10n.t('local') }))];
  quickPick.items = localItems;
  return new Promise<string | undefined>((resolve) => {
    const pickLifetime = new DisposableStore();
    pickLifetime.add(quickPick);
    pickLifetime.add(
      quickPick.onDidChangeValue((value) => {
        const offer = offerForTyped(value, tags);
        quickPick.title = offer.kind === 'invalid' ? `${title}: ${offer.reason}` : title;
        if (offer.kind === 'pull') quickPick.items = [{ label: offer.reference, description: vscode.l10n.t('pull if missing') }, ...localItems];
        else if (offer.kind === 'invalid') quickPick.items = [{ label: offer.reference, description: vscode.l10n.t('$(error) not an image reference: cannot be pulled'), detail: offer.reason }, ...localItems];
        else quickPick.items = localItems;
      }),
    );
    pickLifetime.add(
      quickPick.onDidAccept(() => {
        if (notice.length > 0 && quickPick.selectedItems[0] === notice[0]) {
          quickPick.hide();
          return;
        }
        const chosen = quickPick.selectedItems[0]?.label ?? quickPick.value.trim();
        const invalid = chosen ? validateImageReference(chosen) : 'Enter an image reference';
        if (invalid) {
          quickPick.title = `${title}: ${invalid}`;
          return;
        }
        resolve(chosen);
        quickPick.hide();
      }),
    );
    pickLifetime.add(
      quickPick.onDidHide(() => {
        resolve(undefined);
        pickLifetime.dispose();
      }),
    );
    quickPick.show();
  });
}

/** The tag of an Images row the command was invoked on, if any. */
function imageOfNode(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const node = value as { kind?: unknown; tag?: unknown };
  return node.kind === 'image' && typeof node.tag === 'string' ? node.tag : undefined;
}

/** A name the engine would refuse as taken, said while the name is typed instead of after the last prompt. */
function nameInUse(session: EngineSession, name: string): string | undefined {
  const holder = [...session.model.containers()].find((record) => record.name === name);
  if (!holder) return undefined;
  return `The name "${name}" is already used by container ${shortId(holder.id)} (${holder.state}). Choose another name, or remove that container first.`;
}

async function askRunArgs(session: EngineSession, title: string, foreground: boolean, preset?: string): Promise<RunArgs | undefined> {
  const image = preset ?? (await pickImage(session, title));
  if (!image) return undefined;
  const commandLine = await vscode.window.showInputBox({
    title,
    prompt: vscode.l10n.t('Command for {0} (optional; empty runs the image\'s default)', image),
    validateInput: validatedBy(splitCommandLine),
  });
  if (commandLine === undefined) return undefined;
  const name = await vscode.window.showInputBox({
    title,
    prompt: vscode.l10n.t('Container name (optional)'),
    validateInput: (value) => (value.trim() === '' ? undefined : (validateContainerName(value.trim()) ?? nameInUse(session, value.trim()))),
  });
  if (name === undefined) return undefined;
  const flags = [
    { label: vscode.l10n.t('TTY'), description: vscode.l10n.t('interactive pseudo-terminal: type into it, like docker run -it'), picked: false, key: 'tty' as const },
    ...(foreground
      ? [{ label: vscode.l10n.t('Interactive'), description: vscode.l10n.t('keep stdin open and send what you type (without a TTY), like docker run -i'), picked: false, key: 'interactive' as const }]
      : []),
    { label: vscode.l10n.t('Remove when done'), description: vscode.l10n.t('remove the container after it exits (off: it stays, with its logs)'), picked: false, key: 'autoRemove' as const },
  ];
  const chosen = await pickMany(flags, {
    title,
    noneIsAnAnswer: true,
    placeHolder: vscode.l10n.t('Options (none ticked: no TTY, no stdin, and the container is kept after it exits)'),
  });
  if (!chosen) return undefined;
  const runOptions = await askRunOptions(image, title);
  if (!runOptions) return undefined;
  const cmd = splitCommandLine(commandLine);
  return {
    image,
    cmd: cmd.length > 0 ? cmd : undefined,
    name: name.trim() || undefined,
    tty: chosen.some((flag) => flag.key === 'tty'),
    interactive: chosen.some((flag) => flag.key === 'interactive' || (foreground && flag.key === 'tty')),
    autoRemove: chosen.some((flag) => flag.key === 'autoRemove'),
    options: runOptions,
  };
}

/**
 * The sign-in offer of a run's pull, as Pull Image has it: the registry's refusal with Sign In…, then the same run
 * again with the answers already given. Automation answers through `signIn`.
 */
function runAuthRetry(deps: ImagesCommandDeps, args: RunArgs, onRefused?: (registry: string) => void): AuthRetryOptions {
  const signIn = args.signIn;
  const retry = signIn === false ? { ...deps.registries.authRetry(), offerSignIn: () => Promise.resolve(false) } : deps.registries.authRetry(signIn);
  if (!onRefused) return retry;
  return {
    ...retry,
    offerSignIn: (registry, message) => {
      onRefused(registry);
      return retry.offerSignIn(registry, message);
    },
  };
}

/** Automation that answers the sign-in offer gets a failed run as a rejection. */
function answersSignIn(value: unknown): boolean {
  return isRunArgs(value) && value.signIn !== undefined;
}

/** Arguments from outside Berth's views run only once the user has seen them (a bare image string opens the steps). */
function runQuestion(given: unknown, action: string): OutsideQuestion | undefined {
  if (!isRunArgs(given)) return undefined;
  return { message: vscode.l10n.t('Run a container of {0}?', shownValue(given.image)), action, detail: runQuestionDetail(given) };
}

/** Network `none` drops published ports: the run goes on, and the user hears it at once rather than at Open in Browser. */
function warnOfDroppedPorts(deps: ImagesCommandDeps, network: string | undefined, args: RunArgs): void {
  const warning = droppedPortsWarning(network, args.options?.ports);
  if (warning === undefined) return;
  deps.log.warn(warning);
  void vscode.window.showWarningMessage(warning);
}

/** The run's network, asked about when it would come from the workspace's settings; null: the user cancelled. */
function chooseNetwork(deps: ImagesCommandDeps, args: RunArgs): Promise<string | undefined | null> {
  const given = args.options?.network?.trim() || undefined;
  return runNetworkFor(args.image, given, deps.settings.runNetwork, deps.settings.runNetworkFromWorkspace, deps.log, args.workspaceNetwork);
}

async function commonRunOptions(deps: ImagesCommandDeps, session: EngineSession, args: RunArgs, network: string | undefined) {
  const extra = await resolveChosenOptions(args.options ?? {}, session, args.autoRemove ?? false);
  return {
    image: args.image,
    cmd: args.cmd,
    name: args.name,
    tty: args.tty ?? false,
    autoRemove: args.autoRemove ?? false,
    networkMode: network,
    labels: { ...extra.labels, 'berth.created-by': 'vscode' },
    env: extra.env,
    config: extra.config,
    hostConfig: extra.hostConfig,
    credentials: deps.registries.chain.asLookup(),
  };
}

/**
 * What both Run commands ask first: the run's arguments (given, or asked with TITLE) and its network. Undefined when
 * the user cancelled either; a network that drops published ports is warned about here.
 */
async function askRunPlan(
  deps: ImagesCommandDeps,
  args: readonly unknown[],
  title: string,
  foreground: boolean,
): Promise<{ session: EngineSession; options: RunArgs; network: string | undefined } | undefined> {
  const session = deps.sessionOfTarget(args[0]);
  const options = isRunArgs(args[0]) ? args[0] : await askRunArgs(session, title, foreground, imageOfNode(args[0]));
  if (!options) return undefined;
  const network = await chooseNetwork(deps, options);
  if (network === null) return undefined;
  warnOfDroppedPorts(deps, network, options);
  return { session, options, network };
}

export const runCommands: ReadonlyArray<CommandEntry<ImagesCommandDeps>> = [
  command('berth.runContainer', 'Running', (deps) => async (...args: unknown[]) => {
    const plan = await askRunPlan(deps, args, 'Run Container', true);
    if (!plan) return undefined;
    const { session, options, network } = plan;
    return new RunSession(deps, session, options).run({
      prepare: () => commonRunOptions(deps, session, options, network),
      authRetry: (onRefused) => runAuthRetry(deps, options, onRefused),
      rejectsFailure: answersSignIn(args[0]),
    });
  }, { rejectsWhen: answersSignIn, asksOutsideCallers: (given) => runQuestion(given, vscode.l10n.t('Run')) }),

  command('berth.runInBackground', 'Running in background', (deps) => async (...args: unknown[]) => {
    const plan = await askRunPlan(deps, args, 'Run in Background', false);
    if (!plan) return undefined;
    const { session, options, network } = plan;
    const tracker = new LayerProgress();
    const runOptions = await commonRunOptions(deps, session, options, network);
    const result = await withCancellableProgress(vscode.l10n.t('Starting {0}', options.image), (signal, progress) =>
      withRegistryAuthRetry(options.image, ({ credential }) =>
        runInBackground(session.client, {
          ...runOptions,
          credentials: () => Promise.resolve(credential),
          signal,
          onStatus: (text: string) => progress.report({ message: text }),
          onPullProgress: (line) => {
            tracker.update(line);
            progress.report({ message: vscode.l10n.t('pulling: {0}', pullProgressText(tracker)) });
          },
        }),
      runAuthRetry(deps, options)).catch((error: unknown) => {
        throw explainRefusal(options.image, error);
      }),
    );
    await session.model.refetchContainers([result.id]);
    // Showing the row is a courtesy: a run that worked does not fail because of it.
    await deps.revealContainer(result.id, session.id).catch((error: unknown) => deps.log.warn(`Showing the row of ${shortId(result.id)}: ${errorMessage(error)}`));
    return { id: result.id };
  }, { rejectsWhen: answersSignIn, asksOutsideCallers: (given) => runQuestion(given, vscode.l10n.t('Run in Background')) }),
];
