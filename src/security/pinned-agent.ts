import type { LookupAddress, LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import { Agent } from 'undici';
import type { TargetPolicy } from './target-policy.ts';

/**
 * A connection pool that connects only to the address the target policy vetted for this host
 * and port (the same resolution the check made), so a second DNS answer cannot swap in a
 * private address, and a test's resolver decides where names lead.
 */
const agents = new WeakMap<TargetPolicy, Map<number, Agent>>();

/** One pool per policy and port, kept for the process: keep-alive connections are reused across a crawl's fetches. */
export function pinnedAgent(policy: TargetPolicy, port: number): Agent {
  let byPort = agents.get(policy);
  if (!byPort) agents.set(policy, (byPort = new Map()));
  let agent = byPort.get(port);
  if (!agent) byPort.set(port, (agent = createPinnedAgent(policy, port)));
  return agent;
}

function createPinnedAgent(policy: TargetPolicy, port: number): Agent {
  type Callback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
  const lookup = (hostname: string, options: LookupOptions, callback: Callback) => {
    policy.pin(hostname, port).then(
      (v) => {
        if (v.allowed === true && v.address) {
          const family = isIP(v.address);
          if (options?.all) callback(null, [{ address: v.address, family }]);
          else callback(null, v.address, family);
        } else {
          const err: NodeJS.ErrnoException = new Error(v.allowed === false ? v.reason : `${hostname} did not resolve`);
          err.code = v.allowed === false ? 'EFORBIDDEN' : 'ENOTFOUND';
          callback(err, '', 0);
        }
      },
      (err: NodeJS.ErrnoException) => callback(err, '', 0),
    );
  };
  return new Agent({ connect: { lookup: lookup as never }, connections: 4 });
}

