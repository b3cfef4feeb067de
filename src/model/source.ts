/**
 * The slice of the engine client the model needs. `EngineClient` satisfies it; unit tests use a small
 * in-memory object with the same methods.
 */
import type { ContainerInspect, ContainerSummary, EngineEvent, ImageInspect, ImageSummary, ListFilters } from '../engine';

export interface ModelSource {
  listContainers(options: { all?: boolean; filters?: ListFilters; signal?: AbortSignal }): Promise<ContainerSummary[]>;
  listImages(options: { signal?: AbortSignal }): Promise<ImageSummary[]>;
  inspectImage(name: string, options: { signal?: AbortSignal }): Promise<ImageInspect>;
  /**
   * How the model fetches one touched container (answered by id; a list filtered by id scans them all). It is
   * also the barrier after `die`: it returns once the engine has recorded the new state.
   */
  inspectContainer(id: string, options: { signal?: AbortSignal }): Promise<ContainerInspect>;
  /** `since` is `SEC.NANOS`. The iterable ends when the engine closes the stream, and throws when it breaks. */
  events(options: { since?: string; filters?: ListFilters; signal?: AbortSignal }): AsyncIterable<EngineEvent>;
}
