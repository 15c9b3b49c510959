// Lint that keeps the architecture's directions: who may import whom, and where SQL may live.
// `layer` allows type-only imports (they vanish at run time); `strictLayer` refuses them too, for
// layers that must not even know the other's shapes. Rules over the whole graph (no cycle, type
// imports included; nothing of the worker side reachable from src/api) are dependency-cruiser's:
// .dependency-cruiser.cjs, run by `npm run lint` as well.
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

const layer = (name, message) => ({ group: [`**/${name}/**`, `**/${name}`], message, allowTypeImports: true });
/** The same, for type imports too: for layers that must not even know the other's shapes. */
const strictLayer = (name, message) => ({ ...layer(name, message), allowTypeImports: false });

// The worker side: what a page scan, discovery and enrichment run on. The API process loads none of it.
const WORKER_SIDE = ['activities', 'audit', 'discovery', 'enrichment', 'workers'];

const API_MUST_NOT = WORKER_SIDE.map((name) =>
  layer(name, 'The API only accepts requests and starts workflows: it loads no engine, browser or model. Move what both need to src/shared.'),
);

// The `sql` template and query builders belong to src/db/repositories.
const NO_SQL_TAG = { name: 'kysely', importNames: ['sql'], message: 'SQL lives in src/db/repositories: add a repository function.' };
const QUERY_BUILDER =
  "MemberExpression[property.name=/^(selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto|transaction|executeQuery|withTransaction)$/]";

export default tseslint.config(
  { ignores: ['node_modules/**', '.data/**', 'bench/tmp/**', 'temporal-dev/bin/**'] },
  // src, test, bench and scripts alike: typescript-eslint's recommended rules. `any` stays allowed:
  // code serialised into the page and tests of hostile input need it.
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: { parser: tseslint.parser, ecmaVersion: 'latest', sourceType: 'module' },
    plugins: { '@typescript-eslint': tseslint.plugin },
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
  {
    // No cycle of value imports, at each import (dependency-cruiser checks cycles with type imports too).
    files: ['src/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts'] })], 'import-x/extensions': ['.ts'] },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    files: ['src/api/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: API_MUST_NOT, paths: [NO_SQL_TAG] }],
      'no-restricted-syntax': ['error', { selector: QUERY_BUILDER, message: 'SQL lives in src/db/repositories: add a repository function.' }],
    },
  },
  {
    files: ['src/activities/**/*.ts', 'src/workers/**/*.ts', 'src/reports/**/*.ts', 'src/shared/**/*.ts', 'src/security/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { patterns: [layer('api', 'Only the API imports the API.')], paths: [NO_SQL_TAG] },
      ],
      'no-restricted-syntax': ['error', { selector: QUERY_BUILDER, message: 'SQL lives in src/db/repositories: add a repository function.' }],
    },
  },
  {
    files: ['src/shared/**/*.ts', 'src/security/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            ...['api', 'workflows', ...WORKER_SIDE, 'reports'].map((name) =>
              strictLayer(name, 'src/shared is imported by every process and imports none of them.'),
            ),
            strictLayer('db', 'src/shared is pure: no database access.'),
          ],
          paths: [NO_SQL_TAG],
        },
      ],
    },
  },
  {
    // Benches share code with tests only through test/support; test/helpers is for tests.
    files: ['bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/test/helpers/**'], message: 'Benches import shared test code from test/support, not test/helpers.' }] },
      ],
    },
  },
  {
    // Workflow code runs in Temporal's deterministic sandbox: it orchestrates, activities do the I/O.
    files: ['src/workflows/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            layer('activities', 'Workflows reach activities through proxyActivities, never by importing them.'),
            layer('db', 'Workflows do no I/O: call an activity.'),
            layer('api', 'Workflows never import the API.'),
            layer('workers', 'Workflows never import worker code.'),
            { group: ['node:*'], message: 'Node APIs are not deterministic: call an activity.', allowTypeImports: true },
          ],
          paths: ['pg', 'kysely', 'playwright', 'undici', 'openai', '@temporalio/client', '@temporalio/worker', '@temporalio/activity'].map((name) => ({
            name,
            message: 'Workflows do no I/O: call an activity.',
            allowTypeImports: true,
          })),
        },
      ],
    },
  },
  {
    // The database layer sits under everything but src/shared and src/security: it imports nothing above it, types included.
    files: ['src/db/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: ['api', 'workers', 'workflows', 'activities', 'audit', 'discovery', 'enrichment', 'reports'].map((name) =>
            strictLayer(name, 'src/db imports nothing above it (src/shared and src/security only): define the shape here or in src/shared.'),
          ),
        },
      ],
    },
  },
  {
    // Reports render what the repositories read: no engine, browser or model (the API renders exports).
    files: ['src/reports/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: ['api', 'workflows', ...WORKER_SIDE].map((name) => strictLayer(name, 'src/reports is loaded by the API: it reads src/db and src/shared only.')),
          paths: [NO_SQL_TAG],
        },
      ],
    },
  },
  {
    // The audit engine, discovery and enrichment are libraries the activities call: they never reach back up.
    files: ['src/audit/**/*.ts', 'src/discovery/**/*.ts', 'src/enrichment/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: ['api', 'workflows', 'activities', 'workers', 'reports'].map((name) =>
            strictLayer(name, 'The audit engine, discovery and enrichment are called by the activities and never import them, the API, workflows or reports.'),
          ),
          paths: [NO_SQL_TAG],
        },
      ],
      'no-restricted-syntax': ['error', { selector: QUERY_BUILDER, message: 'SQL lives in src/db/repositories: add a repository function.' }],
    },
  },
);
