/**
 * `berth port-forward CONTAINER [LOCAL:]PORT...`: kubectl's messages and exit statuses over the engine client's port
 * forward. Ctrl-C and SIGTERM/SIGHUP/SIGQUIT end it with status 0; the container stopping ends it with a message and
 * status 1. Nothing polls: berth waits on the relay's event stream and the signals.
 */
import { forwardPorts, parsePortForwardSpec, type RelayEnd } from '../../engine';
import { EXIT_FAILURE } from '../failure';
import type { CommandDeps } from '../io';
import type { PortForwardCommandOptions } from '../options';

export async function portForwardCommand(options: PortForwardCommandOptions, { io, signal, signals, client }: CommandDeps): Promise<number> {
  // Every port is read before anything is opened, so a typo never leaves half the forwards running.
  const specs = options.ports.map(parsePortForwardSpec);
  const session = await forwardPorts(client(), options.container, specs, {
    helperImage: options.helperImage,
    signal,
    onConnection: (forward) => io.stdout.write(`Handling connection for ${forward.localPort}\n`),
    onConnectionError: (error, forward) => io.stderr.write(`berth: an error occurred forwarding ${forward.localPort} -> ${forward.containerPort}: ${error.message}\n`),
    log: io.env.BERTH_DEBUG ? (line) => io.stderr.write(`berth: debug: ${line}\n`) : undefined,
  });
  for (const forward of session.forwards) io.stdout.write(`Forwarding from ${forward.address} -> ${forward.containerPort}\n`);
  if (session.relay.throughHelper) io.stderr.write(`berth: ${session.relay.containerName} has no nc: connections go through helper container ${session.relay.helperId?.slice(0, 12) ?? ''}\n`);
  let stopSignals: () => void = () => undefined;
  const stopped = new Promise<'stopped'>((resolve) => {
    if (signal.aborted) resolve('stopped');
    signal.addEventListener('abort', () => resolve('stopped'), { once: true });
    stopSignals = signals.forward(() => resolve('stopped'));
  });
  let outcome: RelayEnd | 'stopped';
  try {
    outcome = await Promise.race([stopped, session.ended]);
  } finally {
    stopSignals();
    await session.close();
  }
  if (outcome === 'stopped' || outcome.reason === 'closed') return 0;
  io.stderr.write(`berth: ${outcome.message}: lost the forward\n`);
  return EXIT_FAILURE;
}
