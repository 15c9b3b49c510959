import { defineConfig } from 'vitest/config';

/** Stack files that change the test process itself (its environment variables). */
const ISOLATED = ['test/e2e/cluster.e2e.test.ts'];

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
          exclude: ISOLATED,
          // Against the real parts, started once for the run (Temporal, PostgreSQL). Each file makes
          // its own database, workers, browser and servers and closes them; the files share one
          // process and its loaded modules (the Temporal SDK, Playwright, the service's code).
          globalSetup: ['test/setup/global-setup.ts'],
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'isolated',
          include: ISOLATED,
          // Files that change the process itself (its environment) and bring their own servers: a process each.
        },
      },
    ],
  },
});
