// Lint that keeps the architecture's directions: who may import whom, and where SQL may live.
// Type-only imports are always allowed (they vanish at run time); values are what couple code.
import tseslint from 'typescript-eslint';

const layer = (name, message) => ({ group: [`**/${name}/**`, `**/${name}`], message, allowTypeImports: true });

const API_MUST_NOT = [
  layer('activities', 'The API only accepts requests and starts workflows: move shared logic to src/shared.'),
  layer('workers', 'The API process never runs worker code.'),
];

// The `sql` template and query builders belong to src/db/repositories.
const NO_SQL_TAG = { name: 'kysely', importNames: ['sql'], message: 'SQL lives in src/db/repositories: add a repository function.' };
const QUERY_BUILDER =
  "MemberExpression[property.name=/^(selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto|transaction|executeQuery|withTransaction)$/]";

export default tseslint.config(
  { ignores: ['node_modules/**', '.data/**', 'bench/tmp/**', 'temporal-dev/bin/**'] },
  {
    files: ['**/*.ts'],
    languageOptions: { parser: tseslint.parser, ecmaVersion: 'latest', sourceType: 'module' },
    plugins: { '@typescript-eslint': tseslint.plugin },
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
            layer('api', 'src/shared is imported by every process and imports none of them.'),
            layer('activities', 'src/shared is imported by every process and imports none of them.'),
            layer('workers', 'src/shared is imported by every process and imports none of them.'),
            layer('db', 'src/shared is pure: no database access.'),
          ],
          paths: [NO_SQL_TAG],
        },
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
    files: ['src/db/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { patterns: [layer('api', 'Repositories never import the API.'), layer('workers', 'Repositories never import worker code.')] },
      ],
    },
  },
);
