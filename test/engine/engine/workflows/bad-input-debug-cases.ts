// The bad-input rows of Attach Node.js Debugger and the berth-node configuration (issue 37), asserted by
// test/engine/engine/workflows/node-inspector.test.ts and node-launch.test.ts (the engine client) and
// test/integration/suite/debug-node.test.ts and debug-launch.test.ts (the workbench); part of BAD_INPUT_CASES.
import type { BadInputCase } from '../bad-input-cases';

export const DEBUG_BAD_INPUT_CASES: readonly BadInputCase[] = [
  {
    id: 'debug-not-running',
    category: 'Debugging',
    action: 'Attach Node.js Debugger',
    input: 'a container that is created but not started',
    kind: 'error',
    errorKind: 'conflict',
    message: 'Container <name> is not running. Start it, then attach the debugger',
  },
  {
    id: 'debug-no-node',
    category: 'Debugging',
    action: 'Attach Node.js Debugger',
    input: 'a running container with no node process',
    kind: 'error',
    errorKind: 'not-found',
    message: 'No Node.js process runs in container <name>. Start the app with node (for example node --inspect=9229 app.js), then attach the debugger',
  },
  {
    id: 'debug-launch-no-dockerfile',
    category: 'Debugging',
    action: 'Start debugging a berth-node configuration',
    input: 'a dockerfile attribute naming a file that does not exist',
    kind: 'error',
    errorKind: 'not-found',
    message:
      'The Dockerfile <path> does not exist in <folder>. Correct the dockerfile attribute of the berth-node configuration (a path relative to the workspace folder), or remove it and name an image',
  },
  {
    id: 'debug-launch-port',
    category: 'Debugging',
    action: 'Start debugging a berth-node configuration',
    input: 'an inspectorPort outside 1-65535',
    kind: 'error',
    errorKind: 'bad-request',
    message: 'Inspector port <port> is not a port. Set inspectorPort to a number from 1 to 65535',
  },
  {
    id: 'debug-launch-exited',
    category: 'Debugging',
    action: 'Start debugging a berth-node configuration',
    input: 'a program that exits at once (here: a script that does not exist)',
    kind: 'error',
    errorKind: 'server',
    message:
      "The app exited with status <status> before its inspector answered. Check the program and its arguments in the berth-node configuration (the container's logs say more), then start debugging again",
  },
  {
    id: 'debug-service-not-running',
    category: 'Debugging',
    action: 'Debug Service… (Compose)',
    input: 'a service of the project that has no running container',
    kind: 'error',
    errorKind: 'not-found',
    message: 'Service <service> of Compose project <project> is not running. Choose one of: <services>',
  },
];
