/**
 * VS Code's JavaScript debugger ends an attached program by killing the process tree of the PID the program reports
 * (`process.pid`) on the machine VS Code runs on. Inside a container that PID belongs to the container's namespace:
 * on the host it names another process (PID 1 is the host's init, whose tree is everything). So a session Berth
 * attached to a container never asks the debugger to terminate its debuggee: `terminate` becomes a `disconnect`, and
 * every `disconnect` keeps the debuggee running. Stopping such a session detaches; the app in the container runs on.
 */

/** The part of a Debug Adapter Protocol message this guard reads and rewrites. */
export interface ProtocolMessage {
  type?: unknown;
  command?: unknown;
  arguments?: unknown;
}

/** Rewrites MESSAGE in place so that it cannot terminate the debuggee; true when it changed it. */
export function keepDebuggeeRunning(message: ProtocolMessage): boolean {
  if (message.type !== 'request') return false;
  if (message.command === 'terminate') {
    message.command = 'disconnect';
    message.arguments = { terminateDebuggee: false };
    return true;
  }
  if (message.command !== 'disconnect') return false;
  const given = typeof message.arguments === 'object' && message.arguments !== null ? (message.arguments as Record<string, unknown>) : {};
  if (given.terminateDebuggee === false) return false;
  message.arguments = { ...given, terminateDebuggee: false };
  return true;
}
