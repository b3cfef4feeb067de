/**
 * Tag Image… (`POST /images/{name}/tag`) and Push Image (`POST /images/{name}/push` with X-Registry-Auth from the
 * credential chain): push shows the summed layer bytes in a cancellable notification and offers a sign-in when
 * the registry refuses.
 */
import * as vscode from 'vscode';
import type { ImageInspect } from '../engine/connection';
import { withRegistryAuthRetry, type AuthRetryOptions } from './authRetry';
import { formatBytes } from '../common/format';
import { splitRepoTag } from '../common/imageName';
import { LayerProgress } from '../common/layerProgress';
import { registryKeyFor } from '../engine/registry';
import { OUTSIDE_CALLER_LINE, shownValue } from '../workbench/callOrigin';
import type { OutsideQuestion } from '../workbench/commandTable';
import { withCancellableProgress } from '../workbench/feedback';
import { tagReferenceProblem, type EngineGetter } from './registryEngine';

/** What the Images view passes (its `ImageNode`), a reference or id string, or `{ id }`. */
export type ImageTarget =
  | string
  | { readonly kind?: string; readonly key?: string; readonly tag?: string | undefined; readonly id?: string; readonly engine?: string }
  | undefined;

export interface ImageCommandDeps {
  readonly engine: EngineGetter;
  readonly log: vscode.LogOutputChannel;
  /** The retry wiring (credential chain + sign-in offer). */
  readonly authRetry: AuthRetryOptions;
}

/** The number of layers of an image (`RootFS.Layers`). */
function layerCount(image: ImageInspect): number {
  const rootFs = image['RootFS'];
  const layers = typeof rootFs === 'object' && rootFs !== null ? (rootFs as { Layers?: unknown }).Layers : undefined;
  return Array.isArray(layers) ? layers.length : 0;
}

/** The image a target names: its tag when it has one, else its id. */
export function imageOf(target: ImageTarget): string | undefined {
  if (target === undefined) return undefined;
  if (typeof target === 'string') return target.trim() || undefined;
  return target.tag ?? target.id ?? target.key;
}

function givenReference(options: unknown): unknown {
  return typeof options === 'object' && options !== null ? (options as { reference?: unknown }).reference : undefined;
}

/** What Tag Image asks an outside caller that gave the new reference (without one, the reference prompt shows it). */
export function tagQuestion(target: unknown, options: unknown): OutsideQuestion | undefined {
  const reference = givenReference(options);
  if (reference === undefined) return undefined;
  const source = imageOf(target as ImageTarget) ?? '(asked next)';
  return {
    message: vscode.l10n.t('Tag {0} as {1}?', shownValue(source), shownValue(reference)),
    action: vscode.l10n.t('Tag'),
    detail: [OUTSIDE_CALLER_LINE, `Image: ${shownValue(source)}`, `New reference: ${shownValue(reference)}`].join('\n'),
  };
}

/** What Push Image asks an outside caller that named what to push: the image, and the registry it would go to. */
export function pushQuestion(target: unknown, options: unknown): OutsideQuestion | undefined {
  const given = givenReference(options);
  const reference = typeof given === 'string' ? given : imageOf(target as ImageTarget);
  if (reference === undefined) return given === undefined ? undefined : { message: vscode.l10n.t('Push {0}?', shownValue(given)), action: vscode.l10n.t('Push'), detail: OUTSIDE_CALLER_LINE };
  return {
    message: vscode.l10n.t('Push {0} to {1}?', shownValue(reference), shownValue(registryKeyFor(reference))),
    action: vscode.l10n.t('Push'),
    detail: [OUTSIDE_CALLER_LINE, `Image: ${shownValue(reference)}`, `Registry: ${shownValue(registryKeyFor(reference))}`, 'Your sign-in for that registry, if any, goes with it.'].join('\n'),
  };
}

async function askForImage(title: string): Promise<string | undefined> {
  return vscode.window.showInputBox({ title, prompt: vscode.l10n.t('Image name, tag or id'), ignoreFocusOut: true });
}

export async function tagImage(deps: ImageCommandDeps, target: ImageTarget, options: { reference?: string } = {}): Promise<{ source: string; reference: string } | undefined> {
  const source = imageOf(target) ?? (await askForImage('Tag Image: which image?'));
  if (!source) return undefined;
  let reference = options.reference;
  if (reference !== undefined) {
    const problem = tagReferenceProblem(reference);
    if (problem) throw new Error(problem);
  } else {
    reference = await vscode.window.showInputBox({
      title: vscode.l10n.t('Tag {0}', source),
      prompt: vscode.l10n.t('New reference: [registry/]repository[:tag] (the tag defaults to latest)'),
      value: typeof target === 'object' && target.tag ? target.tag : '',
      ignoreFocusOut: true,
      validateInput: tagReferenceProblem,
    });
    if (reference === undefined) return undefined;
  }
  const trimmed = reference.trim();
  const { repo, tag } = splitRepoTag(trimmed);
  await deps.engine(target).images.tag(source, tag === undefined ? { repo } : { repo, tag });
  const full = tag === undefined ? `${repo}:latest` : trimmed;
  deps.log.info(`Tagged ${source} as ${full}`);
  return { source, reference: full };
}

export interface PushResult {
  readonly reference: string;
  readonly digest: string | undefined;
  /** The summed size of the layers the push reported; the image size when the engine reports no layers (Podman). */
  readonly bytes: number;
  readonly layers: number;
}

export async function pushImage(deps: ImageCommandDeps, target: ImageTarget, options: { reference?: string } = {}): Promise<PushResult | undefined> {
  const reference = options.reference ?? imageOf(target) ?? (await askForImage('Push Image: which tag?'));
  if (!reference) return undefined;
  const problem = tagReferenceProblem(reference);
  if (problem || /^sha256:|^[0-9a-f]{12,64}$/.test(reference)) {
    throw new Error(problem ?? `Push needs a tag such as registry.example.com/app:1.0, not an image id; use Tag Image… first`);
  }
  const result = await withCancellableProgress(vscode.l10n.t('Pushing {0}', reference), (signal, progress) =>
    withRegistryAuthRetry(
      reference,
      async ({ credential }) => {
        const layers = new LayerProgress();
        let reported = 0;
        for await (const line of deps.engine(target).images.push(reference, { ...(credential ? { auth: credential } : {}), signal })) {
          if (!layers.update(line)) continue;
          const { current, total, layers: count, doneLayers } = layers.totals;
          const percent = total > 0 ? (current / total) * 100 : 0;
          progress.report({ message: vscode.l10n.t('{0} / {1} · {2}/{3} layers', formatBytes(current), formatBytes(total), doneLayers, count), increment: Math.max(0, percent - reported) });
          reported = Math.max(reported, percent);
        }
        const { total, layers: count } = layers.totals;
        if (count > 0) return { reference, digest: layers.digest, bytes: total, layers: count };
        // Podman's push stream has no per-layer lines: the image itself says what was pushed.
        const image = await deps.engine(target).images.inspect(reference, { signal });
        return { reference, digest: layers.digest, bytes: image.Size, layers: layerCount(image) };
      },
      deps.authRetry,
    ),
  );
  deps.log.info(`Pushed ${result.reference}${result.digest ? ` (${result.digest})` : ''}: ${result.layers} layers, ${formatBytes(result.bytes)}`);
  if (options.reference === undefined) void vscode.window.showInformationMessage(vscode.l10n.t('Berth: pushed {0}', result.reference));
  return result;
}
