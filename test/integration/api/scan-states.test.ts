import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { html, startStaticServer, type StaticServer } from '../../support/static-server.ts';
import { STATES_PAGE } from '../../helpers/state-pages.ts';
import { createTestEnv, pollUntil, type TestEnv } from '../../helpers/test-env.ts';

describe('a single-page scan of a page with interaction states', () => {
  let env: TestEnv;
  let site: StaticServer;
  beforeAll(async () => {
    site = await startStaticServer({ '/states': html(STATES_PAGE) });
    // The production count of states, with time enough for a loaded test machine.
    env = await createTestEnv({ env: { SCAN_STATES_BUDGET_MS: '60000' } });
  }, 120_000);
  afterAll(async () => {
    await env?.close();
    await site?.close();
  });

  it('returns each issue with the state that revealed it, and null for the default state', async () => {
    const res = await env.request('/api/scans', { method: 'POST', json: { url: `${site.origin}/states` } });
    expect(res.status).toBe(202);
    const { id } = await res.json();
    const scan = await pollUntil(
      async () => (await env.request(`/api/scans/${id}`)).json(),
      (s) => !['queued', 'running'].includes(s.status),
      { timeoutMs: 120_000 },
    );
    expect(scan.status).toBe('completed');
    const issue = (rule: string, marker: string) => scan.issues.filter((i: any) => i.axeRuleId === rule && i.elementHtml.includes(marker));
    expect(issue('image-alt', 'photo.png').map((i: any) => i.state)).toEqual([null]);
    expect(issue('image-alt', 'logo.png').map((i: any) => i.state)).toEqual([{ action: 'click', target: '#menu-button', label: 'Menu' }]);
    expect(issue('button-name', 'icon-button').map((i: any) => i.state)).toEqual([{ action: 'click', target: '#tab-2', label: 'Second' }]);
    expect(issue('color-contrast', 'faint-text').map((i: any) => i.state?.target)).toEqual(['#open-dialog']);
    expect(issue('select-name', 'unnamed-select').map((i: any) => i.state?.target)).toEqual(['#help-button']);
    expect(issue('label', 'hidden-field').map((i: any) => i.state?.label)).toEqual(['More options']);
    expect(site.hits.filter((h) => h.startsWith('/submit') || h.startsWith('/elsewhere'))).toEqual([]);
  }, 180_000);
});
