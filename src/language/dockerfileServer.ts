// esbuild entry for dist/server/dockerfile-language-server.js: the Dockerfile language server, bundled so
// the extension works offline. It reads `--node-ipc` from argv, which the language client passes.
import 'dockerfile-language-server-nodejs/lib/server';
