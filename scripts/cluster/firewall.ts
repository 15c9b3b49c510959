// The cluster's firewall: one nftables table of its own (`inet a11y_cluster`), written whole before
// anything listens and deleted whole by `cluster down`. PostgreSQL, Temporal's services (started
// with --allow-no-auth: whoever reaches the frontend may run workflows), the site and the API all
// listen on the cluster's addresses; the table drops every packet to those addresses unless it came
// over the cluster's own links (the bridge and its hosts' veths, from a cluster address) or from this
// machine itself (loopback: Temporal's services, PostgreSQL's clients, `cluster up` and the bench run
// here, outside the namespaces). Anything else (another namespace or container, the machine's own
// network, a route someone adds to the cluster's addresses) gets no answer at all.
import { spawnSync } from 'node:child_process';
import { BRIDGE, SUBNET, allHosts } from './network.ts';

/** The table's family and name: `nft list table inet a11y_cluster`. */
export const NFT_TABLE = 'a11y_cluster';

/** The links packets to the cluster may come over: the bridge, and each host's veth (with br_netfilter a bridged packet may show its port). */
function clusterLinks(): string[] {
  return [BRIDGE, ...allHosts().map((h) => h.veth)];
}

/** The ruleset, replacing any earlier version of the table in one transaction (create, delete, define). */
export function firewallRules(): string {
  const links = `{ ${clusterLinks().map((l) => `"${l}"`).join(', ')} }`;
  // Forwarded packets too: with ip_forward on (Docker turns it on) the hosts' addresses are routable from other interfaces.
  const chain = (hook: 'input' | 'forward', fromThisMachine: boolean) => `  chain ${hook} {
    type filter hook ${hook} priority -10; policy accept;
${fromThisMachine ? `    ip daddr ${SUBNET} iifname "lo" accept\n` : ''}    ip daddr ${SUBNET} ip saddr ${SUBNET} iifname ${links} accept
    ip daddr ${SUBNET} counter drop
  }`;
  return `table inet ${NFT_TABLE}
delete table inet ${NFT_TABLE}
table inet ${NFT_TABLE} {
${chain('input', true)}
${chain('forward', false)}
}
`;
}

function nftFound(): boolean {
  const res = spawnSync('nft', ['--version'], { stdio: 'ignore' });
  return !res.error && res.status === 0;
}

/** `nft`, installed from Debian's `nftables` package when missing (as scripts/bootstrap.sh installs packages). */
export function ensureNft(log: (m: string) => void = () => {}): void {
  if (nftFound()) return;
  log("installing Debian's nftables package (nft is missing)");
  const apt = (args: string[]) => {
    const res = spawnSync('apt-get', args, { encoding: 'utf8', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    if (res.error || res.status !== 0) throw new Error(`apt-get ${args.join(' ')}: ${res.error?.message ?? (res.stderr || res.stdout).trim().split('\n').slice(-3).join('\n')}`);
  };
  apt(['update', '-q']);
  apt(['install', '-y', '-q', '--no-install-recommends', 'nftables']);
  if (!nftFound()) throw new Error('nft is still missing after installing nftables');
}

function nft(args: string[], input?: string): { ok: boolean; out: string } {
  const res = spawnSync('nft', args, { encoding: 'utf8', input });
  if (res.error) throw new Error(`nft ${args.join(' ')}: ${res.error.message}`);
  return { ok: res.status === 0, out: res.status === 0 ? res.stdout : res.stderr.trim() };
}

/** Writes the cluster's table (replacing an earlier one). Idempotent. */
export function firewallUp(log?: (m: string) => void): void {
  ensureNft(log);
  const r = nft(['-f', '-'], firewallRules());
  if (!r.ok) throw new Error(`nft -f: ${r.out}`);
}

/** Whether the cluster's table exists. */
export function firewallExists(): boolean {
  if (!nftFound()) return false;
  return nft(['list', 'table', 'inet', NFT_TABLE]).ok;
}

/** Deletes the cluster's table, if there is one. */
export function firewallDown(): void {
  if (!firewallExists()) return;
  const r = nft(['delete', 'table', 'inet', NFT_TABLE]);
  if (!r.ok && firewallExists()) throw new Error(`nft delete table inet ${NFT_TABLE}: ${r.out}`);
}
