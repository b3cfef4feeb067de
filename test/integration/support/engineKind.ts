// Which engine a pass of the integration matrix runs against, and how that engine spells what the suite compares.
// Plain Node (no `vscode`): the launcher (run.ts) and the suite inside the extension host both use it.
import type { TestEngines } from '../../support/engines';

export type EngineKind = 'docker' | 'podman';

/** Set by test/integration/run.ts for the extension host: the engine this pass targets. */
export const ENGINE_KIND_ENV = 'BERTH_IT_ENGINE';

export function parseEngineKind(value: string | undefined): EngineKind {
  const text = (value ?? '').trim().toLowerCase();
  if (text === '' || text === 'docker') return 'docker';
  if (text === 'podman') return 'podman';
  throw new Error(`${ENGINE_KIND_ENV}=${value ?? ''}: expected "docker" or "podman"`);
}

/** The endpoint of the engine a pass targets; a Podman pass needs `podmanHost` in engines.json. */
export function engineHostFor(engines: Pick<TestEngines, 'dockerHost' | 'podmanHost'>, kind: EngineKind): string {
  if (kind === 'docker') return engines.dockerHost;
  if (!engines.podmanHost) throw new Error('engines.json has no podmanHost: Podman cannot run here, so there is no Podman pass');
  return engines.podmanHost;
}

/**
 * Podman names images after where they came from: `localhost/` for an import, `docker.io/` for a short name tagged
 * or committed through its Docker-compatible API. Docker keeps the short name. The canonical form drops those
 * prefixes on Podman only; on Docker a reference is compared exactly as written.
 */
export function canonicalReference(kind: EngineKind, reference: string): string {
  if (kind === 'docker') return reference;
  for (const prefix of ['localhost/', 'docker.io/library/', 'docker.io/']) {
    if (reference.startsWith(prefix)) return reference.slice(prefix.length);
  }
  return reference;
}

export function sameReference(kind: EngineKind, actual: string, expected: string): boolean {
  return canonicalReference(kind, actual) === canonicalReference(kind, expected);
}

/** Podman's image inspect gives the bare hex digest where Docker gives `sha256:<hex>`; exact on Docker. */
export function canonicalImageId(kind: EngineKind, id: string): string {
  return kind === 'podman' ? id.replace(/^sha256:/, '') : id;
}
