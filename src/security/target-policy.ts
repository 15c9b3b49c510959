import { lookup } from 'node:dns/promises';
import { BlockList, isIP, isIPv6 } from 'node:net';
import ipaddr from 'ipaddr.js';

/** Host names that point at cloud metadata services or this machine whatever DNS says. */
const FORBIDDEN_HOSTNAMES = new Set(['localhost', 'metadata', 'metadata.google.internal', 'metadata.goog', 'instance-data']);

/**
 * IPv6 prefixes whose addresses carry an IPv4 address that something on the path (this machine's
 * kernel, a tunnel, a relay, a translator) may deliver to. Refused whatever IPv4 address they carry:
 * - ::/96, IPv4-compatible (deprecated by RFC 4291): Linux's sit tunnel sends it to the embedded
 *   IPv4 address; no public site has one, and ::7f00:1 is 127.0.0.1 in disguise.
 * - ::ffff:0:0:0/96, IPv4-translated (RFC 6145): a stateless translator connects to the IPv4 address.
 * - 64:ff9b::/96 (RFC 6052) and 64:ff9b:1::/48 (RFC 8215), NAT64: a translator on the path connects
 *   to the embedded address. Under the local-use prefix where it sits depends on the operator's
 *   prefix length, so it cannot be read out and vetted; our hosts have IPv4 of their own, so a
 *   literal one in a URL is an evasion rather than a site.
 * - 2002::/16, 6to4 (deprecated by RFC 7526): relays route it to the embedded IPv4 address.
 * - 2001::/32, Teredo (RFC 4380): it carries the server's IPv4 address and the client's, obfuscated.
 * IPv4-mapped addresses (::ffff:0:0/96) are not here: a dual-stack socket connects to the embedded
 * address itself, so they are decided as that IPv4 address (::ffff:8.8.8.8 is public).
 * The prefixes are matched by Node's own address parser, not by ipaddr.js, which reads the
 * IPv4-compatible text form ::a.b.c.d as IPv4-mapped.
 */
const IPV4_CARRYING = new BlockList();
for (const [prefix, bits] of [['::', 96], ['::ffff:0:0:0', 96], ['64:ff9b::', 96], ['64:ff9b:1::', 48], ['2002::', 16], ['2001::', 32]] as const) {
  IPV4_CARRYING.addSubnet(prefix, bits, 'ipv6');
}

function carriesIPv4(address: string): boolean {
  try {
    return IPV4_CARRYING.check(address, 'ipv6');
  } catch {
    return true;
  }
}

/**
 * True for every address that is not a public unicast address: loopback, private, link-local
 * (169.254.169.254, the cloud metadata address, is link-local), carrier-grade NAT (Alibaba's
 * metadata service sits there), unique-local IPv6 (AWS's fd00:ec2::254), multicast, reserved,
 * and IPv6 forms that carry an IPv4 address (IPV4_CARRYING; IPv4-mapped ones count as their IPv4).
 */
export function isForbiddenAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return true;
  if (isIPv6(address) && carriesIPv4(address)) return true;
  let ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv6') {
    const v6 = ip as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) ip = v6.toIPv4Address();
    // Everything ipaddr.js names (unique-local, link-local, documentation, discard...) is refused.
    else return v6.range() !== 'unicast';
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
