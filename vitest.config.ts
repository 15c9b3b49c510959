import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Two cores: one test file at a time, against one Temporal and one PostgreSQL.
    fileParallelism: false,
    pool: 'forks',
    testTimeout: 90_000,
    hookTimeout: 180_000,
    reporters: ['default', 'json'],
    outputFile: { json: '.data/test-results.json' },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          // Pure logic with no module state to leak: the files share one process and its loaded
          // modules instead of starting a process and importing the code again for each.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'stack',
          include: ['test/integration/**/*.test.ts', 'test/e2e/**/*.test.ts'],
          // These start the real parts once for the run (Temporal, PostgreSQL); each file keeps a
          // process of its own, as each starts workers, browsers and servers of its own.
          globalSetup: ['test/setup/global-setup.ts'],
        },
      },
    ],
  },
});
