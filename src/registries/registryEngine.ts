/**
 * The part of the engine client the registry commands use, as a structural type: `EngineClient` fits it, and
 * the commands take a getter so a client replaced after a settings change is picked up.
 */
import { parseImageReference, validateImageReference } from '../engine/registry';
import type { ImageInspect, PullProgress, RegistryCredential } from '../engine/connection';

export interface RegistryEngine {
  readonly images: {
    pull(reference: string, options: { auth?: RegistryCredential; signal?: AbortSignal }): AsyncIterable<PullProgress>;
    push(reference: string, options: { auth?: RegistryCredential; signal?: AbortSignal }): AsyncIterable<PullProgress>;
    tag(name: string, options: { repo: string; tag?: string; signal?: AbortSignal }): Promise<unknown>;
    inspect(name: string, options: { signal?: AbortSignal }): Promise<ImageInspect>;
  };
}

/** The engine a command target belongs to (an Images row carries its engine); the current engine without one. */
export type EngineGetter = (target?: unknown) => RegistryEngine;

/** What is wrong with a new `repository[:tag]` for Tag Image, or undefined. */
export function tagReferenceProblem(value: string): string | undefined {
  const reference = value.trim();
  if (!reference) return 'Enter a reference such as registry.example.com/team/app:1.0';
  const problem = validateImageReference(reference);
  if (problem) return problem;
  if (parseImageReference(reference).digest) return 'A tag cannot contain a digest (@sha256:…); give repository:tag';
  return undefined;
}
