/** Which Compose project a command acts on: a group row, `{ project, engine? }` from automation, or a pick. */
import * as vscode from 'vscode';
import { COMPOSE_LABELS, groupProjects, type ComposeProject } from '../engine';
import type { EngineSession } from '../model/session';
import type { SessionsDeps } from '../workbench/deps';
import { isObject } from '../common/objects';

export interface ProjectTarget {
  readonly session: EngineSession;
  readonly project: ComposeProject;
  /** The second argument from automation: `{ confirmed, volumes, services, … }`. */
  readonly options: Record<string, unknown>;
}


/** The projects the session's model knows now, from the containers' labels. */
export function projectsOf(session: EngineSession): ComposeProject[] {
  const summaries = [...session.model.containers()].map((record) => record.summary).filter((summary) => summary.Labels?.[COMPOSE_LABELS.project]);
  return groupProjects(summaries);
}

/** A group row is `{ kind: 'group', engine, project }`; automation passes `{ project, engine? }`. */
export function projectNameOf(value: unknown): { project: string; engine: string | undefined } | undefined {
  if (!isObject(value) || typeof value['project'] !== 'string') return undefined;
  return { project: value['project'], engine: typeof value['engine'] === 'string' ? value['engine'] : undefined };
}

export async function resolveProject(deps: SessionsDeps, args: readonly unknown[], placeHolder: string): Promise<ProjectTarget | undefined> {
  const [first, second] = args;
  const named = projectNameOf(first);
  const options = isObject(second) ? second : named && isObject(first) ? first : {};
  const session = deps.sessionFor(named?.engine);
  const projects = projectsOf(session);
  if (named) {
    const project = projects.find((candidate) => candidate.name === named.project);
    if (!project) {
      const known = projects.map((candidate) => candidate.name).join(', ') || 'none';
      throw new Error(`No Compose project "${named.project}" on ${session.name}. Projects there: ${known}`);
    }
    return { session, project, options };
  }
  if (projects.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('No Compose project on {0}: no container carries the label {1}.', session.name, COMPOSE_LABELS.project));
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    projects.map((project) => ({ label: project.name, description: vscode.l10n.t('{0}/{1} running', project.running, project.members.length), detail: project.workingDir, project })),
    { placeHolder },
  );
  return picked ? { session, project: picked.project, options } : undefined;
}
