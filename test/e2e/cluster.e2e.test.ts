// Smoke test of `npm run cluster` (docs/cluster.md): up with two worker hosts, a short crawl of the
// corpus across them, down. Skipped unless it can run without building anything: root, `ip netns`,
// the Temporal server already built (CI never builds it), the corpus at hand, no cluster running.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { createDb } from '../../src/db/database.ts';
import { findTemporalServer } from '../../temporal-dev/server.ts';
import { clusterDown, clusterUp } from '../../scripts/cluster/cluster.ts';
import { corpusDir } from '../../scripts/cluster/layout.ts';
import { BRIDGE, ip, networkAvailable } from '../../scripts/cluster/network.ts';
import { crawlInvariants } from '../support/crawl-invariants.ts';

const bridgeExists = () => networkAvailable().ok && ip(['link', 'show', BRIDGE], { ok: () => true }).includes(BRIDGE);
const runnable = networkAvailable().ok && findTemporalServer() !== undefined && existsSync(corpusDir()) && !bridgeExists();

let started = false;
afterAll(async () => {
  if (started) await clusterDown();
}, 120_000);

test.skipIf(!runnable)(
  'a crawl across two worker hosts of the cluster scans every page once; down removes it all',
  async () => {
    process.env.CLUSTER_DIR = path.resolve('.data', 'cluster-test');
    started = true;
    const cluster = await clusterUp({ workers: 2, pageScanConcurrency: 1, build: false });
    const call = async (p: string, init?: RequestInit) => {
      const res = await fetch(cluster.api + p, { ...init, headers: { 'content-type': 'application/json' } });
      expect(res.ok, `${p}: ${res.status}`).toBe(true);
      return (await res.json()) as any;
    };
    const site = await call('/api/sites', { method: 'POST', body: JSON.stringify({ url: `${cluster.site}/` }) });
    const { crawlId } = await call(`/api/sites/${site.id}/crawl`, { method: 'POST', body: JSON.stringify({ maxPages: 8 }) });
    let crawl: any;
    do {
      await new Promise((r) => setTimeout(r, 1000));
      crawl = await call(`/api/sites/${site.id}/crawls/${crawlId}`);
    } while (['queued', 'running'].includes(crawl.status));
    const db = createDb(cluster.databaseUrl, { max: 1 });
    const inv = await crawlInvariants(db, crawlId);
    await db.destroy();
    expect(inv.problems).toEqual([]);
    expect(inv.totalPages).toBe(8);
    expect(inv.scannedPages).toBeGreaterThan(0);

    await clusterDown();
    started = false;
    expect(bridgeExists()).toBe(false);
    expect(existsSync(process.env.CLUSTER_DIR)).toBe(false);
  },
  600_000,
);
