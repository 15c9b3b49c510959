/**
 * Webhook receivers on loopback and ended crawls to deliver about, for the webhook tests: a
 * receiver answers as told (a status, or never), keeps every request with its arrival time, and
 * counts how many it holds at once.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { planCrawlDeliveries } from '../../src/db/repositories/webhook.repository.ts';
import { webhookWorkflowId } from '../../src/shared/search-attributes.ts';
import type { TestEnv } from './test-env.ts';

export interface ReceivedRequest {
  path: string;
  at: number;
  headers: { id: string; timestamp: string; signature: string };
  body: string;
  answered: number | 'nothing';
}

export interface Receiver {
  origin: string;
  url(path: string): string;
  requests: ReceivedRequest[];
  /** The most requests it held at once. */
  maxInFlight: number;
  /** How it answers the next requests: a status, or 'hang' (reads the request, never answers: packets dropped). */
  answer: (path: string) => number | 'hang';
  close(): Promise<void>;
}

export async function startReceiver(answer: Receiver['answer'] = () => 200): Promise<Receiver> {
  let inFlight = 0;
  const receiver: Receiver = {
    origin: '',
    url: (p) => receiver.origin + p,
    requests: [],
    maxInFlight: 0,
    answer,
    close: async () => {},
  };
  const server: Server = createServer(async (req: IncomingMessage, res) => {
    inFlight++;
    receiver.maxInFlight = Math.max(receiver.maxInFlight, inFlight);
    let done = false;
    const end = () => {
      if (!done) inFlight--;
      done = true;
    };
    res.on('close', end);
    let body = '';
    for await (const chunk of req) body += chunk;
    const headers = { id: String(req.headers['webhook-id'] ?? ''), timestamp: String(req.headers['webhook-timestamp'] ?? ''), signature: String(req.headers['webhook-signature'] ?? '') };
    const how = receiver.answer(req.url ?? '');
    receiver.requests.push({ path: req.url ?? '', at: Date.now(), headers, body, answered: how === 'hang' ? 'nothing' : how });
    if (how !== 'hang') res.writeHead(how).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  receiver.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  receiver.close = () => {
    server.closeAllConnections();
    return new Promise<void>((r) => server.close(() => r()));
  };
  return receiver;
}

/** A site of its own, straight into the database (no rate limit, no DNS). */
export async function seedSite(env: TestEnv): Promise<string> {
  const hostname = `hooks-${randomBytes(4).toString('hex')}.example`;
  const site = await env.db.insertInto('sites').values({ hostname, name: hostname, base_url: `https://${hostname}/` }).returning('id').executeTakeFirstOrThrow();
  return site.id;
}

let clients = 0;

/**
 * Sets a site's webhooks through the API (secrets sealed as in production); returns them with their
 * secrets. Each call comes from a client address of its own (with TRUST_PROXY), so files that test
 * WEBHOOK_RATE_LIMIT can still set up webhooks.
 */
export async function putWebhooks(env: TestEnv, siteId: string, webhooks: Array<{ url: string; events: string[] }>): Promise<Array<{ id: string; url: string; secret: string }>> {
  const client = `192.0.2.${(clients++ % 250) + 1}`;
  const res = await env.request(`/api/sites/${siteId}/webhooks`, { method: 'PUT', json: { webhooks }, headers: { 'x-forwarded-for': client } });
  if (res.status !== 200 && res.status !== 201) throw new Error(`PUT webhooks answered ${res.status}: ${await res.text()}`);
  return (await res.json()).webhooks;
}

/** An ended crawl of the site, as finalization leaves one (a first crawl with new issues: it regressed too). */
export async function seedEndedCrawl(env: TestEnv, siteId: string, status = 'completed'): Promise<string> {
  const crawl = await env.db
    .insertInto('crawls')
    .values({ site_id: siteId, status, max_pages: 10, total_pages: 1, scanned_pages: 1, overall_score: 80, new_issues: 3, fixed_issues: 0, completed_at: new Date() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return crawl.id;
}

/**
 * What a crawl does once it ended: plans its deliveries and starts a WebhookDeliveryWorkflow for
 * each (here from the client, as the crawl starts them as abandoned children). Returns the ids.
 */
export async function deliverCrawlEnd(env: TestEnv, crawlId: string): Promise<string[]> {
  const ids = await planCrawlDeliveries(env.db, crawlId, { keep: env.config.webhooks.deliveriesKept });
  for (const deliveryId of ids) {
    await env.temporal.workflow.start('WebhookDeliveryWorkflow', { taskQueue: env.queues.workflows, workflowId: webhookWorkflowId(deliveryId), args: [{ deliveryId, queues: env.queues }] });
  }
  return ids;
}

export async function deliveryRows(env: TestEnv, ids: readonly string[]) {
  if (!ids.length) return [];
  return env.db.selectFrom('webhook_deliveries').selectAll().where('id', 'in', ids).orderBy('created_at').orderBy('id').execute();
}

/** Ends delivery workflows still running (so they do not outlive the test file on the shared Temporal server). */
export async function terminateDeliveries(env: TestEnv, ids: readonly string[]): Promise<void> {
  await Promise.all(ids.map((id) => env.temporal.workflow.getHandle(webhookWorkflowId(id)).terminate('test over').catch(() => {})));
}
