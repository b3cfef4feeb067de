/** `berth port-forward`, shaped like `kubectl port-forward`. */
import type { PortForwardCommandOptions } from './options';
import { declareCommand, valueFlag } from './spec';
import { nonEmpty } from './values';

export const forwardCommands = {
  'port-forward': declareCommand({
    usage: 'berth port-forward [OPTIONS] CONTAINER [LOCAL:]PORT [[LOCAL:]PORT...]',
    summary: "Forward local ports to a container's ports, without publishing them",
    details:
      'Listens on 127.0.0.1:LOCAL (LOCAL defaults to PORT; `:PORT` or `0:PORT` takes a free port) and carries each connection ' +
      "into the container's own network namespace through the engine API, so it works for `--network none` containers and remote engines. " +
      'A container without `nc` is reached through a helper container made from an image already on the engine (never pulled). ' +
      'Prints "Forwarding from 127.0.0.1:LOCAL -> PORT" and "Handling connection for LOCAL" as kubectl does. ' +
      'Ctrl-C or SIGTERM stops it with status 0; the container stopping ends it with status 1.',
    positionals: { min: 2, max: Infinity },
    flags: {
      helperImage: valueFlag('helper-image', undefined, 'IMAGE', 'The image for the helper when the container has no nc (default: the smallest image on the engine)'),
    },
    build: (flags, positionals): PortForwardCommandOptions => {
      const [container, ...ports] = positionals as [string, ...string[]];
      return { container, ports, helperImage: nonEmpty(flags.helperImage, '--helper-image') };
    },
    run: async (options, deps): Promise<number> => (await import('./actions/portForward.js')).portForwardCommand(options, deps),
  }),
} as const;
