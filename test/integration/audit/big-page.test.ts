import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBrowserProvider, resolveChromiumPath, type BrowserProvider } from '../../../src/audit/session/browser-provider.ts';
import { DEFAULT_SCAN_DEADLINE_MS, scanUrl } from '../../../src/audit/scan-url.ts';
import { axeEngine } from '../../../src/audit/engines/axe/axe.engine.ts';
import { DEFAULT_ENGINES, type ScanEngine } from '../../../src/audit/engines/index.ts';
import { ownFinding } from '../../../src/audit/engines/engine.ts';
import { createTargetPolicy } from '../../../src/security/target-policy.ts';
import { html, startStaticServer, type StaticServer } from '../../support/static-server.ts';

// Pages that take long to audit: a generated index the size of ipython-docs' genindex.html is
// audited by every engine within the production deadline, and a page where an engine runs out of
// time keeps the findings of the engines that finished, marked unfinished for that engine.

/** An index like Sphinx's genindex.html: `n` entries in three columns of definition lists, each a link. */
export function indexPage(n: number): string {
  const cols: string[][] = [[], [], []];
  for (let i = 0; i < n; i++) cols[i % 3]!.push(`<dt><a href="p${i % 50}.html#e${i}">entry_${i}() (module.sub${i % 97}.Class${i % 13} method)</a></dt>`);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Index — Docs</title></head><body><main><h1>Index</h1><table style="width:100%"><tr>${cols
    .map((c) => `<td style="width:33%" valign="top"><dl>${c.join('\n')}</dl></td>`)
    .join('')}</tr></table></main></body></html>`;
}

/** An engine that finds the page's title generic, on every page (a finding to keep or lose). */
const flagTitle: ScanEngine = {
  id: 'flag-title',
  stage: 'CustomChecks',
  async run() {
    return {
      findings: [
        ownFinding({ ruleId: 'title-generic', type: 'confirmed', severity: 'serious', criterion: '2.4.2', selector: 'title', html: '<title>', help: 'h', description: 'd', failureSummary: 's' }),
      ],
    };
  },
};

/** Never finishes on its own: stops only when its signal tells it to (or not at all, `deaf`). */
const hangs = (id: string, deaf = false): ScanEngine => ({
  id,
  stage: 'CustomChecks',
  run: ({ signal }) => new Promise((_, reject) => (deaf ? undefined : signal?.addEventListener('abort', () => reject(new Error('stopped')), { once: true }))),
});

/** Keeps the page's renderer busy in a script that never yields. */
const busyPage: ScanEngine = {
  id: 'busy-page',
  stage: 'CustomChecks',
  run: async ({ page }) => {
    await page.evaluate(() => {
      for (;;) {
        /* never yields */
      }
    });
    return { findings: [] };
  },
};

describe('a large page is audited; one that runs out of time keeps what finished', () => {
  let server: StaticServer;
  let browser: BrowserProvider;
  const policy = createTargetPolicy({ allowPrivate: true });
  const plain = '<!doctype html><html lang="en"><head><title>Page</title></head><body><main><h1>Page</h1><img src="data:," width="10" height="10"><p>Text.</p></main></body></html>';

  beforeAll(async () => {
    server = await startStaticServer({ '/index': html(indexPage(3400)), '/plain': html(plain) });
    browser = createBrowserProvider({ executablePath: resolveChromiumPath(process.env.CHROMIUM_PATH) });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('audits an index of 3,400 links (genindex.html\'s size) with every engine, within the production deadline', { timeout: DEFAULT_SCAN_DEADLINE_MS + 60_000 }, async () => {
    const r = await scanUrl(`${server.origin}/index`, { browser: await browser.get(), policy, pageLoadTimeoutMs: 30_000, deadlineMs: DEFAULT_SCAN_DEADLINE_MS });
    expect(r.kind).toBe('scanned');
    if (r.kind !== 'scanned') return;
    expect(r.engines.map((e) => e.engine)).toEqual(DEFAULT_ENGINES.map((e) => e.id));
    // Links under 24 px apart: axe's target-size finds them (and the other engines ran on the page).
    expect(r.findings.some((f) => f.ruleId === 'target-size')).toBe(true);
    // On a machine too busy to finish them all, the ones that did not say so (and axe always finishes).
    for (const e of r.engines) if (e.unfinished) expect(e.engine).not.toBe('axe');
  });

  it('keeps the findings of the engines that finished when one runs out of time, and starts none after it', async () => {
    const r = await scanUrl(`${server.origin}/plain`, {
      browser: await browser.get(),
      policy,
      pageLoadTimeoutMs: 10_000,
      deadlineMs: 12_000,
      engines: [axeEngine, flagTitle, hangs('hangs'), flagTitle],
    });
    expect(r.kind).toBe('scanned');
    if (r.kind !== 'scanned') return;
    expect(r.cutOff).toBe(true);
    expect(r.engines.map((e) => [e.engine, e.unfinished ?? null])).toEqual([
      ['axe', null],
      ['flag-title', null],
      ['hangs', 'out_of_time'],
      ['flag-title', 'out_of_time'],
    ]);
    expect(r.findings.map((f) => f.ruleId).sort()).toEqual(['image-alt', 'title-generic']);
  });

  it('keeps them too when the engine ignores its signal, or leaves the page busy in a script', async () => {
    for (const engine of [hangs('deaf', true), busyPage]) {
      const r = await scanUrl(`${server.origin}/plain`, { browser: await browser.get(), policy, pageLoadTimeoutMs: 10_000, deadlineMs: 12_000, engines: [axeEngine, flagTitle, engine] });
      expect(r.kind).toBe('scanned');
      if (r.kind !== 'scanned') continue;
      expect(r.engines.find((e) => e.engine === engine.id)?.unfinished).toBe('out_of_time');
      expect(r.findings.map((f) => f.ruleId).sort()).toEqual(['image-alt', 'title-generic']);
    }
    // The browser is fine for the next page.
    const next = await scanUrl(`${server.origin}/plain`, { browser: await browser.get(), policy, pageLoadTimeoutMs: 10_000, engines: [axeEngine, flagTitle] });
    expect(next.kind).toBe('scanned');
  });

  it('marks an engine that throws as failed, and the page scan goes on', async () => {
    const throws: ScanEngine = { id: 'throws', stage: 'CustomChecks', run: () => Promise.reject(new Error('broken here')) };
    const r = await scanUrl(`${server.origin}/plain`, { browser: await browser.get(), policy, pageLoadTimeoutMs: 10_000, engines: [axeEngine, throws, flagTitle] });
    expect(r.kind).toBe('scanned');
    if (r.kind !== 'scanned') return;
    expect(r.cutOff).toBeUndefined();
    expect(r.engines.map((e) => e.unfinished ?? null)).toEqual([null, 'failed', null]);
    expect(r.findings.some((f) => f.ruleId === 'title-generic')).toBe(true);
  });
});
