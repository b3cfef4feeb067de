/**
 * When the classic builder refuses BuildKit-only syntax and `docker buildx` is on PATH, Berth offers to build with it
 * in a task terminal: the same Dockerfile, context, tag, args and target, against the same engine (DOCKER_HOST), run
 * as a process (no shell), so the user sees buildx's own output.
 */
import { execFile } from 'node:child_process';
import * as vscode from 'vscode';
import { errorMessage } from '../common/errors';
import type { EngineSession } from '../model/session';
import type { BuildDeps } from './deps';
import type { BuildOptions } from './buildInput';
import { reportFailure } from '../workbench/feedback';

const BUILDKIT_REFUSAL = /requires BuildKit|classic builder does not understand/i;

/** True when the failure was BuildKit syntax and the offer was shown (the error is then reported here). */
export async function offerBuildx(deps: BuildDeps, session: EngineSession, options: BuildOptions, contextDir: string, error: unknown): Promise<boolean> {
  const message = errorMessage(error);
  if (!BUILDKIT_REFUSAL.test(message) || !(await buildxAvailable())) return false;
  const withBuildx = { title: vscode.l10n.t('Build with docker buildx'), run: () => vscode.tasks.executeTask(buildxTask(session, options, contextDir)) };
  await reportFailure(deps, vscode.l10n.t('Building failed: {0}', message), error, [withBuildx]);
  return true;
}

export function buildxArguments(options: BuildOptions, contextDir: string): string[] {
  const args = ['buildx', 'build', '--load', '-f', options.dockerfile, '-t', options.tag];
  for (const [key, value] of Object.entries(options.buildArgs ?? {})) args.push('--build-arg', `${key}=${value}`);
  if (options.target) args.push('--target', options.target);
  if (options.noCache) args.push('--no-cache');
  args.push(contextDir);
  return args;
}

function buildxTask(session: EngineSession, options: BuildOptions, contextDir: string): vscode.Task {
  const env: Record<string, string> = {};
  const host = session.client.endpoint.host;
  if (/^(unix|tcp|npipe):\/\//.test(host)) env.DOCKER_HOST = host;
  const folder = vscode.workspace.getWorkspaceFolder(vscode.Uri.file(options.dockerfile));
  return new vscode.Task(
    { type: 'berth-build', dockerfile: options.dockerfile, context: contextDir, tag: options.tag, builder: 'buildx' },
    folder ?? vscode.TaskScope.Workspace,
    `buildx: ${options.tag}`,
    'berth',
    new vscode.ProcessExecution('docker', buildxArguments(options, contextDir), { env }),
    ['$berth-build'],
  );
}

function buildxAvailable(): Promise<boolean> {
  return new Promise((resolve) => {
    execFile('docker', ['buildx', 'version'], { timeout: 5000 }, (error) => resolve(error === null));
  });
}
