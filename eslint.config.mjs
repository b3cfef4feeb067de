// Type-aware lint. `no-floating-promises` is on: every promise is awaited, returned or voided on purpose.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const ONE_MULTI_PICK = [
  { selector: "Property[key.name='canPickMany']", message: 'Use pickMany from src/workbench/multiPick.ts for a multi-pick.' },
  { selector: "AssignmentExpression > MemberExpression.left[property.name='canSelectMany']", message: 'Use pickMany from src/workbench/multiPick.ts for a multi-pick.' },
];
const ONE_FAILURE_REPORT = [
  { selector: "CallExpression[callee.property.name='showErrorMessage']", message: 'Report a failure with reportError or reportFailure from src/workbench/feedback.ts.' },
];

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', 'test-output/**', 'esbuild.js', 'scripts/lib/icon.js', 'eslint.config.mjs', '.dependency-cruiser.cjs', '.berth-state/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // node:test's describe/it return promises the runner itself tracks.
      '@typescript-eslint/no-floating-promises': [
        'error',
        { allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['describe', 'it', 'test', 'suite', 'before', 'after', 'beforeEach', 'afterEach'] }] },
      ],
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-imports': 'off',
    },
  },
  {
    // The engine client is plain Node: the CLI, tests and benchmarks use it without VS Code.
    files: ['src/engine/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: ['vscode'] }] },
  },
  {
    // One multi-pick: workbench/multiPick.ts, where Enter with nothing ticked takes the highlighted item. A plain
    // showQuickPick({ canPickMany }) or a QuickPick's canSelectMany accepts an empty choice and does nothing.
    // One way to report a failure: workbench/feedback.ts logs the detail and offers Show Log (and Retry for an
    // engine that is gone), which a bare showErrorMessage forgets.
    files: ['src/**/*.ts'],
    ignores: ['src/workbench/multiPick.ts', 'src/workbench/feedback.ts'],
    rules: { 'no-restricted-syntax': ['error', ...ONE_MULTI_PICK, ...ONE_FAILURE_REPORT] },
  },
  {
    files: ['src/workbench/multiPick.ts'],
    rules: { 'no-restricted-syntax': ['error', ...ONE_FAILURE_REPORT] },
  },
  {
    files: ['src/workbench/feedback.ts'],
    rules: { 'no-restricted-syntax': ['error', ...ONE_MULTI_PICK] },
  },
  {
    // Unit tests run without VS Code.
    files: ['test/unit/**/*.ts', 'test/engine/**/*.ts', 'bench/**/*.ts'],
    // bench/extension-host.ts (and the phase it bundles) is loaded inside the real extension host, where `vscode` exists.
    ignores: ['bench/extension-host.ts', 'bench/extension-host-follow.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: ['vscode'] }] },
  },
);
