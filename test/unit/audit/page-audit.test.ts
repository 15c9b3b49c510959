import { describe, expect, it } from 'vitest';
import pino from 'pino';
import { auditPage, MIN_VIEWPORT_BUDGET_MS, type PageAuditPlan, type PageAuditSteps, type Scanned } from '../../../src/audit/page-audit.ts';
import type { ScanUrlResult } from '../../../src/audit/scan-url.ts';
import { TabCrashedError } from '../../../src/audit/session/tab-pool.ts';
import type { ViewportName } from '../../../src/shared/contracts.ts';
import type { ResourceManifest } from '../../../src/shared/page-reuse.ts';

const URL_ = 'https://example.org/a';
const manifest = (sha: string): ResourceManifest => ({ usable: true, entries: [{ url: URL_, status: 200, sha256: sha }] as never });

function scanned(rule: string, over: Partial<Scanned> = {}): Scanned {
  return {
    kind: 'scanned',
    pageTitle: `title ${rule}`,
    finalUrl: URL_,
    httpStatus: 200,
    findings: [{ ruleId: rule, selector: `#${rule}` }] as unknown as Scanned['findings'],
    passes: [],
    blocked: [],
    engines: [{ engine: rule, ms: 1 }] as unknown as Scanned['engines'],
    statesChecked: [],
    manifest: manifest('a'),
    ...over,
  };
}
const pageError = (code: string, over: Partial<Extract<ScanUrlResult, { kind: 'page-error' }>> = {}): ScanUrlResult =>
  ({ kind: 'page-error', error: { code, message: code }, finalUrl: null, httpStatus: null, ...over }) as ScanUrlResult;

type Script = Partial<Record<string, Array<ScanUrlResult | Error>>>;

/** Steps whose tab answers from a script per viewport, on a clock the test moves. */
function fakeSteps(script: Script, over: Partial<PageAuditSteps> & { clock?: { t: number }; perScanMs?: number } = {}) {
  const clock = over.clock ?? { t: 0 };
  const calls: Array<{ viewport: ViewportName; deadlineMs: number | undefined }> = [];
  const warnings: string[] = [];
  const logger = pino({ level: 'warn' }, { write: (line: string) => void warnings.push(JSON.parse(line).msg) });
  const controller = new AbortController();
  const steps: PageAuditSteps = {
    async scanInTab(viewport, deadlineMs) {
      calls.push({ viewport, deadlineMs });
      clock.t += over.perScanMs ?? 0;
      const next = script[String(viewport)]?.shift();
      if (next === undefined) throw new Error(`no scripted answer for ${viewport}`);
      if (next instanceof Error) throw next;
      return next;
    },
    auditDocument: async () => undefined,
    flowRan: () => false,
    signal: controller.signal,
    cancelled: () => Promise.reject(new Error('cancelled')),
    now: () => clock.t,
    logger,
    logFields: { url: URL_ },
    ...over,
  };
  return { steps, calls, warnings, controller, clock };
}
const plan = (over: Partial<PageAuditPlan> = {}): PageAuditPlan => ({
  viewports: ['desktop', 'mobile'],
  tagged: true,
  flow: false,
  document: false,
  recordResources: true,
  budgetEnd: 10 * 60_000,
  ...over,
});

