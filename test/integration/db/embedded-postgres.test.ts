import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, rmSync, statSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres, type EmbeddedPg } from '../../../src/db/embedded.ts';
import { freePort } from '../../../temporal-dev/dev-server.ts';

/** Whether `password` opens a connection as postgres. */
async function opens(port: number, password: string): Promise<boolean> {
  const c = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', password, database: 'postgres' });
  try {
    await c.connect();
    return true;
  } catch {
    return false;
  } finally {
    await c.end().catch(() => {});
  }
}

describe('the embedded PostgreSQL', () => {
  // Under .data (not /tmp, which only root may enter): the server runs as the postgres user.
  const dir = path.resolve('.data', `embedded-pg-${randomBytes(4).toString('hex')}`);
  const passwordFile = `${dir}.password`;
  let server: EmbeddedPg | undefined;
  afterAll(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
    rmSync(passwordFile, { force: true });
  });

  it('makes a random superuser password, kept beside its data folder readable by its owner only', async () => {
    const port = await freePort();
    server = await startEmbeddedPostgres({ dataDir: dir, port, database: 'probe' });
    const password = readFileSync(passwordFile, 'utf8').trim();
    expect(password).toMatch(/^[0-9a-f]{48}$/);
    expect(statSync(passwordFile).mode & 0o777).toBe(0o600);
    expect(decodeURIComponent(new URL(server.url).password)).toBe(password);
    expect(await opens(port, password)).toBe(true);
    expect(await opens(port, 'postgres')).toBe(false);
    await server.stop();
    // The next start reads it back.
    server = await startEmbeddedPostgres({ dataDir: dir, port, database: 'probe' });
    expect(new URL(server.url).password).toBe(password);
  }, 120_000);

  it('gives a cluster made with the old fixed password a random one at its next start', async () => {
    const port = await freePort();
    const before = readFileSync(passwordFile, 'utf8').trim();
    // As clusters were made before: superuser password "postgres", no password file.
    const c = new pg.Client({ connectionString: server!.url });
    await c.connect();
    await c.query(`alter role postgres password 'postgres'`);
    await c.end();
    await server!.stop();
    unlinkSync(passwordFile);

    server = await startEmbeddedPostgres({ dataDir: dir, port, database: 'probe' });
    expect(existsSync(passwordFile)).toBe(true);
    const now = readFileSync(passwordFile, 'utf8').trim();
    expect(now).toMatch(/^[0-9a-f]{48}$/);
    expect(now).not.toBe(before);
    expect(await opens(port, 'postgres')).toBe(false);
    expect(await opens(port, now)).toBe(true);
    expect(statSync(passwordFile).mode & 0o777).toBe(0o600);
  }, 120_000);
});
