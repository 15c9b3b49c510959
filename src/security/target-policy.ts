import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** Host names that point at cloud metadata services or this machine whatever DNS says. */
const FORBIDDEN_HOSTNAMES = new Set(['localhost', 'metadata', 'metadata.google.internal', 'metadata.goog', 'instance-data']);

/**
 * True for every address that is not a public unicast address: loopback, private, link-local
 * (169.254.169.254, the cloud metadata address, is link-local), carrier-grade NAT (Alibaba's
 * metadata service sits there), unique-local IPv6 (AWS's fd00:ec2::254), multicast, reserved,
 * and IPv4 addresses hidden inside IPv6 forms.
 */
export function isForbiddenAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return true;
  let ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv6') {
    const v6 = ip as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) ip = v6.toIPv4Address();
    else {
      const range = v6.range();
      // NAT64 / 6to4 / Teredo embed an IPv4 address the network may route to: refuse them outright.
      return range !== 'unicast';
    }
  }
  return ip.range() !== 'unicast';
}

/**
 * One reason for a name that resolves to no address and for one that resolves to a private one:
 * two wordings would let any client probe which internal names exist (an oracle for the
 * network's DNS), one request at a time.
 */
export const notPublic = (host: string) => `${host} does not resolve to a public address`;

export type Resolver = (hostname: string) => Promise<string[]>;

export const systemResolver: Resolver = async (hostname) => {
  const addrs = await lookup(hostname, { all: true, verbatim: true });
  return addrs.map((a) => a.address);
};

export type TargetVerdict = { allowed: true } | { allowed: false; reason: string };

/** A decision on one host and port, with the address to connect to when allowed. */
export type PinnedVerdict =
  | { allowed: true; address: string | undefined }
  | { allowed: false; reason: string }
  | { allowed: 'unresolved'; error: unknown };

export interface TargetPolicy {
  readonly allowPrivate: boolean;
  /** Decides whether the service may fetch this URL; names that do not resolve are refused. */
  check(url: string | URL): Promise<TargetVerdict>;
  /**
   * Resolves and decides in one step, returning the vetted address to connect to, so that a
   * second DNS answer (rebinding) cannot swap in a private address after the check.
   */
  pin(hostname: string, port: number): Promise<PinnedVerdict>;
}

export function createTargetPolicy(opts: {
  allowPrivate: boolean;
  resolver?: Resolver;
  /** Extra hosts (host:port) to let through although private; for tests and local tooling. */
  allowHosts?: readonly string[];
}): TargetPolicy {
  const resolver = opts.resolver ?? systemResolver;
  const allowHosts = new Set(opts.allowHosts ?? []);

  async function pin(hostname: string, port: number): Promise<PinnedVerdict> {
    const host = hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();
    const exempt = opts.allowPrivate || allowHosts.has(`${host.includes(':') ? `[${host}]` : host}:${port}`);
    if (isIP(host)) {
      return exempt || !isForbiddenAddress(host) ? { allowed: true, address: host } : { allowed: false, reason: `${host} is not a public address` };
    }
    if (!exempt && (FORBIDDEN_HOSTNAMES.has(host) || host.endsWith('.localhost'))) {
      return { allowed: false, reason: `${host} is a local or metadata host name` };
    }
    let addresses: string[];
    try {
      addresses = await resolver(host);
    } catch (error) {
      return { allowed: 'unresolved', error };
    }
    if (addresses.length === 0) return { allowed: 'unresolved', error: new Error(`no address for ${host}`) };
    if (exempt) return { allowed: true, address: addresses[0] };
    const bad = addresses.find(isForbiddenAddress);
    // The reason goes back to whoever asked: it must tell them neither which internal address a
    // name has nor whether it has one (see notPublic).
    return bad ? { allowed: false, reason: notPublic(host) } : { allowed: true, address: addresses[0] };
  }

  return {
    allowPrivate: opts.allowPrivate,
    pin,
    async check(input) {
      if (opts.allowPrivate) return { allowed: true };
      let url: URL;
      try {
        url = typeof input === 'string' ? new URL(input) : input;
      } catch {
        return { allowed: false, reason: 'not a valid URL' };
      }
      const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
      const v = await pin(url.hostname, port);
      // A name without an address is refused too: nothing can be vetted, and a name that resolves
      // only later (or only inside our network) must not slip past the check.
      if (v.allowed === 'unresolved') return { allowed: false, reason: notPublic(url.hostname.replace(/\.$/, '').toLowerCase()) };
      return v.allowed === false ? v : { allowed: true };
    },
  };
}