describe('one page audited across its viewports', () => {
  it('keeps the first viewport\'s page facts, adds each later viewport\'s findings marked with it, and merges what was checked', async () => {
    const { steps, calls } = fakeSteps({
      desktop: [scanned('d', { statesChecked: ['#menu'] })],
      mobile: [scanned('m', { pageTitle: 'ignored', statesChecked: ['#nav'] })],
    });
    const { result, checked, isDocument } = await auditPage(plan({ scanDeadlineMs: 30_000 }), steps);
    expect(result.kind).toBe('scanned');
    const r = result as Scanned;
    expect(r.pageTitle).toBe('title d');
    expect(r.findings.map((f) => [f.ruleId, f.viewport])).toEqual([['d', 'desktop'], ['m', 'mobile']]);
    expect(r.engines.map((e) => e.engine)).toEqual(['d', 'm']);
    expect(checked.viewports).toEqual(['desktop', 'mobile']);
    expect([...checked.states]).toEqual(['#menu', '#nav']);
    expect(r.manifest).toMatchObject({ usable: true });
    expect(isDocument).toBe(false);
    expect(calls).toEqual([{ viewport: 'desktop', deadlineMs: 30_000 }, { viewport: 'mobile', deadlineMs: 30_000 }]);
  });

  it('leaves findings without a viewport when the desktop is the only one', async () => {
    const { steps } = fakeSteps({ desktop: [scanned('d')] });
    const { result } = await auditPage(plan({ viewports: ['desktop'], tagged: false }), steps);
    expect((result as Scanned).findings[0]).not.toHaveProperty('viewport');
  });

  it('scans a page again in a new tab once when its renderer crashed, and gives up with browser_error on the second crash', async () => {
    const once = fakeSteps({ desktop: [new TabCrashedError('gone'), scanned('d')] });
    const first = await auditPage(plan({ viewports: ['desktop'] }), once.steps);
    expect(first.result.kind).toBe('scanned');
    expect(once.calls).toHaveLength(2);
    expect(once.warnings).toContain('browser tab crashed; scanning the page again in a new tab');

    const twice = fakeSteps({ desktop: [new TabCrashedError('gone'), new TabCrashedError('again')] });
    const second = await auditPage(plan({ viewports: ['desktop'] }), twice.steps);
    expect(second.result).toMatchObject({ kind: 'page-error', error: { code: 'browser_error', message: 'the page crashed the browser tab twice (again)' } });
  });

  it("does not run a flow's steps again after a crash once they ran: they would send its forms twice", async () => {
    const { steps, calls } = fakeSteps({ desktop: [new TabCrashedError('gone'), scanned('d')] }, { flowRan: () => true });
    const { result } = await auditPage(plan({ flow: true }), steps);
    expect(result).toMatchObject({ kind: 'page-error', error: { code: 'flow_failed' } });
    expect(calls).toHaveLength(1);
  });

  it('lets any other error through, and a crash while cancelled too', async () => {
    await expect(auditPage(plan(), fakeSteps({ desktop: [new Error('database gone')] }).steps)).rejects.toThrow('database gone');
    const cancelled = fakeSteps({ desktop: [new TabCrashedError('gone'), scanned('d')] });
    cancelled.controller.abort();
    await expect(auditPage(plan(), cancelled.steps)).rejects.toBeInstanceOf(TabCrashedError);
  });

  it('skips a later viewport with too little time left, and then the page is not reusable', async () => {
    const clock = { t: 0 };
    const { steps, calls, warnings } = fakeSteps({ desktop: [scanned('d')] }, { clock, perScanMs: 60_000 });
    const { result, checked } = await auditPage(plan({ budgetEnd: 60_000 + MIN_VIEWPORT_BUDGET_MS - 1 }), steps);
    expect(calls.map((c) => c.viewport)).toEqual(['desktop']);
    expect(checked.viewports).toEqual(['desktop']);
    expect((result as Scanned).manifest).toEqual({ usable: false, reason: 'not every viewport was checked' });
    expect(warnings).toContain('no time left to check the page at this viewport; the viewports before it stand');
  });

  it('gives a later viewport no more than the time left', async () => {
    const { steps, calls } = fakeSteps({ desktop: [scanned('d')], mobile: [scanned('m')] }, { perScanMs: 40_000 });
    await auditPage(plan({ budgetEnd: 100_000, scanDeadlineMs: 90_000 }), steps);
    expect(calls[1]).toEqual({ viewport: 'mobile', deadlineMs: 60_000 });
  });

  it("keeps the other viewports' results when one cannot be checked, and hands back a site's push-back whole", async () => {
    const failed = fakeSteps({ desktop: [scanned('d')], mobile: [pageError('timeout')], 320: [scanned('n')] });
    const kept = await auditPage(plan({ viewports: ['desktop', 'mobile', 320] }), failed.steps);
    expect((kept.result as Scanned).findings.map((f) => f.viewport)).toEqual(['desktop', 320]);
    expect(kept.checked.viewports).toEqual(['desktop', 320]);

    const throttle = { status: 429, url: URL_ };
    const pushed = fakeSteps({ desktop: [scanned('d')], mobile: [pageError('rate_limited', { throttle })] });
    const back = await auditPage(plan(), pushed.steps);
    expect(back.result).toMatchObject({ kind: 'page-error', throttle });
  });

  it('stops before a later viewport once cancelled', async () => {
    const { steps, controller, calls } = fakeSteps({ desktop: [scanned('d')], mobile: [scanned('m')] });
    const scanIn = steps.scanInTab;
    steps.scanInTab = async (v, d) => {
      const r = await scanIn(v, d);
      controller.abort();
      return r;
    };
    await expect(auditPage(plan(), steps)).rejects.toThrow('cancelled');
    expect(calls).toHaveLength(1);
  });

  it("marks a flow's later viewports from the run that checked them in the same tab", async () => {
    const laterViewports = [{ viewport: 'mobile' as const, findings: [{ ruleId: 'm' }], engines: [{ engine: 'm', ms: 1 }] }] as unknown as Scanned['laterViewports'];
    const { steps, calls } = fakeSteps({ desktop: [scanned('d', { laterViewports })] });
    const { result, checked } = await auditPage(plan({ flow: true, recordResources: false }), steps);
    expect(calls).toHaveLength(1);
    expect((result as Scanned).findings.map((f) => [f.ruleId, f.viewport])).toEqual([['d', 'desktop'], ['m', 'mobile']]);
    expect(checked.viewports).toEqual(['desktop', 'mobile']);
  });

  it('audits a document from the file once, whatever the viewports, and falls back to the browser when it is not one', async () => {
    const doc = scanned('pdf', { document: { mediaType: 'application/pdf', bytes: 10, pages: 1 }, manifest: manifest('p') });
    const known = fakeSteps({}, { auditDocument: async () => doc });
    const audited = await auditPage(plan({ document: true }), known.steps);
    expect(known.calls).toHaveLength(0);
    expect(audited.isDocument).toBe(true);
    expect((audited.result as Scanned).findings[0]).not.toHaveProperty('viewport');
    expect((audited.result as Scanned).manifest).toEqual(manifest('p'));

    const notADocument = fakeSteps({ desktop: [scanned('d')], mobile: [scanned('m')] }, { auditDocument: async () => undefined });
    expect((await auditPage(plan({ document: true }), notADocument.steps)).result.kind).toBe('scanned');
    expect(notADocument.calls).toHaveLength(2);

    const found = fakeSteps({ desktop: [pageError('not_html')] }, { auditDocument: async () => doc });
    const byBrowser = await auditPage(plan(), found.steps);
    expect(byBrowser.isDocument).toBe(true);
    expect(found.calls).toHaveLength(1);
  });
});
