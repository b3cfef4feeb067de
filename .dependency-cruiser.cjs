/**
 * Import rules that `npm run lint` enforces (issue 10, item 9). Type-only imports count: a cycle through types
 * still means one side cannot be built or tested without the other.
 */
/** The feature folders: each registers itself from its index.ts; another feature reaches it only through that file. */
const FEATURES = ['containers', 'images', 'logs', 'registries', 'language', 'engineSwitcher', 'files', 'trust', 'volumes', 'prune', 'networks', 'build', 'ports', 'forwards', 'agents'];
const FEATURE_GROUP = `^src/(${FEATURES.join('|')})/`;

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import cycle in src/, type-only ones included.',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'engine-and-common-no-vscode',
      severity: 'error',
      comment: 'src/engine and src/common are plain Node: the CLI, tests and benchmarks load them without VS Code.',
      from: { path: '^src/(engine|common)/' },
      to: { path: '^vscode$' },
    },
    {
      name: 'common-is-self-contained',
      severity: 'error',
      comment: 'src/common imports nothing outside itself but Node built-ins.',
      from: { path: '^src/common/' },
      to: { pathNot: ['^src/common/', '^node:', '^(fs|path|os|events|util|stream|crypto|timers)(/|$)'], dependencyTypesNot: ['core'] },
    },
    {
      name: 'engine-imports-engine-and-common',
      severity: 'error',
      comment: 'src/engine imports only src/engine, src/common and npm packages (undici, ssh2, …).',
      from: { path: '^src/engine/' },
      to: { path: '^src/', pathNot: ['^src/engine/', '^src/common/'] },
    },
    {
      name: 'engine-folder-through-index',
      severity: 'error',
      comment: 'Outside src/engine, code reaches a subfolder of src/engine only through its index.ts (or src/engine/index.ts).',
      from: { pathNot: '^src/engine/[^/]+/' },
      to: { path: '^src/engine/[^/]+/', pathNot: '^src/engine/[^/]+/index\\.ts$' },
    },
    {
      name: 'engine-folder-to-folder-through-index',
      severity: 'error',
      comment: 'A subfolder of src/engine reaches another one only through that one\'s index.ts.',
      from: { path: '^src/engine/([^/]+)/' },
      to: { path: '^src/engine/[^/]+/', pathNot: ['^src/engine/$1/', '^src/engine/[^/]+/index\\.ts$'] },
    },
    {
      name: 'engine-folders-below-the-barrel',
      severity: 'error',
      comment: 'Subfolders of src/engine never import src/engine/index.ts: the top barrel re-exports them.',
      from: { path: '^src/engine/[^/]+/' },
      to: { path: '^src/engine/index\\.ts$' },
    },
    {
      name: 'tools-are-plain-node',
      severity: 'error',
      comment: 'src/tools (the agent tools) serves the CLI\'s MCP server and the extension alike: no vscode, nothing of the extension.',
      from: { path: '^src/tools/' },
      to: { path: ['^vscode$', '^src/'], pathNot: ['^src/tools/', '^src/engine/', '^src/common/'] },
    },
    {
      name: 'feature-through-index',
      severity: 'error',
      comment: 'A feature folder imports another feature only through that feature\'s index.ts.',
      from: { path: `${FEATURE_GROUP}` },
      to: { path: FEATURE_GROUP, pathNot: ['^src/$1/', `${FEATURE_GROUP}index\\.ts$`] },
    },
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
