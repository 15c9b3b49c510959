import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBrowserProvider, resolveChromiumPath, type BrowserProvider } from '../../../../src/audit/session/browser-provider.ts';
import { scanUrl } from '../../../../src/audit/scan-url.ts';
import { targetSizeMobileEngine } from '../../../../src/audit/engines/target-size-mobile/target-size-mobile.engine.ts';
import { axeEngine } from '../../../../src/audit/engines/axe/axe.engine.ts';
import { reflowEngine } from '../../../../src/audit/engines/reflow/reflow.engine.ts';
import type { Tab } from '../../../../src/audit/session/page-session.ts';
import { createTabPool, type TabPool } from '../../../../src/audit/session/tab-pool.ts';
import type { ViewportName } from '../../../../src/shared/contracts.ts';
import { createTargetPolicy, type TargetPolicy } from '../../../../src/security/target-policy.ts';
import { html, startStaticServer, type StaticServer } from '../../../support/static-server.ts';

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Look</title></head><body><main><h1>Look</h1></main></body></html>`;

// Targets of 16×16 px side by side: too small and too close (2.5.8) at any width.
const CROWDED = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Crowded</title><style>button{width:16px;height:16px;padding:0;margin:0;border:0;font-size:8px}</style></head>
<body><main><h1>Crowded</h1><p><button>a</button><button>b</button><button>c</button></p></main>
<script>window.__widths = []; addEventListener('resize', () => window.__widths.push(innerWidth));</script></body></html>`;

/** The window as the loaded page sees it. */
async function windowOf(tab: Tab, url: string) {
  const loaded = await tab.load(url);
  if (loaded.kind !== 'loaded') throw new Error(`not loaded: ${JSON.stringify(loaded)}`);
  return loaded.page.evaluate(() => ({
    width: window.innerWidth,
    height: window.innerHeight,
    dpr: window.devicePixelRatio,
    coarse: matchMedia('(pointer: coarse)').matches,
    touch: navigator.maxTouchPoints > 0,
  }));
}

describe('tabs per crawl and viewport', () => {
  let server: StaticServer;
  let browser: BrowserProvider;
  let policy: TargetPolicy;
  let tabs: TabPool;

  beforeAll(async () => {
    server = await startStaticServer({ '/look': html(PAGE), '/crowded': html(CROWDED) });
    browser = createBrowserProvider({ executablePath: resolveChromiumPath(process.env.CHROMIUM_PATH) });
    policy = createTargetPolicy({ allowPrivate: true });
    tabs = createTabPool({ browser, policy, pageLoadTimeoutMs: 15_000, slots: 1 });
  });
  afterAll(async () => {
    await tabs?.close();
    await browser?.close();
    await server?.close();
  });

  it('renders each viewport in a context of its own: the desktop window, a phone, a custom width', async () => {
    const at = (viewport?: ViewportName) => tabs.use('crawl:a', (tab) => windowOf(tab, `${server.origin}/look`), viewport === undefined ? {} : { viewport });
    expect(await at()).toEqual({ width: 1280, height: 800, dpr: 1, coarse: false, touch: false });
    expect(await at('desktop')).toEqual({ width: 1280, height: 800, dpr: 1, coarse: false, touch: false });
    expect(await at('mobile')).toEqual({ width: 390, height: 844, dpr: 3, coarse: true, touch: true });
    expect(await at(320)).toEqual({ width: 320, height: 800, dpr: 1, coarse: false, touch: false });
  });

  it("keeps a crawl's tab of each viewport from page to page, one slot and two viewports included", async () => {
    const seen = new Map<string, Set<Tab>>();
    const before = tabs.stats();
    for (let i = 0; i < 3; i++) {
      for (const viewport of ['desktop', 'mobile'] as const) {
        await tabs.use('crawl:b', async (tab) => {
          seen.set(viewport, (seen.get(viewport) ?? new Set()).add(tab));
          await tab.load(`${server.origin}/look?${i}`);
        }, { viewport });
      }
    }
    expect(seen.get('desktop')!.size).toBe(1);
    expect(seen.get('mobile')!.size).toBe(1);
    expect([...seen.get('desktop')!][0]).not.toBe([...seen.get('mobile')!][0]);
    const after = tabs.stats();
    expect(after.opened - before.opened).toBe(2);
    expect(after.reused - before.reused).toBe(4);
  });

  it('the 390 px target-size pass puts back the window it found, not the desktop one', async () => {
    const width = await tabs.use(
      'crawl:c',
      async (tab) => {
        const r = await scanUrl(`${server.origin}/look`, { tab, policy, pageLoadTimeoutMs: 15_000, engines: [axeEngine, targetSizeMobileEngine] });
        expect(r.kind).toBe('scanned');
        return (await windowOf(tab, `${server.origin}/look?again`)).width;
      },
      { viewport: 1920 },
    );
    expect(width).toBe(1920);
  });

  it("reflow measures the 390 px target sizes in its own phone layout: target-size-mobile finds the same without a phone layout of its own, and the window is put back", async () => {
    const run = (engines: Parameters<typeof scanUrl>[1]['engines']) =>
      tabs.use(
        'crawl:d',
        async (tab) => {
          // The widths the page was laid out at, in order (its resize events), read after the engines.
          let widths: number[] = [];
          const widthsSeen = { id: 'widths-seen', stage: 'CustomChecks' as const, run: async ({ page }: { page: import('playwright').Page }) => ((widths = await page.evaluate(() => (window as unknown as { __widths: number[] }).__widths)), { findings: [] }) };
          const r = await scanUrl(`${server.origin}/crowded`, { tab, policy, pageLoadTimeoutMs: 15_000, engines: [...engines!, widthsSeen] });
          if (r.kind !== 'scanned') throw new Error(r.kind);
          const tsm = r.engines.find((e) => e.engine === 'target-size-mobile')!;
          const width = (await windowOf(tab, `${server.origin}/look?after`)).width;
          return { found: tsm.findings.map((f) => `${f.ruleId} ${f.type} ${f.elementSelector} ${String(f.data?.viewport)}`).sort(), width, widths };
        },
        { viewport: 1920 },
      );
    const alone = await run([axeEngine, targetSizeMobileEngine]);
    const afterReflow = await run([axeEngine, reflowEngine, targetSizeMobileEngine]);
    expect(alone.found.length).toBeGreaterThan(0);
    expect(afterReflow.found).toEqual(alone.found);
    // One phone layout in all, reflow's (its other layouts are 960 and 320 px wide).
    expect(alone.widths.filter((w) => w === 390)).toHaveLength(1);
    expect(afterReflow.widths.filter((w) => w === 390)).toHaveLength(1);
    expect(afterReflow.widths).toEqual(expect.arrayContaining([960, 320]));
    expect(alone.width).toBe(1920);
    expect(afterReflow.width).toBe(1920);
  });
});
