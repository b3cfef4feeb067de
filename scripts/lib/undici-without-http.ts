// Bundled in place of node:http for undici's modules in the CLI (see esbuild.js). undici reads two things of it when
// it loads, and node:http brings its client, server, agent and outgoing-message modules (≈ 6 ms of every `berth`
// call) for a client that speaks HTTP over its own sockets:
// - `maxHeaderSize`, the default limit on response headers: node:http's is the `--max-http-header-size` option,
//   16 KiB unless given (Node's documented default). When the option is given, node:http itself is asked.
// - `IncomingMessage`, which undici compares with the class of a stream it destroys, to detach a server request's
//   socket first. The CLI never hands undici a server request (its bodies are its own streams), so a class nothing
//   is made of answers the same.
/* eslint-disable @typescript-eslint/no-require-imports -- node:http is loaded only when its option is given */
const NODE_DEFAULT_MAX_HEADER_SIZE = 16 * 1024;

function optionGiven(): boolean {
  return [...process.execArgv, process.env.NODE_OPTIONS ?? ''].some((argument) => argument.includes('--max-http-header-size'));
}

export const maxHeaderSize: number = optionGiven() ? (require('node:http') as typeof import('node:http')).maxHeaderSize : NODE_DEFAULT_MAX_HEADER_SIZE;

export class IncomingMessage {}
