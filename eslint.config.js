// Lint for the whole tree: ESLint's recommended rules, typescript-eslint, React and the hooks rules
// for the front end, Node globals for the server and scripts. Formatting is Prettier's job.
import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import react from 'eslint-plugin-react'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import prettier from 'eslint-config-prettier'

export default tseslint.config(
  {
    ignores: [
      '.tools/**',
      'node_modules/',
      'dist/',
      'data/',
      'storybook-static/',
      'test-results/',
      'playwright-report/',
      'tests/e2e/.data/',
      'tests/embed/.data/',
      'tests/embed/.react-dist/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
      'no-constant-condition': ['error', { checkLoops: false }],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'prefer-const': 'error',
    },
  },
  {
    files: ['src/**/*.{ts,tsx}', 'elements/**/*.ts', 'tests/elements/**/*.ts', 'stories/**/*.{ts,tsx}'],
    plugins: { react, 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    settings: { react: { version: '19' } },
    rules: {
      ...react.configs.recommended.rules,
      ...react.configs['jsx-runtime'].rules,
      'react/prop-types': 'off',
      'react/no-unknown-property': 'off',
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    files: ['server/**/*.ts', 'scripts/**/*.ts', 'tests/**/*.ts', '*.ts', '*.js'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    // domain/ holds the facts and rules the server and the console share: it imports only itself,
    // and uses no Node or browser API, so both sides (and any runtime) can load it as it is
    files: ['domain/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^(?!\\./)', message: 'domain/ imports only its own modules (./x.ts): no packages, no server/ or src/' }] },
      ],
      'no-restricted-globals': ['error', 'window', 'document', 'navigator', 'localStorage', 'process', 'Buffer', 'require', 'fetch'],
    },
  },
  {
    // chai's property assertions (expect(x).to.be.true) and Playwright's fixture destructuring
    files: ['tests/**/*.ts'],
    rules: { '@typescript-eslint/no-unused-expressions': 'off', 'no-empty-pattern': 'off' },
  },
  prettier,
)
