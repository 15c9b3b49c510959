import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevServer, type DevServer } from '../../../temporal-dev/dev-server.ts';

/**
 * The dev server `npm start` runs: one partition per task queue, and its SQLite file in
 * write-ahead-log mode (temporal-dev/dev-server.ts). A caller's own dynamic config is added, not
 * put instead.
 */
describe('the Temporal dev server npm start runs', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'a11y-dev-server-'));
  const dbFile = path.join(dir, 'temporal.sqlite');
  let server: DevServer;
  let connection: Connection;

  beforeAll(async () => {
    server = await startDevServer({ headless: true, dbFile, dynamicConfig: { 'limit.historyCount.suggestContinueAsNew': 200 } });
    connection = await Connection.connect({ address: server.address });
  });
  afterAll(async () => {
    await connection?.close();
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves each task queue from one partition', async () => {
    const r = await connection.workflowService.listTaskQueuePartitions({ namespace: 'default', taskQueue: { name: 'page-scan' } });
    expect(r.workflowTaskQueuePartitions).toHaveLength(1);
    expect(r.activityTaskQueuePartitions).toHaveLength(1);
  });

  it('keeps its SQLite file in write-ahead-log mode', () => {
    // The database header says WAL with file format versions 2 (bytes 18 and 19); a rollback journal says 1.
    const header = readFileSync(dbFile).subarray(18, 20);
    expect([...header]).toEqual([2, 2]);
    expect(existsSync(`${dbFile}-wal`)).toBe(true);
  });
});
