// Smoke tests of `npm run cluster` (docs/cluster.md).
// - Its network closed to everyone else: the network, the firewall and the real PostgreSQL of the
//   cluster (a plain listener stands in for Temporal's frontend), probed from a cluster host and
//   from a namespace that is not the cluster's. Runs wherever the cluster could (root, `ip netns`,
//   no cluster running): a few seconds, no server to build; installs nftables if `nft` is missing,
//   as `cluster up` does.
// - The whole cluster: up with two worker hosts, a short crawl of the corpus across them, down.
//   Skipped unless it can run without building anything: also the Temporal server already built
//   (CI never builds it) and the corpus at hand.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import path from 'node:path';
import ipaddr from 'ipaddr.js';
import { afterAll, describe, expect, test } from 'vitest';
import { createDb } from '../../src/db/database.ts';
import { findTemporalServer } from '../../temporal-dev/server.ts';
import { clusterDown, clusterNetworkUp, clusterUp } from '../../scripts/cluster/cluster.ts';
import { NFT_TABLE, firewallExists } from '../../scripts/cluster/firewall.ts';
import { PG_PORT, TEMPORAL_PORTS, corpusDir } from '../../scripts/cluster/layout.ts';
import { BRIDGE, BRIDGE_IP, SUBNET, allHosts, ip, networkAvailable, workerHost } from '../../scripts/cluster/network.ts';
import { pgInit, pgStart, pgUrl } from '../../scripts/cluster/postgres.ts';
import { crawlInvariants } from '../support/crawl-invariants.ts';

const bridgeExists = () => networkAvailable().ok && ip(['link', 'show', BRIDGE], { ok: () => true }).includes(BRIDGE);
const networkRunnable = networkAvailable().ok && !bridgeExists();
const runnable = networkRunnable && findTemporalServer() !== undefined && existsSync(corpusDir());

/**
 * A namespace that is not the cluster's, on a veth of its own to this machine, routed to the
 * cluster's addresses: on the benchmarking range too, but not the cluster's part of it (and not
 * TEST-NET-1, which some machines' own network uses).
 */
const OUTSIDER = { netns: 'a11y-outsider', veth: 'a11y-out-h', peer: 'a11y-out-n', ip: '198.19.231.2', gateway: '198.19.231.1' };
function outsiderUp(): void {
  ip(['netns', 'add', OUTSIDER.netns]);
  ip(['link', 'add', OUTSIDER.veth, 'type', 'veth', 'peer', 'name', OUTSIDER.peer]);
  ip(['link', 'set', OUTSIDER.peer, 'netns', OUTSIDER.netns]);
  ip(['addr', 'add', `${OUTSIDER.gateway}/30`, 'dev', OUTSIDER.veth]);
  ip(['link', 'set', OUTSIDER.veth, 'up']);
  const inNs = (args: string[]) => ip(['-n', OUTSIDER.netns, ...args]);
  inNs(['link', 'set', 'lo', 'up']);
  inNs(['addr', 'add', `${OUTSIDER.ip}/30`, 'dev', OUTSIDER.peer]);
  inNs(['link', 'set', OUTSIDER.peer, 'up']);
  inNs(['route', 'add', SUBNET, 'via', OUTSIDER.gateway]);
}
function outsiderDown(): void {
  const gone = () => true;
  ip(['netns', 'del', OUTSIDER.netns], { ok: gone });
  ip(['link', 'del', OUTSIDER.veth], { ok: gone });
}

/** A TCP connection from inside `netns` (null: this machine's own) to host:port: connected, refused (an answer), or no answer within 2 s (dropped). */
function probe(netns: string | null, host: string, port: number): Promise<'connected' | 'refused' | 'no answer'> {
  const script = `const s = require('node:net').connect(${port}, ${JSON.stringify(host)});
    const end = (r) => { console.log(r); s.destroy(); process.exit(0); };
    s.setTimeout(2000, () => end('no answer'));
    s.on('connect', () => end('connected'));
    s.on('error', (e) => end(e.code === 'ECONNREFUSED' ? 'refused' : 'error ' + e.code));`;
  return new Promise((resolve, reject) => {
    const [cmd, args] = netns ? ['ip', ['netns', 'exec', netns, process.execPath, '-e', script]] : [process.execPath, ['-e', script]];
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('exit', () => resolve(out.trim() as 'connected' | 'refused' | 'no answer'));
  });
}

