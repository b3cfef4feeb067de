/**
 * The options step of Run Container… / Run in Background…: no extra options, a profile from `berth.run.profiles`
 * that applies to the image, or options typed with docker run's flags (checked as typed), which can then be saved as
 * a named profile for that image. The chosen options are resolved (files, host paths and ports checked) at the run.
 */
import * as vscode from 'vscode';
import { validatedBy } from '../common/errors';
import { isLocalEngine, resolveRunOptions, type ResolvedRunOptions, type RunOptionsInput } from '../engine';
import type { EngineSession } from '../model/session';
import { formatRunOptions, parseRunOptionsText, profilesFor, readProfiles, typedOptionsWarning, type RunProfile } from './runOptionsText';

const PROFILES_SETTING = 'run.profiles';

/** Where relative paths of the options start: the first workspace folder, else the home folder. */
function optionsFolder(): string {
  return vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? process.env.HOME ?? '/';
}

export async function askRunOptions(image: string, title: string): Promise<RunOptionsInput | undefined> {
  const profiles = profilesFor(readProfiles(vscode.workspace.getConfiguration('berth').get<unknown>(PROFILES_SETTING)), image);
  type Item = vscode.QuickPickItem & { options?: RunOptionsInput; custom?: boolean };
  const items: Item[] = [
    { label: vscode.l10n.t('No extra options'), options: {} },
    ...profiles.map((profile) => ({ label: `$(bookmark) ${profile.name}`, description: formatRunOptions(profile), options: profile })),
    { label: vscode.l10n.t('$(edit) Set options…'), description: vscode.l10n.t('ports, env, mounts, network, workdir, entrypoint, user, restart'), custom: true },
  ];
  const picked = await vscode.window.showQuickPick(items, { title, placeHolder: vscode.l10n.t('Options for {0}', image) });
  if (!picked) return undefined;
  if (!picked.custom) return picked.options;
  const cwd = optionsFolder();
  const text = await vscode.window.showInputBox({
    title,
    prompt: vscode.l10n.t('docker run options, e.g. -p 8080:80 -e KEY=VALUE --env-file .env -v ./src:/src -w /src --restart unless-stopped'),
    validateInput: (value) => {
      const refusal = validatedBy((typed: string) => parseRunOptionsText(typed, cwd))(value);
      if (refusal !== undefined) return refusal;
      // Not a refusal: the run may still be wanted, but the user hears it before the ports turn out unreachable.
      const warning = typedOptionsWarning(parseRunOptionsText(value, cwd));
      return warning === undefined ? undefined : { message: warning, severity: vscode.InputBoxValidationSeverity.Warning };
    },
  });
  if (text === undefined) return undefined;
  const options = parseRunOptionsText(text, cwd);
  const profileName = await vscode.window.showInputBox({ title, prompt: vscode.l10n.t('Save these options as a profile for {0}? Name it, or leave empty', image) });
  if (profileName !== undefined && profileName.trim() !== '') await saveProfile({ ...options, name: profileName.trim(), image: image.replace(/:[^:/]*$/, '') });
  return options;
}

async function saveProfile(profile: RunProfile): Promise<void> {
  const configuration = vscode.workspace.getConfiguration('berth');
  const existing = readProfiles(configuration.get<unknown>(PROFILES_SETTING)).filter((each) => !(each.name === profile.name && each.image === profile.image));
  await configuration.update(PROFILES_SETTING, [...existing, profile], vscode.ConfigurationTarget.Global);
}

/** The options checked on this machine (env files read, host paths and ports checked when the engine is here). */
export function resolveChosenOptions(options: RunOptionsInput, session: EngineSession, autoRemove: boolean): Promise<ResolvedRunOptions> {
  return resolveRunOptions(options, { cwd: optionsFolder(), environment: process.env, engineIsLocal: isLocalEngine(session.client.endpoint), autoRemove });
}
