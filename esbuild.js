// Bundles the extension and the CLI. `vscode` stays external; type checking is `npm run typecheck`.
const esbuild = require('esbuild');
const path = require('node:path');
const { writeFileSync } = require('node:fs');
const { renderIcon } = require('./scripts/lib/icon.js');

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

/** undici's HTTP/2 client, replaced in the CLI by a stub: berth never negotiates h2 (scripts/lib/undici-no-h2.ts). */
const withoutHttp2 = {
  name: 'undici-without-http2',
  setup(build) {
    build.onResolve({ filter: /[\\/]client-h2(\.js)?$/ }, (args) =>
      args.importer.includes(`undici${path.sep}lib`) ? { path: path.resolve(__dirname, 'scripts/lib/undici-no-h2.ts') } : undefined,
    );
  },
};

/**
 * Built-ins undici requires when it loads but the CLI barely uses, replaced in the CLI by what it does use: node:http
 * for its default header limit (scripts/lib/undici-without-http.ts), node:assert for invariants that fail only when
 * undici itself is wrong (scripts/lib/undici-lazy-assert.ts). Compiling those built-ins is ≈ 9 ms of every call.
 */
const undiciLightBuiltIns = {
  name: 'undici-light-built-ins',
  setup(build) {
    const stubs = { 'node:http': 'scripts/lib/undici-without-http.ts', 'node:assert': 'scripts/lib/undici-lazy-assert.ts' };
    build.onResolve({ filter: /^node:(http|assert)$/ }, (args) =>
      args.importer.includes(`undici${path.sep}lib`) ? { path: path.resolve(__dirname, stubs[args.path]) } : undefined,
    );
  },
};

/**
 * undici's HTTP parser (llhttp, WebAssembly) as files beside the CLI's bundle instead of base64 text inside it: the
 * text of both builds made 20 % of the bundle every call reads, and the one that runs sat in the code cache as a
 * string. The stand-in reads the binary that undici's own module would have decoded.
 */
const llhttpApart = (outdir) => ({
  name: 'llhttp-apart',
  setup(build) {
    build.onResolve({ filter: /[\\/]llhttp(_simd)?-wasm\.js$/ }, (args) =>
      args.importer.includes(`undici${path.sep}lib`) ? { path: path.basename(args.path, '-wasm.js'), namespace: 'llhttp-apart' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'llhttp-apart' }, (args) => ({
      contents: `module.exports = require('node:fs').readFileSync(require('node:path').join(__dirname, ${JSON.stringify(`${args.path}.wasm`)}));`,
      loader: 'js',
    }));
    build.onEnd(() => {
      for (const name of ['llhttp', 'llhttp_simd']) {
        writeFileSync(path.join(outdir, `${name}.wasm`), require(`undici/lib/llhttp/${name}-wasm.js`));
      }
    });
  },
});

/** `berth mcp`'s server stays a bundle of its own (mcp.js beside the CLI's): the MCP SDK costs other commands nothing. */
const mcpServerApart = {
  name: 'mcp-server-apart',
  setup(build) {
    build.onResolve({ filter: /[\\/]tools[\\/]mcpServer(\.js)?$/ }, () => ({ path: './mcp.js', external: true }));
  },
};

/**
 * src/cli.ts loads src/cli/main.ts (the parser, the commands, the engine client) from a bundle of its own: compiling
 * that 600 kB is most of a short command's start, and `berth --version` needs none of it.
 */
const cliMainApart = {
  name: 'cli-main-apart',
  setup(build) {
    build.onResolve({ filter: /^\.\/cli\/main(\.js)?$/ }, (args) =>
      args.importer === path.resolve(__dirname, 'src/cli.ts') ? { path: './cli-main.js', external: true } : undefined,
    );
  },
};

/**
 * The CLI's bundles. Its launcher runs `node -- cli.js ARGS`: Node 20 reads `--env-file` anywhere on its command line,
 * even after the script, so without `--` berth's own `run --env-file` would go to Node (npm's Windows shims follow
 * `env -S` as well). The engine tests and `npm run bench:cli` build them with `node esbuild.js --cli-outdir=DIR`.
 */
const cli = (outdir) => [
  { ...common, entryPoints: ['src/cli.ts'], outfile: `${outdir}/cli.js`, banner: { js: '#!/usr/bin/env -S node --' }, plugins: [cliMainApart] },
  { ...common, entryPoints: ['src/cli/main.ts'], outfile: `${outdir}/cli-main.js`, plugins: [withoutHttp2, undiciLightBuiltIns, llhttpApart(outdir), mcpServerApart] },
  { ...common, entryPoints: ['src/tools/mcpServer.ts'], outfile: `${outdir}/mcp.js`, plugins: [withoutHttp2] },
];

const cliOutdir = process.argv.find((arg) => arg.startsWith('--cli-outdir='))?.slice('--cli-outdir='.length);

const builds = cliOutdir !== undefined ? cli(cliOutdir).map((options) => ({ ...options, logLevel: 'warning' })) : [
  { ...common, entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'] },
  ...cli('dist'),
  // The language client is loaded only when a Dockerfile or Compose file opens, so it stays out of the activation bundle.
  { ...common, entryPoints: ['src/language/languageFeatures.ts'], outfile: 'dist/language.js', external: ['vscode'] },
  // Language servers: separate processes, bundled so the extension works offline.
  { ...common, entryPoints: ['src/language/dockerfileServer.ts'], outfile: 'dist/server/dockerfile-language-server.js' },
  { ...common, entryPoints: ['src/language/composeServer.ts'], outfile: 'dist/server/compose-language-server.js' },
  // The Container Stats page: uPlot and its stylesheet bundled in, so the webview loads nothing from the network.
  { ...common, platform: 'browser', target: 'chrome114', format: 'iife', entryPoints: ['src/stats/webview/main.ts'], outfile: 'dist/stats-webview.js' },
  { ...common, platform: 'browser', entryPoints: ['src/stats/webview/bundle.css'], outfile: 'dist/stats-webview.css', sourcemap: false },
];

async function main() {
  // The Marketplace icon is made from media/berth.svg by every extension build (scripts/lib/icon.js).
  if (cliOutdir === undefined) await renderIcon(__dirname, path.join(__dirname, 'dist', 'icon.png'));
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
