import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import tradeshelf from './scripts/eslint-boundaries.js';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '.cache/**',
      '**/build/**',
      '**/.react-router/**',
      '.data/**',
      'apps/api/src/db/migrations/**',
      'playwright-report/**',
      'test-results/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  // Boundaries (docs/architecture.md#boundaries, ADR 029). A module reaches another only through its index.ts;
  // only tables.ts names another module's tables (foreign keys). Outside modules, the wiring
  // (schema, routes, page reads, seeds, jobs) imports a module's wiring files or its index.ts.
  // `tradeshelf/boundaries` resolves each import against its file, so nested files and deep
  // paths are judged like the rest (scripts/eslint-boundaries.js; boundaries.test.ts proves it).
  {
    plugins: { tradeshelf },
  },
  {
    files: ['apps/api/src/modules/**/*.ts'],
    ignores: ['**/*.test.ts', 'apps/api/src/modules/*/tables.ts'],
    rules: {
      'tradeshelf/boundaries': [
        'error',
        {
          slices: {
            root: 'apps/api/src/modules',
            entries: ['index.ts'],
            message:
              'Another module is reached through its index.ts (docs/architecture.md#boundaries).',
          },
        },
      ],
    },
  },
  {
    files: ['apps/api/src/modules/*/tables.ts'],
    rules: {
      'tradeshelf/boundaries': [
        'error',
        {
          slices: {
            root: 'apps/api/src/modules',
            entries: ['tables.ts'],
            message:
              'A tables.ts may name only other modules’ tables (docs/architecture.md#boundaries).',
          },
        },
      ],
    },
  },
  {
    files: ['apps/api/src/integrations/**/*.ts', 'apps/api/src/platform/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '/modules/',
              message:
                'Integrations and platform code never import a module (docs/architecture.md#boundaries).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/api/src/*.ts', 'apps/api/src/{db,jobs,events}/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex:
                '/modules/[^/]+/(?!(index|tables|routes|reads|seed|jobs|subscribers|search-sql)\\.ts$)',
              message: 'Outside modules, import a module’s index.ts or its wiring files (ADR 029).',
            },
          ],
        },
      ],
    },
  },
  // A web feature uses another feature through its index.ts; routes and the shell (header,
  // session, username prompt) compose features freely. The kit (components/, lib/) sits below
  // every feature: it imports none, nor the shell or routes that compose them.
  {
    files: ['apps/web/app/features/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: {
      'tradeshelf/boundaries': [
        'error',
        {
          slices: {
            root: 'apps/web/app/features',
            entries: ['index.ts'],
            message:
              'Another feature is reached through its index.ts (docs/architecture.md#boundaries).',
          },
          forbidden: {
            targets: ['apps/web/app/routes', 'apps/web/app/shell'],
            message: 'A feature does not import the routes or the shell that compose it (ADR 029).',
          },
        },
      ],
    },
  },
  {
    files: ['apps/web/app/{components,lib}/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: {
      'tradeshelf/boundaries': [
        'error',
        {
          forbidden: {
            targets: ['apps/web/app/features', 'apps/web/app/shell', 'apps/web/app/routes'],
            message:
              'The kit (components/, lib/) imports no feature; move the shared piece down (ADR 029).',
          },
        },
      ],
    },
  },
  {
    files: [
      'bench/**',
      'e2e/**',
      'scripts/**',
      '**/*.test.ts',
      'apps/api/src/start-web.ts',
      'apps/api/src/db/cli.ts',
    ],
    rules: { 'no-console': 'off' },
  },
  {
    // Specs take `test` from e2e/test.ts, whose pages wait for hydration after a load (ADR 069).
    files: ['e2e/**/*.ts'],
    ignores: ['e2e/test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@playwright/test',
              message:
                "Import from './test.ts': its pages wait for hydration after `goto` (ADR 069).",
            },
          ],
        },
      ],
    },
  },
);
