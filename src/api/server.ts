import { Client, Connection } from '@temporalio/client';
import { loadConfig } from '../config.ts';
import { createDb } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { createNotifications } from '../db/notifications.ts';
import { createLogger } from '../logger.ts';
import { createTargetPolicy } from '../security/target-policy.ts';
import { taskQueues } from '../shared/task-queues.ts';
import { createApp } from './app.ts';
import { createApiServer, listen } from './http-server.ts';

const config = loadConfig();
const logger = createLogger('api', config.logLevel);
if (!config.databaseUrl || !config.temporalAddress) {
  logger.fatal('the API needs DATABASE_URL and TEMPORAL_ADDRESS (npm start sets both)');
  process.exit(2);
}
if (config.apiKeys.length === 0 && config.hostExplicit && !['127.0.0.1', '::1', 'localhost'].includes(config.host)) {
  logger.warn({ host: config.host }, 'API_KEYS is unset: the API is open to anyone who can reach this address');
}

const db = createDb(config.databaseUrl);
await migrateToLatest(db);
// Lazy: the API starts and answers /readyz with 503 while Temporal is still coming up.
const connection = Connection.lazy({ address: config.temporalAddress });
const temporal = new Client({ connection, namespace: config.temporalNamespace });
// One LISTEN connection per API process, opened while some client follows a scan's or crawl's events.
const notifications = createNotifications(config.databaseUrl, logger);
const app = createApp({
  config,
  db,
  temporal,
  notifications,
  logger,
  policy: createTargetPolicy({ allowPrivate: config.allowPrivateTargets, allowHosts: config.allowedPrivateHosts }),
  queues: taskQueues(config.taskQueuePrefix),
});

const server = createApiServer(app.fetch, logger);
const info = await listen(server, config.port, config.host);
logger.info({ url: `http://${config.host}:${info.port}`, docs: `http://${config.host}:${info.port}/docs` }, 'API listening');

let closing = false;
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.once(sig, () => {
    if (closing) return;
    closing = true;
    logger.info({ signal: sig }, 'API shutting down');
    // Event streams stay open until their scan or crawl ends: closing the notifications ends none of
    // them, so the connections are closed (clients reconnect to another process with Last-Event-ID).
    void notifications.close();
    server.close(async () => {
      await connection.close().catch(() => {});
      await db.destroy();
      process.exit(0);
    });
    setTimeout(() => server.closeAllConnections(), 2000).unref();
    setTimeout(() => process.exit(0), 5000).unref();
  });
}
