import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from '../../src/db/embedded.ts';
import { freePort, startDevServer } from '../../temporal-dev/dev-server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    temporalAddress: string;
    /** An admin connection string: each test file creates and drops its own database there. */
    adminDatabaseUrl: string;
  }
}

/**
 * Starts the real parts once for the whole run: a Temporal dev server (in memory, headless, on a
 * free port) and PostgreSQL (DATABASE_URL if set, else the embedded one under .data/test-postgres).
 */
export default async function setup(project: TestProject) {
  const needsServers = project.config.include.length > 0;
  if (!needsServers) return;
  const temporal = await startDevServer({ headless: true, log: (m) => console.error(m) });
  let adminDatabaseUrl = process.env.DATABASE_URL;
  let stopPg: (() => Promise<void>) | undefined;
  if (!adminDatabaseUrl) {
    const pg = await startEmbeddedPostgres({
      dataDir: path.resolve('.data', 'test-postgres'),
      port: await freePort(),
      database: 'postgres',
    });
    adminDatabaseUrl = pg.url;
    stopPg = pg.stop;
  }
  project.provide('temporalAddress', temporal.address);
  project.provide('adminDatabaseUrl', adminDatabaseUrl);
  return async () => {
    await temporal.stop();
    await stopPg?.();
  };
}
