/** Image commands: pull (progress summed over layers, cancellable) and remove. */
import * as vscode from 'vscode';
import { errorMessage } from '../common/errors';
import { LayerProgress } from '../common/layerProgress';
import { pull, validateImageReference } from '../engine';
import { withRegistryAuthRetry } from '../registries';
import { isEngineRoot } from '../views/engineForest';
import { command, type CommandEntry } from '../workbench/commandTable';
import { confirm, reportError, withCancellableProgress } from '../workbench/feedback';
import { resolveImages } from '../workbench/targets';
import type { ImagesCommandDeps } from './deps';

/** The automation bag of Pull Image… (second argument): `{ engine?, signIn? }`. */
interface PullImageOptions {
  /**
   * `false`: a registry refusal fails the pull at once, without offering to sign in. Credentials: a refusal signs in
   * with them (stored as Sign In stores them) and pulls again, as a user answering the offer does.
   */
  readonly signIn?: false | { readonly username: string; readonly password: string };
}

function pullOptions(value: unknown): PullImageOptions {
  if (typeof value !== 'object' || value === null) return {};
  const signIn = (value as { signIn?: unknown }).signIn;
  if (signIn === false) return { signIn };
  if (typeof signIn === 'object' && signIn !== null) {
    const { username, password } = signIn as { username?: unknown; password?: unknown };
    if (typeof username === 'string' && typeof password === 'string') return { signIn: { username, password } };
  }
  return {};
}

export const imageCommands: ReadonlyArray<CommandEntry<ImagesCommandDeps>> = [
  command('berth.pullImage', 'Pulling', (deps) => async (...args: unknown[]) => {
    const given = typeof args[0] === 'string' ? args[0].trim() : undefined;
    // Palette: the current engine; automation may name one (`{ engine }` in the second argument); an engine row: that engine.
    const session = isEngineRoot(args[0]) ? deps.sessionFor(args[0].engine) : deps.sessionOfTarget(args[1]);
    const reference =
      given ??
      (
        await vscode.window.showInputBox({
          title: vscode.l10n.t('Pull Image'),
          prompt: vscode.l10n.t('Image reference, e.g. registry.example.com/team/app:1.0'),
          validateInput: (value) => (value.trim() === '' ? vscode.l10n.t('Enter an image reference') : validateImageReference(value.trim())),
        })
      )?.trim();
    if (!reference) return undefined;
    const invalid = validateImageReference(reference);
    if (invalid) throw new Error(invalid);
    // Automation (`{ signIn: false }`) gets the refusal at once instead of a Sign In… offer nobody will answer.
    const { signIn } = pullOptions(args[1]);
    const authRetry = signIn === false ? { ...deps.registries.authRetry(), maxSignIns: 0 } : deps.registries.authRetry(signIn);
    const tracker = new LayerProgress();
    await withCancellableProgress(vscode.l10n.t('Pulling {0}', reference), async (signal, progress) => {
      let reported = 0;
      // A refusal ("no basic auth credentials", 401) offers Sign In and pulls again with the new credential.
      await withRegistryAuthRetry(reference, ({ credential }) => pull(session.client, reference, {
        credentials: () => Promise.resolve(credential),
        signal,
        onProgress: (line) => {
          tracker.update(line);
          const percent = tracker.percent;
          progress.report({ increment: percent - reported, message: `${percent}% ${tracker.status}` });
          reported = percent;
        },
      }), authRetry);
    });
    const record = await session.model.refetchImage(reference);
    void vscode.window.showInformationMessage(vscode.l10n.t('Pulled {0}.', reference));
    // Selecting the row may wait for a folded or hidden Images view to draw it: never hold the news for it.
    if (record) void deps.imagesView.reveal(record.key, session.id).catch((error: unknown) => deps.log.info(`Pulled ${reference}; not revealed: ${errorMessage(error)}`));
    return { reference };
  }, {
    // Automation that answered the sign-in itself gets the refusal as a rejection, not a notification.
    rejectsWhen: (...args: unknown[]) => pullOptions(args[1]).signIn !== undefined,
  }),

  command('berth.removeImage', 'Removing images', (deps) => async (...args: unknown[]) => {
    const target = await resolveImages(deps, args, 'Images to remove');
    if (!target) return undefined;
    const names = target.refs.map((ref) => ref.reference).join(', ');
    if (!(await confirm(vscode.l10n.t('Remove {0}?', names), vscode.l10n.t('Remove'), target.options.confirmed))) return undefined;
    const removed: string[] = [];
    await withCancellableProgress(vscode.l10n.t('Removing images'), async (signal, progress) => {
      for (const ref of target.refs) {
        progress.report({ message: ref.reference });
        try {
          await ref.session.client.images.remove(ref.reference, { signal });
          removed.push(ref.reference);
        } catch (error) {
          reportError(deps, `Removing ${ref.reference}`, error);
        }
      }
    });
    for (const ref of target.refs) {
      await ref.session.model.refetchImage(ref.id).catch((error: unknown) => reportError(deps, 'Refreshing images', error));
    }
    return { removed };
  }),
];
