/** The model as plain data, sorted by name: for tests (`berth.internal.modelSnapshot`) and the API. No `vscode` here. */
import { errorMessage } from '../common/errors';
import type { ContainerRecord, ImageRecord } from './records';

export type EngineState = 'connecting' | 'connected' | 'unreachable';

export interface ModelSnapshot {
  state: EngineState;
  reason?: string;
  containers: Array<{ id: string; name: string; state: string; image: string }>;
  images: Array<{ id: string; tags: string[]; containers: number }>;
}

/** What a snapshot reads from the model. */
export interface SnapshotSource {
  readonly state: EngineState;
  readonly lastError: unknown;
  containers(): Iterable<ContainerRecord>;
  images(): Iterable<ImageRecord>;
  containersUsing(key: string): number;
}

export function modelSnapshot(model: SnapshotSource): ModelSnapshot {
  const containers = [...model.containers()]
    .map((record) => ({ id: record.id, name: record.name, state: record.state, image: record.summary.Image }))
    .sort((a, b) => a.name.localeCompare(b.name));
  const images = [...model.images()]
    .map((record) => ({ id: record.id, tags: [...record.tags], containers: model.containersUsing(record.key) }))
    .sort((a, b) => (a.tags[0] ?? a.id).localeCompare(b.tags[0] ?? b.id));
  const snapshot: ModelSnapshot = { state: model.state, containers, images };
  if (model.state === 'unreachable') snapshot.reason = errorMessage(model.lastError);
  return snapshot;
}
