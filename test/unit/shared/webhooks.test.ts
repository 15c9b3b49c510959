import { describe, expect, it } from 'vitest';
import { receiverPauseMs, receiverUnwell, WEBHOOK_ATTEMPTS, webhookRetryDelayMs } from '../../../src/shared/webhook-delivery.ts';
import { crawlEvents, generateWebhookSecret, isRegression, signWebhook, verifyWebhook, WEBHOOK_SECRET_PATTERN, webhookHeaders } from '../../../src/shared/webhooks.ts';

// The Standard Webhooks specification's published test vector.
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const ID = 'msg_p5jXN8AQM9LWM0D4loKWxJek';
const TS = 1614265330;
const BODY = '{"test": 2432232314}';

describe('webhook signatures (Standard Webhooks)', () => {
  it('reproduces the specification\u2019s reference signature', () => {
    expect(signWebhook(SECRET, ID, TS, BODY)).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
    expect(webhookHeaders(SECRET, ID, TS, BODY)).toEqual({
      'content-type': 'application/json',
      'webhook-id': ID,
      'webhook-timestamp': String(TS),
      'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    });
  });

  it('verifies a good delivery and refuses a changed body, id, secret, an old timestamp or a malformed header', () => {
    const now = TS * 1000 + 10_000;
    const headers = { id: ID, timestamp: String(TS), signature: signWebhook(SECRET, ID, TS, BODY) };
    expect(verifyWebhook(SECRET, headers, BODY, now)).toBe(true);
    // Several signatures (a key being rotated): one matching is enough.
    expect(verifyWebhook(SECRET, { ...headers, signature: `v1,AAAA ${headers.signature}` }, BODY, now)).toBe(true);
    expect(verifyWebhook(SECRET, headers, '{"test": 2432232315}', now)).toBe(false);
    expect(verifyWebhook(SECRET, { ...headers, id: 'msg_other' }, BODY, now)).toBe(false);
    expect(verifyWebhook(generateWebhookSecret(), headers, BODY, now)).toBe(false);
    expect(verifyWebhook(SECRET, headers, BODY, now + 3600_000)).toBe(false);
    expect(verifyWebhook(SECRET, { ...headers, signature: headers.signature.replace('v1,', 'v2,') }, BODY, now)).toBe(false);
    expect(verifyWebhook(SECRET, { ...headers, timestamp: 'soon' }, BODY, now)).toBe(false);
    expect(verifyWebhook(SECRET, { ...headers, signature: null }, BODY, now)).toBe(false);
  });

  it('generates secrets of 24 random bytes that its own pattern accepts', () => {
    const a = generateWebhookSecret();
    expect(a).toMatch(WEBHOOK_SECRET_PATTERN);
    expect(Buffer.from(a.slice(6), 'base64')).toHaveLength(24);
    expect(a).not.toBe(generateWebhookSecret());
    expect(WEBHOOK_SECRET_PATTERN.test('whsec_c2hvcnQ=')).toBe(false);
  });
});

describe('which events an ended crawl raises', () => {
  const hook = { events: ['crawl.completed', 'crawl.failed', 'crawl.regressed'], newIssues: 3, scoreDrop: 5 };
  it('completed or failed, and regressed past either threshold', () => {
    expect(crawlEvents({ status: 'completed', newIssues: 0, overallScore: 90 }, 92, hook)).toEqual(['crawl.completed']);
    expect(crawlEvents({ status: 'completed_partial', newIssues: 3, overallScore: 90 }, 92, hook)).toEqual(['crawl.completed', 'crawl.regressed']);
    expect(crawlEvents({ status: 'completed', newIssues: 0, overallScore: 80 }, 86, hook)).toEqual(['crawl.completed', 'crawl.regressed']);
    expect(crawlEvents({ status: 'completed', newIssues: 0, overallScore: 81 }, 86, hook)).toEqual(['crawl.completed']);
    expect(crawlEvents({ status: 'failed', newIssues: null, overallScore: null }, 86, hook)).toEqual(['crawl.failed']);
    expect(crawlEvents({ status: 'completed', newIssues: 9, overallScore: 50 }, null, { ...hook, events: ['crawl.failed'] })).toEqual([]);
  });
  it('a first crawl has no score to drop from; new issues alone decide', () => {
    expect(isRegression({ newIssues: 5, overallScore: 40 }, null, { newIssues: 6, scoreDrop: 0 })).toBe(false);
    expect(isRegression({ newIssues: 6, overallScore: 40 }, null, { newIssues: 6, scoreDrop: 0 })).toBe(true);
  });
});

describe('how deliveries treat a receiver', () => {
  it('waits 1 s, 2 s, 4 s … at most 10 minutes between attempts, about 40 minutes for all of them', () => {
    const waits = Array.from({ length: WEBHOOK_ATTEMPTS - 1 }, (_, i) => webhookRetryDelayMs(i + 1));
    expect(waits).toEqual([1000, 2000, 4000, 8000, 16_000, 32_000, 64_000, 128_000, 256_000]);
    expect(webhookRetryDelayMs(20)).toBe(600_000);
  });
  it('pauses a receiver longer each time in a row, at most an hour (or the first pause, if longer)', () => {
    expect([1, 2, 3, 7, 8].map((n) => receiverPauseMs({ receiverPauseMs: 60_000 }, n))).toEqual([60_000, 120_000, 240_000, 3_600_000, 3_600_000]);
    expect(receiverPauseMs({ receiverPauseMs: 7_200_000 }, 3)).toBe(7_200_000);
  });
  it('counts no answer, 5xx, 408 and 429 against the receiver, not an answer about one URL', () => {
    expect([null, 500, 503, 408, 429].every(receiverUnwell)).toBe(true);
    expect([200, 301, 307, 400, 401, 404, 410].some(receiverUnwell)).toBe(false);
  });
});
