/**
 * Import rules that `npm run lint` enforces (issue 10, item 9). Type-only imports count: a cycle through types
 * still means one side cannot be built or tested without the other.
 */
/** The feature folders: each registers itself from its index.ts; another feature reaches it only through that file. */
const FEATURES = ['containers', 'images', 'logs', 'registries', 'language', 'engineSwitcher', 'files', 'trust', 'volumes', 'prune', 'networks', 'build', 'ports', 'forwards', 'agents'];
const FEATURE_GROUP = `^src/(${FEATURES.join('|')})/`;

/** Every rule is an error: a broken one fails the lint, with no exception. */
function forbid(name, comment, from, to) {
  return { name, severity: 'error', comment, from, to };
}

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    forbid('no-circular', 'No import cycle in src/, type-only ones included.',
      { path: '^src/' },
      { circular: true }),
    forbid('engine-and-common-no-vscode', 'src/engine and src/common are plain Node: the CLI, tests and benchmarks load them without VS Code.',
      { path: '^src/(engine|common)/' },
      { path: '^vscode$' }),
    forbid('common-is-self-contained', 'src/common imports nothing outside itself but Node built-ins.',
      { path: '^src/common/' },
      { pathNot: ['^src/common/', '^node:', '^(fs|path|os|events|util|stream|crypto|timers)(/|$)'], dependencyTypesNot: ['core'] }),
    forbid('engine-imports-engine-and-common', 'src/engine imports only src/engine, src/common and npm packages (undici, ssh2, …).',
      { path: '^src/engine/' },
      { path: '^src/', pathNot: ['^src/engine/', '^src/common/'] }),
    forbid('engine-folder-through-index', 'Outside src/engine, code reaches a subfolder of src/engine only through its index.ts (or src/engine/index.ts).',
      { pathNot: '^src/engine/[^/]+/' },
      { path: '^src/engine/[^/]+/', pathNot: '^src/engine/[^/]+/index\\.ts$' }),
    forbid('engine-folder-to-folder-through-index', 'A subfolder of src/engine reaches another one only through that one\'s index.ts.',
      { path: '^src/engine/([^/]+)/' },
      { path: '^src/engine/[^/]+/', pathNot: ['^src/engine/$1/', '^src/engine/[^/]+/index\\.ts$'] }),
    forbid('engine-folders-below-the-barrel', 'Subfolders of src/engine never import src/engine/index.ts: the top barrel re-exports them.',
      { path: '^src/engine/[^/]+/' },
      { path: '^src/engine/index\\.ts$' }),
    forbid('tools-are-plain-node', 'src/tools (the agent tools) serves the CLI\'s MCP server and the extension alike: no vscode, nothing of the extension.',
      { path: '^src/tools/' },
      { path: ['^vscode$', '^src/'], pathNot: ['^src/tools/', '^src/engine/', '^src/common/'] }),
    forbid('feature-through-index', 'A feature folder imports another feature only through that feature\'s index.ts.',
      { path: `${FEATURE_GROUP}` },
      { path: FEATURE_GROUP, pathNot: ['^src/$1/', `${FEATURE_GROUP}index\\.ts$`] }),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist|out|test-output)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'], extensions: ['.ts', '.js', '.json'] },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
