// The cluster's network: a Linux bridge on this machine and one network namespace per host (the
// API's and each worker's), linked to the bridge by a veth pair. Each host has its own address and
// reaches Temporal, PostgreSQL and the scanned site on the bridge's address, as separate machines
// on one LAN would. The addresses are from the benchmarking range 198.18.0.0/15 (RFC 2544), which no
// LAN routes, unlike 10/8; and the cluster's firewall (firewall.ts) drops whatever reaches them from
// elsewhere than these links. Every command is an argument array (no shell); names are ours, never input.
import { spawnSync } from 'node:child_process';

export const BRIDGE = 'a11y-br0';
/** The cluster's network: the bridge, the API's host and the worker hosts. */
export const SUBNET = '198.18.231.0/24';
const NET = '198.18.231';
/** The bridge's address: Temporal's services, PostgreSQL and the scanned site listen here. */
export const BRIDGE_IP = `${NET}.1`;
const PREFIX = 24;

export interface Host {
  /** Network namespace, e.g. `a11y-w1`. */
  netns: string;
  /** The veth end on this machine's side (in the bridge): `ip link set <it> down` cuts the host off. */
  veth: string;
  ip: string;
}

/** The API's host (198.18.231.10) and worker host `n` (198.18.231.1n, n from 1). */
export function apiHost(): Host {
  return { netns: 'a11y-api', veth: 'a11y-api-h', ip: `${NET}.10` };
}
export function workerHost(n: number): Host {
  if (!Number.isInteger(n) || n < 1 || n > 9) throw new Error(`worker host ${n}: 1 to 9`);
  return { netns: `a11y-w${n}`, veth: `a11y-w${n}-h`, ip: `${NET}.${10 + n}` };
}

/** Runs `ip` with these arguments; throws with its error text unless `ok` accepts the failure. */
export function ip(args: string[], opts: { ok?: (stderr: string) => boolean } = {}): string {
  const res = spawnSync('ip', args, { encoding: 'utf8' });
  if (res.error) throw new Error(`ip ${args.join(' ')}: ${res.error.message}`);
  if (res.status !== 0 && !opts.ok?.(res.stderr)) throw new Error(`ip ${args.join(' ')}: ${res.stderr.trim()}`);
  return res.stdout;
}

function linkExists(name: string): boolean {
  return spawnSync('ip', ['link', 'show', name], { stdio: 'ignore' }).status === 0;
}
function netnsExists(name: string): boolean {
  return ip(['netns', 'list']).split('\n').some((l) => l.split(' ')[0] === name);
}

/** Whether this process may build the network: root and `ip netns` at hand. */
export function networkAvailable(): { ok: true } | { ok: false; reason: string } {
  if (process.getuid?.() !== 0) return { ok: false, reason: 'network namespaces need root' };
  const res = spawnSync('ip', ['netns', 'list'], { encoding: 'utf8' });
  if (res.error || res.status !== 0) return { ok: false, reason: `ip netns is not available: ${res.error?.message ?? res.stderr.trim()}` };
  return { ok: true };
}

/** The bridge with its address, up. Idempotent. */
export function bridgeUp(): void {
  if (!linkExists(BRIDGE)) ip(['link', 'add', BRIDGE, 'type', 'bridge']);
  ip(['addr', 'replace', `${BRIDGE_IP}/${PREFIX}`, 'dev', BRIDGE]);
  ip(['link', 'set', BRIDGE, 'up']);
}

/** A namespace with loopback up, a veth pair into the bridge, its address and a default route via the bridge. Idempotent. */
export function hostUp(h: Host): void {
  if (!netnsExists(h.netns)) ip(['netns', 'add', h.netns]);
  const inner = `${h.veth.slice(0, -2)}-n`;
  if (!linkExists(h.veth)) {
    ip(['link', 'add', h.veth, 'type', 'veth', 'peer', 'name', inner]);
    ip(['link', 'set', inner, 'netns', h.netns]);
  }
  ip(['link', 'set', h.veth, 'master', BRIDGE]);
  ip(['link', 'set', h.veth, 'up']);
  const inNs = (args: string[]) => ip(['-n', h.netns, ...args]);
  inNs(['link', 'set', 'lo', 'up']);
  inNs(['addr', 'replace', `${h.ip}/${PREFIX}`, 'dev', inner]);
  inNs(['link', 'set', inner, 'up']);
  inNs(['route', 'replace', 'default', 'via', BRIDGE_IP]);
}

/** Cuts a host off (its link down on this machine's side) or links it again. */
export function setLink(h: Host, up: boolean): void {
  ip(['link', 'set', h.veth, up ? 'up' : 'down']);
}

/** Whether the host's link is up on this machine's side. */
export function linkUp(h: Host): boolean {
  return /\bstate UP\b|<[^>]*\bUP\b/.test(ip(['link', 'show', h.veth], { ok: () => true }));
}

/** Every host the cluster may have: the API's and worker hosts 1 to 9. */
export function allHosts(): Host[] {
  return [apiHost(), ...Array.from({ length: 9 }, (_, i) => workerHost(i + 1))];
}

/** Removes every namespace, veth and the bridge this file makes; quiet about what is already gone. */
export function networkDown(): void {
  const gone = (e: string) => /No such file|Cannot find device|does not exist|Invalid argument/i.test(e);
  for (const h of allHosts()) {
    // Deleting the namespace destroys the veth end in it, and with it the pair.
    if (netnsExists(h.netns)) ip(['netns', 'del', h.netns], { ok: gone });
    if (linkExists(h.veth)) ip(['link', 'del', h.veth], { ok: gone });
  }
  if (linkExists(BRIDGE)) ip(['link', 'del', BRIDGE], { ok: gone });
}
