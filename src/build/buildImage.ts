/**
 * Build Image…: on a Dockerfile from the Explorer or the editor title, or from the palette with a pick of the
 * workspace's Dockerfiles. It asks for a tag (remembered per Dockerfile), build args, the target stage (from the
 * Dockerfile's `FROM … AS name` lines) and whether to use the cache, warns before sending a context larger than
 * `berth.build.contextWarningMB`, streams the build into a terminal (closing it, or Cancel, stops the engine's build),
 * then reveals the image with an action to run it.
 */
import { readFile } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import * as vscode from 'vscode';
import { errorMessage, validatedBy } from '../common/errors';
import { formatBytes, shortId } from '../common/format';
import { buildImage, dockerfileStages, measureContext, prepareBuildContext, validateImageReference, type BuildContext } from '../engine';
import type { EngineSession } from '../model/session';
import { BufferedPseudoterminal } from '../terminals/bufferedPseudoterminal';
import { ANSI } from '../terminals/terminalText';
import { asOwnArgument } from '../workbench/callOrigin';
import { WORKSPACE_FOLDER_LABEL } from '../views/rowFilter';
import { withCancellableProgress } from '../workbench/feedback';
import { BuildTranscript, DOCKERFILE_GLOB, formatBuildArgs, isDockerfileName, parseBuildArgs, suggestedTag, type BuildOptions } from './buildInput';
import { offerBuildx } from './buildx';
import type { BuildDeps } from './deps';

export interface BuildOutcome {
  readonly imageId: string | undefined;
  readonly tag: string;
}

const REMEMBERED_KEY = 'berth.build.lastOptions';
type Remembered = Record<string, { tag: string; buildArgs?: Record<string, string>; target?: string; noCache?: boolean }>;

/** The Dockerfile a command was invoked on (Explorer row, editor title, active editor), if it is one. */
export function dockerfileOfTarget(target: unknown): string | undefined {
  const uri = target instanceof vscode.Uri ? target : vscode.window.activeTextEditor?.document.uri;
  return uri?.scheme === 'file' && isDockerfileName(basename(uri.fsPath)) ? uri.fsPath : undefined;
}

export async function pickDockerfile(): Promise<string | undefined> {
  const found = await vscode.workspace.findFiles(DOCKERFILE_GLOB, '**/node_modules/**', 200);
  if (found.length === 0) throw new Error('No Dockerfile in this workspace. Create one (Berth: Add Docker Files to Workspace…), then build');
  if (found.length === 1) return found[0]?.fsPath;
  const items = found
    .map((uri) => ({ label: vscode.workspace.asRelativePath(uri), path: uri.fsPath }))
    .sort((a, b) => a.label.localeCompare(b.label));
  return (await vscode.window.showQuickPick(items, { title: vscode.l10n.t('Build Image'), placeHolder: vscode.l10n.t('Which Dockerfile?') }))?.path;
}

/** Asks for the tag, build args, target and cache use, starting from what was used last time for this Dockerfile. */
export async function askBuildOptions(deps: BuildDeps, dockerfile: string): Promise<BuildOptions | undefined> {
  const title = `Build Image: ${vscode.workspace.asRelativePath(dockerfile)}`;
  const last = deps.workspaceState.get<Remembered>(REMEMBERED_KEY, {})[dockerfile];
  const tag = await vscode.window.showInputBox({
    title,
    prompt: vscode.l10n.t('Tag for the image (name:tag)'),
    value: last?.tag ?? suggestedTag(dockerfile),
    validateInput: (value) => (value.trim() === '' ? vscode.l10n.t('Enter a tag, e.g. app:latest') : validateImageReference(value.trim())),
  });
  if (tag === undefined) return undefined;
  const argsText = await vscode.window.showInputBox({
    title,
    prompt: vscode.l10n.t('Build args (optional): KEY=VALUE separated by spaces'),
    value: formatBuildArgs(last?.buildArgs ?? {}),
    validateInput: validatedBy(parseBuildArgs),
  });
  if (argsText === undefined) return undefined;
  const buildArgs = parseBuildArgs(argsText);
  const stages = dockerfileStages(await readFile(dockerfile, 'utf8'), buildArgs).filter((stage) => stage.name !== undefined);
  let target: string | undefined;
  if (stages.length > 0) {
    const items = [
      { label: vscode.l10n.t('$(layers) All stages'), description: vscode.l10n.t('build the last stage'), stage: undefined as string | undefined },
      ...stages.map((stage) => ({ label: stage.name as string, description: vscode.l10n.t('FROM {0} (line {1})', stage.image, stage.line), stage: stage.name })),
    ];
    const picked = await vscode.window.showQuickPick(items, { title, placeHolder: vscode.l10n.t('Target stage') });
    if (!picked) return undefined;
    target = picked.stage;
  }
  const cache = await vscode.window.showQuickPick(
    [
      { label: vscode.l10n.t('Use the cache'), noCache: false },
      { label: vscode.l10n.t('No cache'), description: vscode.l10n.t('run every step again'), noCache: true },
    ],
    { title, placeHolder: last?.noCache ? 'Last time: no cache' : 'Cache' },
  );
  if (!cache) return undefined;
  return { dockerfile, tag: tag.trim(), buildArgs, target, noCache: cache.noCache };
}

