// Lint rules, including the hexagon's dependency rule: core/ stays pure.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const ioModules = ['fs', 'http', 'https', 'net', 'child_process', 'dgram', 'dns', 'tls', 'worker_threads'];

export default tseslint.config(
  { ignores: ['node_modules/**', 'data/**', '.tmp/**', 'dist/**', 'dist.next/**', 'dist.old/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        setImmediate: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { require: 'readonly', module: 'writable', process: 'readonly' },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // core-not-to-adapters: the domain never reaches for I/O, frameworks, randomness or other layers.
    files: ['core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            ...ioModules
              .flatMap((m) => [m, `node:${m}`])
              .map((name) => ({ name, message: 'core/ does no I/O; use a port.' })),
            ...['koa', '@koa/router', 'koa-body', 'got', 'lowdb', 'pg', 'undici', 'ajv'].map((name) => ({
              name,
              message: 'core/ imports no framework or adapter library.',
            })),
            {
              name: 'node:crypto',
              importNames: ['randomBytes', 'randomUUID', 'randomInt', 'getRandomValues'],
              message: 'core/ takes randomness from the IdSource port.',
            },
          ],
          patterns: [
            {
              group: ['**/adapters/**', '**/apps/**', 'lowdb/*', 'pg-*'],
              message: 'core/ never imports adapters or apps.',
            },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        { name: 'Date', message: 'core/ takes time from the Clock port.' },
        { name: 'setTimeout', message: 'core/ does no scheduling.' },
        { name: 'fetch', message: 'core/ does no I/O.' },
      ],
      'no-restricted-properties': [
        'error',
        { object: 'Math', property: 'random', message: 'core/ takes randomness from the IdSource port.' },
      ],
    },
  },
  {
    // adapters never import each other.
    files: ['adapters/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+(apps|adapters)/',
              message: 'adapters do not import apps or each other (test/architecture checks siblings).',
            },
          ],
        },
      ],
    },
  },
);
