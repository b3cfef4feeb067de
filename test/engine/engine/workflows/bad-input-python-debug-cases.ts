// The bad-input rows of debugging Python in a container (issue 37), asserted by
// test/engine/engine/workflows/debugpy-server.test.ts (the engine client) and
// test/integration/suite/debug-python.test.ts (Attach Python Debugger and the berth-python configuration, in a VS
// Code without the Python Debugger extension) and test/unit/debugging/pythonConfiguration.test.ts (a launch.json
// configuration that cannot run); part of BAD_INPUT_CASES. A container that is not running gets the
// Node.js row's message (debug-not-running).
import type { BadInputCase } from '../bad-input-cases';

export const PYTHON_DEBUG_BAD_INPUT_CASES: readonly BadInputCase[] = [
  {
    id: 'debug-no-debugpy',
    category: 'Debugging',
    action: 'Attach Python Debugger',
    input: 'a running container with no python process started with debugpy --listen',
    kind: 'error',
    errorKind: 'not-found',
    message: 'No Python process in container <name> listens with debugpy. Start the app with python3 -m debugpy --listen 0.0.0.0:5678 app.py, then attach the debugger',
  },
  {
    id: 'debug-python-extension-missing',
    category: 'Debugging',
    action: 'Attach Python Debugger / a berth-python launch',
    input: "a VS Code without the Python Debugger extension (ms-python.debugpy), as code-server's",
    kind: 'error',
    errorKind: 'not-found',
    message:
      "VS Code's Python Debugger extension (ms-python.debugpy) is not installed, so Berth cannot attach to debugpy. Install it (Install Python Debugger), then start debugging again. Nothing was started",
  },
  {
    id: 'debug-python-no-image',
    category: 'Debugging',
    action: 'a berth-python launch',
    input: 'a configuration named <config> without "image"',
    kind: 'error',
    errorKind: 'bad-request',
    message: 'The berth-python configuration "<config>" has no image. Set "image" in launch.json, then start debugging again',
  },
  {
    id: 'debug-python-bad-port',
    category: 'Debugging',
    action: 'a berth-python launch',
    input: '"port": 70000',
    kind: 'error',
    errorKind: 'bad-request',
    message: 'The berth-python configuration\'s port 70000 is not a port. Give a whole number from 1 to 65535 as "port"',
  },
];
