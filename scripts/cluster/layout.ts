// Where everything of the cluster lives: addresses, ports and folders. Shared by `npm run cluster`
// and the cluster bench. Ports stay clear of the defaults (3000, 7233, 8233) other work uses.
import path from 'node:path';
import { BRIDGE_IP, apiHost } from './network.ts';

export const TEMPORAL_SERVICES = ['frontend', 'history', 'matching', 'worker'] as const;
export type TemporalService = (typeof TEMPORAL_SERVICES)[number];

/** gRPC and membership (ringpop) ports of each Temporal service, all on the bridge's address. */
export const TEMPORAL_PORTS: Record<TemporalService, { grpc: number; membership: number; metrics: number }> = {
  frontend: { grpc: 17233, membership: 17933, metrics: 19233 },
  history: { grpc: 17234, membership: 17934, metrics: 19234 },
  matching: { grpc: 17235, membership: 17935, metrics: 19235 },
  worker: { grpc: 17239, membership: 17939, metrics: 19239 },
};
/** The frontend's HTTP API (and Nexus callbacks). */
export const TEMPORAL_HTTP_PORT = 17243;
export const TEMPORAL_ADDRESS = `${BRIDGE_IP}:${TEMPORAL_PORTS.frontend.grpc}`;

export const PG_PORT = 15432;
/** The service's own database; Temporal's are `temporal` and `temporal_visibility`. */
export const APP_DATABASE = 'a11y';
export const SITE_PORT = 18601;
export const SITE_ORIGIN = `http://${BRIDGE_IP}:${SITE_PORT}`;
export const API_PORT = 13000;
export const API_URL = `http://${apiHost().ip}:${API_PORT}`;

/** Everything the cluster writes: `.data/cluster` in the repository (gitignored), or CLUSTER_DIR. */
export function clusterDir(): string {
  return path.resolve(process.env.CLUSTER_DIR || path.join('.data', 'cluster'));
}
export const paths = {
  state: () => path.join(clusterDir(), 'state.json'),
  logs: () => path.join(clusterDir(), 'logs'),
  pgData: () => path.join(clusterDir(), 'postgres'),
  pgPassword: () => path.join(clusterDir(), 'postgres.password'),
  temporal: () => path.join(clusterDir(), 'temporal'),
  host: (name: string) => path.join(clusterDir(), name),
};

/** The corpus the bench crawls (402 pages); CORPUS_DIR overrides. */
export function corpusDir(): string {
  return path.resolve(process.env.CORPUS_DIR || path.join('..', 'shared', 'corpora', 'ipython-docs', 'site'));
}
