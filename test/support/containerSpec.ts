// The one place a test container's create body is written. It owns `NetworkMode: 'none'` (the test engines run with
// `--bridge=none`, and no test container may reach a network) and the cleanup label, so a caller cannot forget either.
// Plain data: used by engine tests, integration fixtures, e2e and benchmarks alike.
import type { ContainerCreateBody } from '../../src/engine';
import { cleanupLabel } from './engines';

/** What a test adds to the body. Image, Cmd and HostConfig.NetworkMode are the builder's: they are set over it. */
export type ContainerSpecExtra = Partial<ContainerCreateBody>;

/**
 * A create body for IMAGE running CMD (the image's default when absent): EXTRA's labels plus `berth.test=1`,
 * EXTRA's HostConfig with NetworkMode `none`. Neither can be overridden.
 */
export function containerSpec(image: string, cmd?: readonly string[], extra: ContainerSpecExtra = {}): ContainerCreateBody {
  return {
    ...extra,
    Image: image,
    ...(cmd ? { Cmd: [...cmd] } : {}),
    Labels: { ...extra.Labels, ...cleanupLabel },
    HostConfig: { ...extra.HostConfig, NetworkMode: 'none' },
  };
}
