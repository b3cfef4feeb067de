/** Build Image…: asks for the Dockerfile and the options, or takes them whole from automation. */
import * as vscode from 'vscode';
import { fieldsQuestion, shownValue } from '../workbench/callOrigin';
import { command, type CommandEntry } from '../workbench/commandTable';
import { askBuildOptions, dockerfileOfTarget, pickDockerfile, remember, runBuild } from './buildImage';
import { isBuildOptions } from './buildInput';
import type { BuildDeps } from './deps';

export const buildCommands: ReadonlyArray<CommandEntry<BuildDeps>> = [
  command(
    'berth.buildImage',
    'Building',
    (buildDeps: BuildDeps) => async (target?: unknown) => {
      if (isBuildOptions(target)) return runBuild(buildDeps, buildDeps.sessionFor(target.engine), target);
      const dockerfile = dockerfileOfTarget(target) ?? (await pickDockerfile());
      if (dockerfile === undefined) return undefined;
      const options = await askBuildOptions(buildDeps, dockerfile);
      if (!options) return undefined;
      await remember(buildDeps, options);
      return runBuild(buildDeps, buildDeps.session, options);
    },
    {
      rejectsWhen: isBuildOptions,
      asksOutsideCallers: (target) =>
        isBuildOptions(target) ? fieldsQuestion(vscode.l10n.t('Build {0}?', shownValue(target.dockerfile)), vscode.l10n.t('Build'), target) : undefined,
    },
  ),
];