export async function remember(deps: BuildDeps, options: BuildOptions): Promise<void> {
  const all = { ...deps.workspaceState.get<Remembered>(REMEMBERED_KEY, {}) };
  all[options.dockerfile] = {
    tag: options.tag,
    ...(options.buildArgs ? { buildArgs: { ...options.buildArgs } } : {}),
    ...(options.target ? { target: options.target } : {}),
    noCache: options.noCache === true,
  };
  await deps.workspaceState.update(REMEMBERED_KEY, all);
}

/**
 * The label that ties an image to the workspace folder its build context is in, so that the Containers view's
 * "this workspace only" knows its containers (they inherit the image's labels). None outside every folder.
 */
export function workspaceBuildLabels(contextDir: string): Record<string, string> {
  const folder = vscode.workspace.getWorkspaceFolder(vscode.Uri.file(contextDir));
  return folder && folder.uri.scheme === 'file' ? { [WORKSPACE_FOLDER_LABEL]: folder.uri.fsPath } : {};
}

/** Runs the build into a terminal; resolves undefined when the user cancelled or declined. */
export async function runBuild(deps: BuildDeps, session: EngineSession, options: BuildOptions): Promise<BuildOutcome | undefined> {
  const contextDir = options.context ?? dirname(options.dockerfile);
  const context = await withCancellableProgress(vscode.l10n.t('Reading the build context of {0}', options.tag), async (signal) => {
    const prepared = await prepareBuildContext({ contextDir, dockerfile: options.dockerfile });
    return (await confirmContextSize(prepared, options.confirmLargeContext, signal)) ? prepared : undefined;
  });
  if (!context) return undefined;
  const terminal = new BufferedPseudoterminal();
  vscode.window.createTerminal({ name: `Build: ${options.tag}`, pty: terminal, iconPath: new vscode.ThemeIcon('package') }).show(true);
  const transcript = new BuildTranscript();
  terminal.writeLine(ANSI.dim(`[Berth] building ${options.tag} from ${vscode.workspace.asRelativePath(options.dockerfile)} (context ${vscode.workspace.asRelativePath(contextDir)})`));
  try {
    const result = await withCancellableProgress(vscode.l10n.t('Building {0}', options.tag), (cancelled) =>
      buildImage(session.client, {
        contextDir,
        prepared: context,
        tags: [options.tag],
        buildArgs: options.buildArgs,
        target: options.target,
        noCache: options.noCache,
        labels: workspaceBuildLabels(contextDir),
        networkMode: vscode.workspace.getConfiguration('berth.build').get<string>('network', '').trim() || undefined,
        credentials: deps.registries.chain.asLookup(),
        signal: AbortSignal.any([cancelled, terminal.signal]),
        onMessage: (message) => terminal.write(transcript.render(message)),
      }),
    );
    terminal.writeLine(ANSI.bold(`[Berth] built ${options.tag}${result.imageId ? ` (${shortId(result.imageId)})` : ''}`));
    deps.log.info(`Built ${options.tag} (${result.imageId ?? 'id unknown'}) on ${session.name}`);
    const record = await session.model.refetchImage(result.imageId ?? options.tag);
    // Revealing needs the Images view resolved; a hidden view must not turn a good build into a failure.
    if (record) await deps.revealImage(record.key, session.id).catch((error: unknown) => deps.log.info(`Built ${options.tag}; not revealed: ${errorMessage(error)}`));
    const run = vscode.l10n.t('Run');
    void vscode.window.showInformationMessage(vscode.l10n.t('Built {0}.', options.tag), run).then((choice) => {
      if (choice === run) void vscode.commands.executeCommand('berth.runContainer', asOwnArgument({ image: options.tag, engine: session.id }));
    });
    return { imageId: result.imageId, tag: options.tag };
  } catch (error) {
    terminal.write(transcript.failure(`[Berth] ${errorMessage(error)}`));
    if (await offerBuildx(deps, session, options, contextDir, error)) return undefined;
    throw error;
  }
}

/** Asks before sending a context above `berth.build.contextWarningMB`, naming its three biggest folders. */
async function confirmContextSize(context: BuildContext, preset: boolean | undefined, signal: AbortSignal): Promise<boolean> {
  const limitMB = vscode.workspace.getConfiguration('berth.build').get<number>('contextWarningMB', 500);
  const size = await measureContext(context, signal);
  if (size.bytes <= limitMB * 1024 * 1024) return true;
  if (preset !== undefined) return preset;
  const biggest = size.biggest.map((dir) => `${dir.path}/ (${formatBytes(dir.bytes)})`).join(', ');
  const buildAnyway = vscode.l10n.t('Build Anyway');
  const openIgnore = vscode.l10n.t('Open .dockerignore');
  const choice = await vscode.window.showWarningMessage(
    vscode.l10n.t('The build context is {0} in {1} files, more than berth.build.contextWarningMB ({2} MB). Build anyway?', formatBytes(size.bytes), size.files, limitMB),
    { modal: true, detail: vscode.l10n.t('Biggest folders: {0}. Add what the image does not need to .dockerignore.', biggest || 'none (the files are at the top)') },
    buildAnyway,
    openIgnore,
  );
  if (choice === openIgnore) {
    const uri = vscode.Uri.file(`${context.contextDir}/.dockerignore`).with({ scheme: 'untitled' });
    const existing = vscode.Uri.file(`${context.contextDir}/.dockerignore`);
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(existing).then(undefined, () => vscode.workspace.openTextDocument(uri)));
  }
  return choice === buildAnyway;
}
