// Configuration of the cluster's Temporal services: one file per service (each its own process
// with its own metrics port), PostgreSQL persistence and visibility (plugin postgres12), ringpop
// membership on the bridge's address. Modelled on the server's config/development-postgres12.yaml
// and docker/config_template.yaml (v1.32).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { BRIDGE_IP } from './network.ts';
import { PG_PORT, TEMPORAL_HTTP_PORT, TEMPORAL_PORTS, TEMPORAL_SERVICES, paths, type TemporalService } from './layout.ts';

/** History shards: fixed for the cluster's life (changing it needs a new database). 4 as in the server's development configs. */
const HISTORY_SHARDS = 4;

/**
 * Dynamic configuration: search attributes visible as soon as they are created (the dev server
 * does the same), so the service's first crawl can be listed by `crawlId`.
 */
const DYNAMIC_CONFIG = `system.forceSearchAttributesCacheRefreshOnRead:
  - value: true
    constraints: {}
limit.maxIDLength:
  - value: 255
    constraints: {}
`;

function datastore(database: string, password: string, maxConns: number): string {
  return `      sql:
        pluginName: "postgres12"
        databaseName: "${database}"
        connectAddr: "${BRIDGE_IP}:${PG_PORT}"
        connectProtocol: "tcp"
        user: "postgres"
        password: "${password}"
        maxConns: ${maxConns}
        maxIdleConns: ${maxConns}
        maxConnLifetime: "1h"`;
}

export function serviceConfig(service: TemporalService, password: string): string {
  if (!/^[0-9a-f]+$/.test(password)) throw new Error('the PostgreSQL password must be hex (it stands in YAML)');
  const services = TEMPORAL_SERVICES.map((s) => {
    const p = TEMPORAL_PORTS[s];
    return `  ${s}:
    rpc:
      grpcPort: ${p.grpc}
      membershipPort: ${p.membership}
      bindOnIP: "${BRIDGE_IP}"${s === 'frontend' ? `\n      httpPort: ${TEMPORAL_HTTP_PORT}` : ''}`;
  }).join('\n');
  return `# Written by npm run cluster for the ${service} service; rewritten at every start.
log:
  stdout: true
  level: warn
  format: json

persistence:
  defaultStore: default
  visibilityStore: visibility
  numHistoryShards: ${HISTORY_SHARDS}
  datastores:
    default:
${datastore('temporal', password, 20)}
    visibility:
${datastore('temporal_visibility', password, 10)}

global:
  membership:
    maxJoinDuration: 30s
    broadcastAddress: "${BRIDGE_IP}"
  metrics:
    prometheus:
      framework: "tally"
      timerType: "histogram"
      listenAddress: "${BRIDGE_IP}:${TEMPORAL_PORTS[service].metrics}"

services:
${services}

clusterMetadata:
  enableGlobalNamespace: false
  failoverVersionIncrement: 10
  masterClusterName: "active"
  currentClusterName: "active"
  clusterInformation:
    active:
      enabled: true
      initialFailoverVersion: 1
      rpcName: "frontend"
      rpcAddress: "${BRIDGE_IP}:${TEMPORAL_PORTS.frontend.grpc}"
      httpAddress: "${BRIDGE_IP}:${TEMPORAL_HTTP_PORT}"

dcRedirectionPolicy:
  policy: "noop"

dynamicConfigClient:
  filepath: "${path.join(paths.temporal(), 'dynamicconfig.yaml')}"
  pollInterval: "60s"
`;
}

/** Writes every service's file and the dynamic configuration; returns the files by service. */
export function writeTemporalConfig(password: string): Record<TemporalService, string> {
  mkdirSync(paths.temporal(), { recursive: true, mode: 0o700 });
  writeFileSync(path.join(paths.temporal(), 'dynamicconfig.yaml'), DYNAMIC_CONFIG);
  const out = {} as Record<TemporalService, string>;
  for (const s of TEMPORAL_SERVICES) {
    out[s] = path.join(paths.temporal(), `${s}.yaml`);
    // Holds the database password: its owner only.
    writeFileSync(out[s], serviceConfig(s, password), { mode: 0o600 });
  }
  return out;
}
