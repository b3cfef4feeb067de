/**
 * The labels of the containers Berth creates for its own work (a volume's file browser, a changed file's image
 * version, a port forward into a namespace without `nc`). They are not the user's containers: the views never show
 * them and a prune never lists them.
 */
import type { ContainerSummary } from '../connection';

/**
 * The label of the helper containers Berth creates (never starts) to browse a volume's files: the Volumes view does
 * not count them as users of the volume.
 */
export const VOLUME_HELPER_LABEL = 'berth.volume-helper';

/** Marks the helper containers that read a changed file's image version, so that one left behind can be found. */
export const IMAGE_SIDE_HELPER_LABEL = 'berth.changes.image-side';

/** Marks a port-forward helper container; the value is the id of the container whose namespace it joins. */
export const FORWARD_HELPER_LABEL = 'berth.forward.helper';

const BERTH_HELPER_LABELS: readonly string[] = [VOLUME_HELPER_LABEL, IMAGE_SIDE_HELPER_LABEL, FORWARD_HELPER_LABEL];

/** Whether a container is one of Berth's volume helpers: never counted as a user of its volume. */
export function isVolumeHelper(container: Pick<ContainerSummary, 'Labels'>): boolean {
  return container.Labels?.[VOLUME_HELPER_LABEL] !== undefined;
}

/** Whether a container is one of Berth's own helpers of any kind: never shown or counted as the user's. */
export function isBerthHelper(container: Pick<ContainerSummary, 'Labels'>): boolean {
  const labels = container.Labels;
  return labels !== null && labels !== undefined && BERTH_HELPER_LABELS.some((label) => labels[label] !== undefined);
}

/** The user's containers: a listing without Berth's own helpers. */
export function withoutBerthHelpers<T extends Pick<ContainerSummary, 'Labels'>>(containers: T[]): T[] {
  return containers.filter((container) => !isBerthHelper(container));
}
