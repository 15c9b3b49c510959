import { describe, expect, it } from 'vitest';
import { envelope } from '../../src/api/schemas/common.schema.ts';
import { defaultPageScanSlots, loadConfig } from '../../src/config.ts';
import { taskQueues, webhookDeliveryQueue } from '../../src/shared/task-queues.ts';

describe('configuration', () => {
  it('has the contract defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      hostExplicit: false,
      databaseUrl: undefined,
      temporalAddress: undefined,
      temporalNamespace: 'default',
      maxCrawlPages: 1000,
      pageScanConcurrency: defaultPageScanSlots(),
      tabMaxPages: 100,
      browserMaxPages: 2000,
      allowedPrivateHosts: [],
      aiEnrichmentConcurrency: 2,
      allowPrivateTargets: false,
      scanRateLimit: 10,
      apiKeys: [],
      trustProxy: false,
      logLevel: 'info',
      openai: undefined,
    });
  });

  it('parses values and lists every bad one', () => {
    const c = loadConfig({ API_KEYS: ' a, b ,,', ALLOW_PRIVATE_TARGETS: 'true', PAGE_SCAN_CONCURRENCY: '5', HOST: '0.0.0.0', OPENAI_API_KEY: 'k' });
    expect(c.apiKeys).toEqual(['a', 'b']);
    expect(c.allowPrivateTargets).toBe(true);
    expect(c.pageScanConcurrency).toBe(5);
    expect(c.hostExplicit).toBe(true);
    expect(c.openai).toMatchObject({ apiKey: 'k', model: 'gpt-4o-mini' });
    expect(() => loadConfig({ PORT: 'x', PAGE_SCAN_CONCURRENCY: '0', ALLOW_PRIVATE_TARGETS: 'maybe' })).toThrow(/PORT[\s\S]*PAGE_SCAN_CONCURRENCY[\s\S]*ALLOW_PRIVATE_TARGETS/);
  });

  it('explores six interaction states within 5 s per page unless told otherwise; 0 in either turns them off', () => {
    expect(loadConfig({}).scanStates).toEqual({ maxStates: 6, budgetMs: 5000 });
    expect(loadConfig({ SCAN_STATES_MAX: '0' }).scanStates.maxStates).toBe(0);
    expect(loadConfig({ SCAN_STATES_BUDGET_MS: '0' }).scanStates.maxStates).toBe(0);
    expect(loadConfig({ SCAN_STATES_MAX: '3', SCAN_STATES_BUDGET_MS: '2000' }).scanStates).toEqual({ maxStates: 3, budgetMs: 2000 });
    expect(() => loadConfig({ SCAN_STATES_MAX: '-1' })).toThrow(/SCAN_STATES_MAX/);
  });

  it('keeps a single-page scan 30 days after it ended unless told otherwise; 0 or off keeps it for ever', () => {
    expect(loadConfig({}).scanRetentionDays).toBe(30);
    expect(loadConfig({ SCAN_RETENTION_DAYS: '7' }).scanRetentionDays).toBe(7);
    expect(loadConfig({ SCAN_RETENTION_DAYS: '0' }).scanRetentionDays).toBeNull();
    expect(loadConfig({ SCAN_RETENTION_DAYS: 'off' }).scanRetentionDays).toBeNull();
    for (const bad of ['-1', '1.5', 'never', '36501']) expect(() => loadConfig({ SCAN_RETENTION_DAYS: bad }), bad).toThrow(/SCAN_RETENTION_DAYS/);
  });

  it('chooses page-scan slots from the cores: one more than the cores, between 3 and 8', () => {
    expect([1, 2, 3, 4, 7, 16, 64].map((n) => defaultPageScanSlots(n))).toEqual([3, 3, 4, 5, 8, 8, 8]);
  });

  it('reads the private hosts a deployment lets through as host:port pairs, and refuses anything else', () => {
    expect(loadConfig({ ALLOWED_PRIVATE_HOSTS: ' Intranet.example:443, 127.0.0.1:8080,[::1]:3000,, ' }).allowedPrivateHosts).toEqual(['intranet.example:443', '127.0.0.1:8080', '[::1]:3000']);
    for (const bad of ['intranet.example', 'http://a:1', '10.0.0.1:80/x', '*:80']) expect(() => loadConfig({ ALLOWED_PRIVATE_HOSTS: bad }), bad).toThrow(/ALLOWED_PRIVATE_HOSTS/);
  });

  it('names task queues after the spec\'s stages, with an optional prefix', () => {
    expect(taskQueues()).toEqual({ workflows: 'a11y-workflows', discovery: 'crawl-discovery', pageScan: 'page-scan', enrichment: 'ai-enrichment', webhookDelivery: 'webhook-delivery' });
    expect(taskQueues('t1').pageScan).toBe('t1-page-scan');
  });

  it('finds the webhook-delivery queue of inputs written before it existed, beside their workflows queue', () => {
    const { webhookDelivery: _none, ...before } = taskQueues('t1');
    expect(webhookDeliveryQueue(before)).toBe('t1-webhook-delivery');
    expect(webhookDeliveryQueue({ workflows: 'a11y-workflows' })).toBe('webhook-delivery');
    expect(webhookDeliveryQueue(taskQueues('t2'))).toBe('t2-webhook-delivery');
  });

  it('bounds webhook deliveries: two slots per worker, one at a time per receiver, paused after 5 failures for a minute, 100 log rows, 30 list writes an hour', () => {
    expect(loadConfig({})).toMatchObject({
      webhooks: { deliveryConcurrency: 2, receiverConcurrency: 1, receiverFailures: 5, receiverPauseMs: 60_000, deliveriesKept: 100 },
      webhookRateLimit: 30,
    });
    expect(() => loadConfig({ WEBHOOK_DELIVERY_CONCURRENCY: '0', WEBHOOK_RECEIVER_CONCURRENCY: '9', WEBHOOK_DELIVERIES_KEPT: '0' })).toThrow(
      /WEBHOOK_DELIVERY_CONCURRENCY[\s\S]*WEBHOOK_RECEIVER_CONCURRENCY[\s\S]*WEBHOOK_DELIVERIES_KEPT/,
    );
  });
});

describe('pagination envelope', () => {
  it('links the neighbouring pages and keeps other parameters', () => {
    const e = envelope('http://h/api/sites/x/issues?severity=critical&limit=2&offset=2', { limit: 2, offset: 2 }, 5, ['a', 'b']);
    expect(e).toEqual({
      data: ['a', 'b'],
      pagination: { total: 5, limit: 2, offset: 2, count: 2 },
      links: {
        self: '/api/sites/x/issues?severity=critical&limit=2&offset=2',
        next: '/api/sites/x/issues?severity=critical&limit=2&offset=4',
        prev: '/api/sites/x/issues?severity=critical&limit=2&offset=0',
      },
    });
    expect(envelope('http://h/api/scans', { limit: 20, offset: 0 }, 0, []).links).toEqual({ self: '/api/scans?limit=20&offset=0', next: null, prev: null });
  });
});
