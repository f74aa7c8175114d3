// ESLint (flat config, `npx eslint .`, a stage of `npm test`): typescript-eslint's recommended
// rules, plus the house's layering rules — the pure core does no I/O and knows no other package.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const nodeGlobals = Object.fromEntries(
  [
    'console',
    'process',
    'URL',
    'fetch',
    'performance',
    'setTimeout',
    'clearTimeout',
    'setInterval',
    'clearInterval',
    'Buffer',
    'AbortController',
    'AbortSignal',
  ].map((g) => [g, 'readonly']),
);

export default tseslint.config(
  {
    ignores: [
      // What the build and the runs write (.gitignore), and the docs' rendered pages.
      '**/dist/**',
      '**/dist-report/**',
      '**/.types/**',
      'packages/player-demo/public/**',
      '**/node_modules/**',
      'e2e/scratch/**',
      'coverage/**',
      'playwright-report/**',
      'results/**',
      'test-results/**',
      'e2e/test-results/**',
      'docs/**',
      '**/*.d.ts',
      '.ethle-data/**',
      // MPEG-TS media samples that share TypeScript's file extension.
      'packages/live-origin/media/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module', globals: nodeGlobals },
    rules: {
      // A leading underscore marks a binding kept on purpose (a destructured field left out, a callback's unused argument).
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
      // Input validation matches control characters on purpose (request targets, beacon fields).
      'no-control-regex': 'off',
      // A binding read by a closure before its one assignment (a server's connections, a worker's edge) stays `let`.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
    },
  },
  {
    // Tests and Playwright specs reach into players' and pages' untyped internals (page.evaluate).
    // The probe's adapters take hls.js, dash.js and Shaka instances without depending on their types
    // (any version the page loaded).
    files: ['**/test/**', 'e2e/**', 'scripts/test/**', 'packages/qoe-probe/src/adapters/**', 'packages/qoe-probe/src/attachProbe.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // The core runs unchanged in Node and in a service worker: no Node built-ins, no I/O libraries,
    // no other package of ours (they depend on it, not it on them).
    files: ['packages/ethle-core/src/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^node:', message: 'ethle-core is pure: no Node built-ins (it also runs in a service worker).' },
            {
              regex: '^(undici|pino|prom-client|fs|http|https|net|os|path|child_process)$',
              message: 'ethle-core is pure: I/O lives in edge-node or ethle-sw.',
            },
            { regex: '^@ethle/', message: 'ethle-core depends on no other package of ours.' },
          ],
        },
      ],
    },
  },
  {
    // Packages meet through each other's public entry (`@ethle/x`), never through another package's files.
    files: ['packages/*/src/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^(\\.\\./)+(\\.\\./)?[a-z-]+/src/', message: 'import another package by its name (@ethle/…), not by its files' },
            { regex: '^@ethle/[^/]+/src', message: 'import the package entry, not its src/' },
          ],
        },
      ],
    },
  },
);
