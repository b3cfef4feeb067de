/**
 * The Build feature: Build Image… on Dockerfiles (Explorer, editor title, palette), and the `berth-build` and
 * `berth-run` task types. extension.ts calls
 * `registerBuild` once; the image is revealed through the Images view part it hands over.
 */
import * as vscode from 'vscode';
import type { DisposableStore } from '../common/lifecycle';
import { fieldsQuestion, shownValue } from '../workbench/callOrigin';
import { command, registerCommandTable } from '../workbench/commandTable';
import { askBuildOptions, dockerfileOfTarget, pickDockerfile, remember, runBuild } from './buildImage';
import { isBuildOptions } from './buildInput';
import type { BuildDeps } from './deps';
import { BerthTaskProvider } from './tasks';

export type { BuildDeps } from './deps';

export function registerBuild(deps: BuildDeps, owner: DisposableStore): void {
  registerCommandTable(
    [
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
    ],
    deps,
    owner,
  );
  owner.add(new BerthTaskProvider(deps));
}
