/** Commit Container…: a validated repo:tag, optional comment and author; the new image is revealed. */
import * as vscode from 'vscode';
import { errorMessage } from '../common/errors';
import { splitRepoTag } from '../common/imageName';
import { validateImageReference } from '../engine';
import { fieldsQuestion, givenTargets, shownValue } from '../workbench/callOrigin';
import { command, type CommandEntry, type OutsideQuestion } from '../workbench/commandTable';
import { withCancellableProgress } from '../workbench/feedback';
import { resolveContainers, splitArgs } from '../workbench/targets';
import type { ImagesCommandDeps } from './deps';

interface CommitArgs {
  repo?: string;
  tag?: string;
  comment?: string;
  author?: string;
}

/** What is wrong with a commit target, or undefined. Digests are not allowed: the engine names the result. */
export function validateCommitReference(value: string): string | undefined {
  const reference = value.trim();
  if (reference === '') return 'Enter a repository, optionally with :tag';
  if (reference.includes('@')) return 'A commit target cannot have a digest';
  return validateImageReference(reference);
}

export const commitCommands: ReadonlyArray<CommandEntry<ImagesCommandDeps>> = [
  command('berth.commitContainer', 'Committing', (deps) => async (...args: unknown[]) => {
    const target = await resolveContainers(deps, args, { placeHolder: vscode.l10n.t('Container to commit'), eligible: () => true, many: false });
    const ref = target?.refs[0];
    if (!ref) return undefined;
    const given = splitArgs(args).options as CommitArgs;
    let repoTag = given.repo ? (given.tag ? `${given.repo}:${given.tag}` : given.repo) : undefined;
    let comment = given.comment;
    let author = given.author;
    if (!repoTag) {
      repoTag = (
        await vscode.window.showInputBox({
          title: vscode.l10n.t('Commit {0}', ref.name),
          prompt: vscode.l10n.t('Repository and tag of the new image'),
          placeHolder: 'team/app:snapshot',
          validateInput: validateCommitReference,
        })
      )?.trim();
      if (!repoTag) return undefined;
      comment = await vscode.window.showInputBox({ title: vscode.l10n.t('Commit {0}', ref.name), prompt: vscode.l10n.t('Comment (optional)') });
      if (comment === undefined) return undefined;
      author = await vscode.window.showInputBox({ title: vscode.l10n.t('Commit {0}', ref.name), prompt: vscode.l10n.t('Author (optional)'), placeHolder: vscode.l10n.t('Name <email>') });
      if (author === undefined) return undefined;
    }
    const invalid = validateCommitReference(repoTag);
    if (invalid) throw new Error(invalid);
    const { repo, tag } = splitRepoTag(repoTag);
    const result = await withCancellableProgress(vscode.l10n.t('Committing {0} as {1}', ref.name, repoTag), (signal) =>
      ref.session.client.containers.commit(ref.id, {
        repo,
        tag: tag ?? 'latest',
        comment: comment || undefined,
        author: author || undefined,
        signal,
      }),
    );
    const record = await ref.session.model.refetchImage(result.Id);
    void vscode.window.showInformationMessage(vscode.l10n.t('Committed {0} as {1}.', ref.name, repoTag));
    // As after a pull: the news first; selecting the row may wait for a folded Images view to draw it.
    if (record) void deps.imagesView.reveal(record.key, ref.session.id).catch((error: unknown) => deps.log.info(`Committed ${repoTag}; not revealed: ${errorMessage(error)}`));
    return { imageId: result.Id, reference: `${repo}:${tag ?? 'latest'}` };
  }, {
    rejectsWhen: (...args: unknown[]) => typeof (splitArgs(args).options as CommitArgs).repo === 'string',
    asksOutsideCallers: commitQuestion,
  }),
];

/** With the new image's name given by an outside caller: the container and every commit value, shown first. */
function commitQuestion(...args: unknown[]): OutsideQuestion | undefined {
  const { options } = splitArgs(args);
  const repo = (options as CommitArgs).repo;
  if (repo === undefined) return undefined;
  const containers = givenTargets(args.slice(0, 1)).join(', ') || '(picked next)';
  return fieldsQuestion(vscode.l10n.t('Commit {0} as {1}?', containers, shownValue(repo)), vscode.l10n.t('Commit'), options);
}
