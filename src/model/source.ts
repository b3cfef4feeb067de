/**
 * The slice of the engine client the model needs, flat, so that unit tests can stand in for the engine with a small
 * in-memory object; `modelSourceOf` gives an `EngineClient` this shape.
 */
import type { ContainerInspect, ContainerSummary, EngineClient, EngineEvent, ImageInspect, ImageSummary, ListFilters } from '../engine';

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

/** The model's slice of a client: each method answered by the client's group. */
export function modelSourceOf(client: EngineClient): ModelSource {
  return {
    listContainers: (options) => client.containers.list(options),
    listImages: (options) => client.images.list(options),
    inspectImage: (name, options) => client.images.inspect(name, options),
    inspectContainer: (id, options) => client.containers.inspect(id, options),
    events: (options) => client.system.events(options),
  };
}
