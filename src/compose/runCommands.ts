/**
 * Compose Up, Up – Select Services…, Up – Select Profiles…, Down, Restart, Pull and Build: on compose files (Explorer,
 * editor title, palette) and on project groups. Each reads the files first (so a YAML error, an unknown service or
 * profile, or a file that is not a compose file is refused before any process starts), then runs a task.
 */
import * as vscode from 'vscode';
import { readComposeModel, type ComposeCommand, type ComposeModel, type ComposeRun } from '../engine';
import { fieldsQuestion, listLine, shownValue, type OutsideQuestion } from '../workbench/callOrigin';
import { command, type CommandEntry } from '../workbench/commandTable';
import { pickMany } from '../workbench/multiPick';
import { resolveFiles, type FilesTarget } from './files';
import type { ComposeRunDeps } from './deps';
import { prepareRun, runTask } from './tasks';
import { reportFailure } from '../workbench/feedback';

type Selection = 'none' | 'services' | 'profiles';

function strings(value: unknown): string[] | undefined {
  return Array.isArray(value) ? value.map(String) : undefined;
}

/** Compose Up – Select Services…: Enter alone takes the highlighted service. */
export async function pickServices(model: ComposeModel): Promise<string[] | undefined> {
  const picked = await pickMany(
    model.services.map((service) => ({ label: service.name, description: service.profiles.length > 0 ? `profiles: ${service.profiles.join(', ')}` : undefined })),
    { placeHolder: vscode.l10n.t('Services to start (a service behind a profile turns its profile on)') },
  );
  return picked && picked.length > 0 ? picked.map((item) => item.label) : undefined;
}

/** Compose Up – Select Profiles…: Enter alone takes the highlighted profile. */
export async function pickProfiles(model: ComposeModel): Promise<string[] | undefined> {
  if (model.profiles.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('No service in {0} has a profile: Compose Up starts them all.', model.files.join(', ')));
    return undefined;
  }
  const picked = await pickMany(
    model.profiles.map((profile) => ({
      label: profile,
      description: model.services.filter((service) => service.profiles.includes(profile)).map((service) => service.name).join(', '),
    })),
    { placeHolder: vscode.l10n.t('Profiles to turn on (services without a profile start too)') },
  );
  return picked && picked.length > 0 ? picked.map((item) => item.label) : undefined;
}

/** What the run is: the files' services or profiles picked (or given by automation), Down's volumes asked. */
async function describe(target: FilesTarget, commandName: ComposeCommand, selection: Selection): Promise<ComposeRun | undefined> {
  const { options } = target;
  const run: { -readonly [K in keyof ComposeRun]: ComposeRun[K] } = { command: commandName, files: target.files, projectName: target.projectName };
  run.services = strings(options['services']);
  run.profiles = strings(options['profiles']);
  if (selection !== 'none' && run.services === undefined && run.profiles === undefined) {
    // Read now for the pick; prepareRun reads again, so what runs is what the files say at that moment.
    const model = await readComposeModel(target.files);
    if (selection === 'services') run.services = await pickServices(model);
    else run.profiles = await pickProfiles(model);
    if (!run.services && !run.profiles) return undefined;
  }
  if (commandName === 'down') {
    if (typeof options['volumes'] === 'boolean') run.volumes = options['volumes'];
    else {
      const choice = await vscode.window.showQuickPick(
        [
          { label: vscode.l10n.t('Down'), description: vscode.l10n.t('stop and remove containers and networks'), volumes: false },
          { label: vscode.l10n.t('Down and Remove Volumes'), description: vscode.l10n.t('also the named volumes the files declare (-v)'), volumes: true },
        ],
        { placeHolder: vscode.l10n.t('Compose Down') },
      );
      if (!choice) return undefined;
      run.volumes = choice.volumes;
    }
  }
  return run;
}

/** The question for compose files given as Uris: the files, and the compose command that would run on them. */
function fileQuestion(title: string, commandName: ComposeCommand, args: readonly unknown[]): OutsideQuestion {
  // The files resolveFiles runs: the Explorer's multi-selection when there is one, else the file itself.
  const isUri = (value: unknown): value is vscode.Uri => value instanceof vscode.Uri;
  const selected = Array.isArray(args[1]) ? (args[1] as unknown[]).filter(isUri) : [];
  const uris = selected.length > 0 ? selected : [args[0] as vscode.Uri];
  const files = [...new Set(uris.map((uri) => (uri.scheme === 'file' ? uri.fsPath : uri.toString())))].map(shownValue);
  return {
    message: vscode.l10n.t('{0} with {1}?', title, files.join(', ')),
    action: title,
    detail: [vscode.l10n.t('A file was passed to this command (by the Explorer, an editor, a command link or another extension).'), ...listLine('Files', files), `Runs: compose ${files.map((file) => `-f ${file}`).join(' ')} ${commandName}`].join('\n'),
  };
}

function composeCommand(id: string, title: string, commandName: ComposeCommand, selection: Selection = 'none'): CommandEntry<ComposeRunDeps> {
  return command(
    id,
    title,
    (deps) =>
      async (...args: unknown[]) => {
        const target = await resolveFiles(deps, args);
        if (!target) return undefined;
        const run = await describe(target, commandName, selection);
        if (!run) return undefined;
        const prepared = await prepareRun(deps.implementations, target.session, run, { cwd: target.cwd });
        deps.log.info(`${title}: ${prepared.implementation.command} ${prepared.args.join(' ')} (engine ${target.session.endpointDisplay})`);
        const exitCode = await runTask(prepared.task);
        if (exitCode !== 0) {
          const headline = vscode.l10n.t('{0} failed: {1} exited with {2}. Its output is in the task terminal.', title, prepared.implementation.id, exitCode ?? 'no code');
          void reportFailure(deps, headline, new Error(headline));
        }
        // Events bring the new containers too; a listing now makes the tree current when the command returns.
        target.session.model.refresh();
        return { exitCode, implementation: prepared.implementation.id, args: prepared.args };
      },
    {
      rejectsWhen: (...args: unknown[]) => typeof args[0] === 'object' && args[0] !== null && 'files' in args[0],
      // Files or a project given by an outside caller are shown first, and so is a file Uri: the explorer and the editor
      // title pass one, but so can a command link or another extension, and nothing tells them apart.
      asksOutsideCallers: (...args: unknown[]) =>
        args[0] instanceof vscode.Uri
          ? fileQuestion(title, commandName, args)
          : typeof args[0] === 'object' && args[0] !== null
            ? fieldsQuestion(vscode.l10n.t('{0}?', title), title, args[0])
            : undefined,
    },
  );
}

export const runCommands: ReadonlyArray<CommandEntry<ComposeRunDeps>> = [
  composeCommand('berth.compose.up', 'Compose Up', 'up'),
  composeCommand('berth.compose.upServices', 'Compose Up (selected services)', 'up', 'services'),
  composeCommand('berth.compose.upProfiles', 'Compose Up (selected profiles)', 'up', 'profiles'),
  composeCommand('berth.compose.down', 'Compose Down', 'down'),
  composeCommand('berth.compose.restart', 'Compose Restart', 'restart'),
  composeCommand('berth.compose.pull', 'Compose Pull', 'pull'),
  composeCommand('berth.compose.build', 'Compose Build', 'build'),
];
