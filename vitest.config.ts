import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/setup/global-setup.ts'],
    // Two cores: one test file at a time, each in its own process, against one Temporal and one PostgreSQL.
    fileParallelism: false,
    pool: 'forks',
    testTimeout: 90_000,
    hookTimeout: 180_000,
    reporters: ['default', 'json'],
    outputFile: { json: '.data/test-results.json' },
  },
});
