import type { EngineSession } from '../model/session';
import type { EngineSnapshot, EngineSummary } from '../workbench/core';
import type { CoreDeps } from '../workbench/deps';

/** What the Engines feature needs besides the core: choosing, rediscovering and describing engines. */
export interface EnginesDeps extends CoreDeps {
  /** Makes an engine current and remembers it for this workspace. */
  switchEngine(key: string): Promise<EngineSession | undefined>;
  /** Reads the settings and the engine sources again (contexts and Podman sockets may have appeared since). */
  rediscoverEngines(): void;
  snapshot(engine?: string): EngineSnapshot;
  engineSummaries(): EngineSummary[];
  /** Selects an engine's row in the Containers view: whether it is selected then; undefined when it has none (one engine). */
  revealEngine(engine: string): Promise<boolean> | undefined;
}
