import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestEnv, pollUntil, type TestEnv } from '../helpers/test-env.ts';
import { startWorkerProcess } from '../helpers/worker-process.ts';
import { html, startStaticServer, type StaticServer } from '../support/static-server.ts';

// SCAN_RETENTION_DAYS end to end: a single-page scan past it is deleted, with its findings and
// pictures, when another scan ends and when a worker starts; afterwards the API knows it no more
// than a scan that never was.

const ENDED = ['completed', 'completed_partial', 'failed', 'cancelled'];
const GIF = 'data:image/gif;base64,R0lGODlhAQABAAAAACw=';
const UNKNOWN = '0b7e3f5a-1c2d-4e5f-8a9b-0c1d2e3f4a5b';
const DAY = 86_400_000;

const doc = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Home</title></head><body><main><h1>Home</h1><img src="${GIF}" id="hero" width="120" height="60"></main></body></html>`;

describe('retention of single-page scans', () => {
  let env: TestEnv;
  let site: StaticServer;

  beforeAll(async () => {
    site = await startStaticServer({ '/': html(doc) });
    env = await createTestEnv({ env: { SCAN_RETENTION_DAYS: '2', PAGE_LOAD_TIMEOUT_MS: '5000', SCAN_RATE_LIMIT: '1000' } });
  });
  afterAll(async () => {
    await env?.close();
    await site?.close();
  });

  async function scan() {
    const res = await env.request('/api/scans', { method: 'POST', json: { url: `${site.origin}/` } });
    expect(res.status).toBe(202);
    const { id } = await res.json();
    return pollUntil(async () => (await env.request(`/api/scans/${id}`)).json(), (s) => ENDED.includes(s.status), { timeoutMs: 90_000 });
  }

  /** The scan ended three days ago: past the two days kept. */
  async function age(id: string) {
    const at = new Date(Date.now() - 3 * DAY);
    await env.db.updateTable('page_scans').set({ created_at: at, started_at: at, completed_at: at }).where('id', '=', id).execute();
  }

  const rowsOf = async (id: string) => ({
    scans: (await env.db.selectFrom('page_scans').select('id').where('id', '=', id).execute()).length,
    findings: (await env.db.selectFrom('findings').select('id').where('page_scan_id', '=', id).execute()).length,
    pictures: (await env.db.selectFrom('finding_screenshots as s').innerJoin('findings as f', 'f.id', 's.finding_id').select('s.finding_id').where('f.page_scan_id', '=', id).execute()).length,
  });

  /** Every route of a scan answers as for an unknown scan: 404 not_found, the same words but the id. */
  async function expectGone(id: string, issueId: string) {
    const withoutRequestId = ({ requestId: _, ...rest }: Record<string, unknown>) => rest;
    const unknown = withoutRequestId(await (await env.request(`/api/scans/${UNKNOWN}`)).json());
    for (const path of [`/api/scans/${id}`, `/api/scans/${id}/export`, `/api/scans/${id}/events`, `/api/scans/${id}/issues/${issueId}/screenshot`]) {
      const res = await env.request(path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type'), path).toBe('application/problem+json');
      expect((await res.json()).code, path).toBe('not_found');
    }
    const res = await env.request(`/api/scans/${id}`);
    expect(JSON.parse(JSON.stringify(withoutRequestId(await res.json())).replaceAll(id, UNKNOWN))).toEqual(unknown);
    expect((await env.request(`/api/scans/${id}/cancel`, { method: 'POST' })).status).toBe(404);
    const list = (await (await env.request('/api/scans?limit=100')).json()).data;
    expect(list.map((s: { id: string }) => s.id)).not.toContain(id);
  }

  it('deletes a scan past SCAN_RETENTION_DAYS, its findings and pictures, when another scan ends', async () => {
    const old = await scan();
    expect(old.status).toBe('completed');
    const issue = old.issues.find((i: { axeRuleId: string }) => i.axeRuleId === 'image-alt');
    expect((await env.request(`/api/scans/${old.id}/issues/${issue.id}/screenshot`)).status).toBe(200);
    const before = await rowsOf(old.id);
    expect(before.findings).toBeGreaterThan(0);
    expect(before.pictures).toBeGreaterThan(0);
    await age(old.id);
    // Nothing deletes it until something runs retention.
    expect((await env.request(`/api/scans/${old.id}`)).status).toBe(200);

    const next = await scan();
    expect(next.status).toBe('completed');
    expect(await rowsOf(old.id)).toEqual({ scans: 0, findings: 0, pictures: 0 });
    await expectGone(old.id, issue.id);
    // The scan that ended it is kept, with its findings and pictures.
    expect((await env.request(`/api/scans/${next.id}`)).status).toBe(200);
    expect((await rowsOf(next.id)).pictures).toBeGreaterThan(0);
  }, 240_000);

  it('deletes what is due when a worker process starts', async () => {
    const id = (await (await env.request('/api/scans?limit=1')).json()).data[0]?.id ?? (await scan()).id;
    await age(id);
    const worker = await startWorkerProcess(env, { SCAN_RETENTION_DAYS: '2' });
    try {
      await pollUntil(async () => (await env.request(`/api/scans/${id}`)).status, (s) => s === 404, { timeoutMs: 30_000, everyMs: 250 });
    } finally {
      await worker.stop();
    }
    expect(await rowsOf(id)).toEqual({ scans: 0, findings: 0, pictures: 0 });
  }, 120_000);
});
