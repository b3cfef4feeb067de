// The bad-input rows of port forwarding (issue 37), asserted by test/engine/engine/workflows/port-forward.test.ts (the
// engine client) and test/engine/cli/port-forward.test.ts (the CLI); part of BAD_INPUT_CASES.
import type { BadInputCase } from '../bad-input-cases';

const PORT_HINT = 'Give [LOCAL:]PORT with ports from 1 to 65535, e.g. 8080, 9000:8080, or :8080 for a free local port';

export const FORWARD_BAD_INPUT_CASES: readonly BadInputCase[] = [
  {
    id: 'forward-port-range',
    category: 'Port forwarding',
    action: 'port-forward / Forward Port…',
    input: '70000',
    kind: 'error',
    errorKind: 'bad-request',
    message: `The container port 70000 is outside 1–65535. ${PORT_HINT}`,
  },
  {
    id: 'forward-port-zero',
    category: 'Port forwarding',
    action: 'port-forward / Forward Port…',
    input: '8080:0',
    kind: 'error',
    errorKind: 'bad-request',
    message: `The container port 0 is outside 1–65535. ${PORT_HINT}`,
  },
  {
    id: 'forward-port-word',
    category: 'Port forwarding',
    action: 'port-forward / Forward Port…',
    input: 'http',
    kind: 'error',
    errorKind: 'bad-request',
    message: `The container port "http" is not a number. ${PORT_HINT}`,
  },
  {
    id: 'forward-local-in-use',
    category: 'Port forwarding',
    action: 'port-forward / Forward Port…',
    input: '<port>:80, with <port> already taken on 127.0.0.1',
    kind: 'error',
    errorKind: 'conflict',
    message: 'Local port <port> is already in use on 127.0.0.1. Choose another local port, or 0 (or :PORT) for a free one',
  },
  {
    id: 'forward-not-running',
    category: 'Port forwarding',
    action: 'port-forward / Forward Port…',
    input: 'a container that is created but not started',
    kind: 'error',
    errorKind: 'conflict',
    message: 'Container <name> is not running (created). Start it, then forward the port again',
  },
  {
    id: 'forward-no-helper-image',
    category: 'Port forwarding',
    action: 'port-forward / Forward Port…',
    input: 'a container without nc, the helper image not on the engine',
    kind: 'error',
    errorKind: 'not-found',
    message:
      'Container <name> has no nc, and the helper image <image> is not on this engine. Berth never pulls it: load a small image with busybox nc and set berth.files.helperImage to it',
  },
  {
    id: 'forward-nothing-listens',
    category: 'Port forwarding',
    action: 'a connection to a forward',
    input: 'a container port nothing listens on',
    kind: 'error',
    errorKind: 'server',
    message:
      "Nothing answered on port <port> in container <name>: nc: can't connect to remote host (127.0.0.1): Connection refused. Check that the program in the container listens on port <port> (on 127.0.0.1 or 0.0.0.0)",
  },
];
