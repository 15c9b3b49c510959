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

export type Resolver = (hostname: string) => Promise<string[]>;

export const systemResolver: Resolver = async (hostname) => {
  const addrs = await lookup(hostname, { all: true, verbatim: true });
  return addrs.map((a) => a.address);
};

export type TargetVerdict = { allowed: true } | { allowed: false; reason: string };

export interface TargetPolicy {
  /** Decides whether the service may fetch this URL. Unresolvable names are allowed: the fetch will fail on its own. */
  check(url: string | URL): Promise<TargetVerdict>;
}

export function createTargetPolicy(opts: {
  allowPrivate: boolean;
  resolver?: Resolver;
  /** Extra hosts (host:port) to let through although private; for tests and local tooling. */
  allowHosts?: readonly string[];
}): TargetPolicy {
  const resolver = opts.resolver ?? systemResolver;
  const allowHosts = new Set(opts.allowHosts ?? []);
  return {
    async check(input) {
      if (opts.allowPrivate) return { allowed: true };
      let url: URL;
      try {
        url = typeof input === 'string' ? new URL(input) : input;
      } catch {
        return { allowed: false, reason: 'not a valid URL' };
      }
      if (allowHosts.has(url.host)) return { allowed: true };
      const host = url.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();
      if (FORBIDDEN_HOSTNAMES.has(host) || host.endsWith('.localhost')) {
        return { allowed: false, reason: `${host} is a local or metadata host name` };
      }
      if (isIP(host)) {
        return isForbiddenAddress(host)
          ? { allowed: false, reason: `${host} is not a public address` }
          : { allowed: true };
      }
      let addresses: string[];
      try {
        addresses = await resolver(host);
      } catch {
        return { allowed: true };
      }
      const bad = addresses.find(isForbiddenAddress);
      return bad ? { allowed: false, reason: `${host} resolves to ${bad}, which is not a public address` } : { allowed: true };
    },
  };
}
