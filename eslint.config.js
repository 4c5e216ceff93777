// ESLint, flat config: typescript-eslint's type-aware recommended rules over every TypeScript
// file (sources with their package's tsconfig; tests, test/, bench/ and scripts with
// tsconfig.tests.json), and the plain recommended rules over the JavaScript files (bundle
// scripts, launchers). `npm run lint` runs it with `prettier --check`.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const NODE_GLOBALS = Object.fromEntries(
  [
    'process',
    'console',
    'Buffer',
    'URL',
    'TextEncoder',
    'TextDecoder',
    'setTimeout',
    'clearTimeout',
    'setImmediate',
    'clearImmediate',
    'setInterval',
    'clearInterval',
    'performance',
    'structuredClone',
    'globalThis',
  ].map((name) => [name, 'readonly']),
);
const COMMONJS_GLOBALS = {
  require: 'readonly',
  module: 'writable',
  exports: 'writable',
  __dirname: 'readonly',
  __filename: 'readonly',
};

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/generated/**',
      'fixtures/**',
      'examples/**',
      '**/test/fixtures/**',
      '.bench-work/**',
      'test-results/**',
      'coverage/**',
      // The committed one-file CLI (npm run gen builds it from the validator's sources).
      'hooks/**',
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        project: [
          './packages/*/tsconfig.json',
          './tsconfig.tests.json',
          './packages/vscode-extension/test/tsconfig.json',
          './site/tsconfig.json',
        ],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // Tuned (see the commit that added this file):
      // `_`-prefixed parameters and variables are deliberately unused (feature signatures, catch-alls).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      // Untrusted input arrives as `unknown` and is narrowed; the remaining `any`s are JSON-RPC
      // params and parsed JSON in tests. The unsafe-* family flags every use of them, not bugs.
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // Template literals quote numbers and unknown values in messages on purpose.
      '@typescript-eslint/restrict-template-expressions': 'off',
      // Non-null assertions follow checks TypeScript cannot see (noUncheckedIndexedAccess).
      '@typescript-eslint/no-non-null-assertion': 'off',
      // Features and handlers share one signature whether or not they await.
      '@typescript-eslint/require-await': 'off',
      // Messages quote whatever the user wrote: String() of an unknown scalar is deliberate.
      '@typescript-eslint/no-base-to-string': 'off',
      // `unknown | Shape` unions document the expected shape of untrusted input.
      '@typescript-eslint/no-redundant-type-constituents': 'off',
      // The forbidden-character rule and ANSI-colour tests match control characters on purpose.
      'no-control-regex': 'off',
      // Doc comments write a zero-width space inside `**/` so the comment does not end there.
      'no-irregular-whitespace': ['error', { skipComments: true }],
      // An options interface named for the public API may extend one other and add nothing yet.
      '@typescript-eslint/no-empty-object-type': ['error', { allowInterfaces: 'with-single-extends' }],
      // Node's http and stream handlers ignore a returned promise; its rejection is handled inside.
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
    },
  },
  {
    // Tests read JSON-RPC payloads and parsed JSON, typed `any` where the protocol is.
    files: ['packages/*/test/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: NODE_GLOBALS },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { ...NODE_GLOBALS, ...COMMONJS_GLOBALS } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
