// Type-aware lint. `no-floating-promises` is on: every promise is awaited, returned or voided on purpose.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

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
    // Unit tests run without VS Code.
    files: ['test/unit/**/*.ts', 'test/engine/**/*.ts', 'bench/**/*.ts'],
    // bench/extension-host.ts is loaded inside the real extension host, where `vscode` exists.
    ignores: ['bench/extension-host.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: ['vscode'] }] },
  },
);
