import type { LogDeps, SessionsDeps } from '../workbench/deps';

/** What the Prune feature needs: the engine sessions (it prunes the current engine) and the log. */
export type PruneDeps = SessionsDeps & LogDeps;
