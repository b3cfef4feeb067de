// The bad-input rows of Attach Node.js Debugger (issue 37), asserted by test/engine/engine/workflows/node-inspector.test.ts
// (the engine client) and test/integration/suite/debug-node.test.ts (the command); part of BAD_INPUT_CASES.
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
];
