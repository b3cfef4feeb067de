// Bundles the extension and the CLI. `vscode` stays external; type checking is `npm run typecheck`.
const esbuild = require('esbuild');

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

/** @type {import('esbuild').BuildOptions} */
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: !production,
  minify: production,
  logLevel: 'info',
  legalComments: 'none',
};

const builds = [
  { ...common, entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'] },
  { ...common, entryPoints: ['src/cli.ts'], outfile: 'dist/cli.js', banner: { js: '#!/usr/bin/env node' } },
  // The language client is loaded only when a Dockerfile or Compose file opens, so it stays out of the activation bundle.
  { ...common, entryPoints: ['src/language/languageFeatures.ts'], outfile: 'dist/language.js', external: ['vscode'] },
  // Language servers: separate processes, bundled so the extension works offline.
  { ...common, entryPoints: ['src/language/dockerfileServer.ts'], outfile: 'dist/server/dockerfile-language-server.js' },
  { ...common, entryPoints: ['src/language/composeServer.ts'], outfile: 'dist/server/compose-language-server.js' },
];

async function main() {
  if (watch) {
    for (const options of builds) await (await esbuild.context(options)).watch();
    return;
  }
  await Promise.all(builds.map((options) => esbuild.build(options)));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