/** `select 1` on the cluster's PostgreSQL from inside `netns`, with its password. */
function queryFrom(netns: string): Promise<string> {
  const script = `const pg = require('pg'); const c = new pg.Client({ connectionString: process.env.URL, connectionTimeoutMillis: 3000 });
    c.connect().then(() => c.query('select 1 as one')).then((r) => { console.log(r.rows[0].one); return c.end(); }, (e) => { console.log('error ' + e.message); process.exit(0); });`;
  return new Promise((resolve, reject) => {
    const child = spawn('ip', ['netns', 'exec', netns, process.execPath, '-e', script], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, URL: pgUrl('postgres') } });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('exit', () => resolve(out.trim()));
  });
}

const listen = (host: string, port: number) =>
  new Promise<Server>((resolve, reject) => {
    const server = createServer((s) => s.end());
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });

describe('the cluster', () => {
  let started = false;
  let outsider = false;
  afterAll(async () => {
    if (outsider) outsiderDown();
    if (started) await clusterDown();
  }, 120_000);

  test.skipIf(!networkRunnable)(
    "answers on the cluster's addresses only over its own links, from benchmarking addresses; down deletes its firewall table",
    async () => {
      // Addresses no LAN routes: the benchmarking range, not 10/8.
      const bench = ipaddr.parseCIDR('198.18.0.0/15');
      for (const a of [BRIDGE_IP, ...allHosts().map((h) => h.ip)]) expect(ipaddr.parse(a).match(bench), a).toBe(true);

      process.env.CLUSTER_DIR = path.resolve('.data', 'cluster-net-test');
      started = true;
      clusterNetworkUp(1);
      pgInit();
      pgStart();
      const servers = [await listen(BRIDGE_IP, TEMPORAL_PORTS.frontend.grpc)];
      outsider = true;
      outsiderUp();
      // The outsider's own link works: it reaches this machine on the address of its link.
      servers.push(await listen(OUTSIDER.gateway, TEMPORAL_PORTS.frontend.grpc));
      try {
        expect(firewallExists()).toBe(true);
        const w1 = workerHost(1).netns;
        expect(await probe(w1, BRIDGE_IP, PG_PORT)).toBe('connected');
        expect(await queryFrom(w1)).toBe('1');
        expect(await probe(w1, BRIDGE_IP, TEMPORAL_PORTS.frontend.grpc)).toBe('connected');
        // This machine itself, over loopback: where Temporal's services, `cluster up` and the bench connect from.
        expect(await probe(null, BRIDGE_IP, PG_PORT)).toBe('connected');

        expect(await probe(OUTSIDER.netns, OUTSIDER.gateway, TEMPORAL_PORTS.frontend.grpc)).toBe('connected');
        // Dropped, not refused: nothing answers on the cluster's addresses from elsewhere.
        expect(await probe(OUTSIDER.netns, BRIDGE_IP, PG_PORT)).toBe('no answer');
        expect(await probe(OUTSIDER.netns, BRIDGE_IP, TEMPORAL_PORTS.frontend.grpc)).toBe('no answer');
      } finally {
        await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
      }

      await clusterDown();
      started = false;
      expect(firewallExists()).toBe(false);
      expect(ip(['link', 'show', BRIDGE], { ok: () => true })).not.toContain(BRIDGE);
      expect(existsSync(process.env.CLUSTER_DIR)).toBe(false);
    },
    180_000,
  );

  test.skipIf(!runnable)(
    'a crawl across two worker hosts of the cluster scans every page once; down removes it all',
    async () => {
      process.env.CLUSTER_DIR = path.resolve('.data', 'cluster-test');
      started = true;
      const cluster = await clusterUp({ workers: 2, pageScanConcurrency: 1, build: false });
      expect(firewallExists(), `table inet ${NFT_TABLE}`).toBe(true);
      if (!outsider) {
        outsider = true;
        outsiderUp();
      }
      expect(await probe(OUTSIDER.netns, BRIDGE_IP, TEMPORAL_PORTS.frontend.grpc)).toBe('no answer');
      expect(await probe(workerHost(1).netns, BRIDGE_IP, TEMPORAL_PORTS.frontend.grpc)).toBe('connected');
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
      expect(firewallExists()).toBe(false);
      expect(existsSync(process.env.CLUSTER_DIR)).toBe(false);
    },
    600_000,
  );
});
