// esbuild entry for dist/server/compose-language-server.js: Microsoft's Compose language service 0.4.0 (the
// last release that runs on node 20), bundled so the extension works offline.
import '@microsoft/compose-language-service/lib/server';
