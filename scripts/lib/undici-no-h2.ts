// Bundled in place of undici's lib/dispatcher/client-h2.js in the CLI (see esbuild.js). That module loads node:http2
// as soon as undici is loaded (≈ 15 ms of every `berth` call), for HTTP/2 that berth never asks for: it does not set
// allowH2, so a connection never negotiates h2 and this is never called.
export = function connectH2(): never {
  throw new Error('berth speaks HTTP/1.1 to the engine; HTTP/2 is not bundled');
};
