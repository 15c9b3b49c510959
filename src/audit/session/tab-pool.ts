import type { Browser } from 'playwright';
import type { Logger } from '../../logger.ts';
import type { TargetPolicy } from '../../security/target-policy.ts';
import type { BrowserProvider } from './browser-provider.ts';
import { openTab, type Tab } from './page-session.ts';
import type { SiteAuthLoad } from './site-login.ts';
import type { ViewportName } from '../../shared/contracts.ts';
import type { HostPacer } from '../../shared/politeness.ts';
import { MAX_VIEWPORTS, viewportKey, viewportSetup } from '../../shared/viewports.ts';

export interface TabPoolOptions {
  browser: BrowserProvider;
  policy: TargetPolicy;
  pageLoadTimeoutMs: number;
  /**
   * Tabs open at once, idle ones included: the worker's page-scan slots, per viewport in use (a
   * crawl checking desktop and mobile keeps a tab of each per slot, so its pages reuse both).
   */
  slots: number;
  /** A tab is replaced by a fresh one after this many pages (`TAB_MAX_PAGES`). */
  maxPagesPerTab?: number;
  /** Chromium is replaced by a fresh one after this many pages, once its tabs are done (`BROWSER_MAX_PAGES`). */
  maxPagesPerBrowser?: number;
  /** A tab whose page's JavaScript heap ends above this is replaced. */
  maxHeapBytes?: number;
  /** An idle tab waits this long for its owner's next page, then closes. */
  idleMs?: number;
  /** The hosts' pacing, honoured by every document a tab loads (see OpenTabOptions.pacer). */
  pacer?: HostPacer;
  logger?: Logger;
}

export const DEFAULT_TAB_MAX_PAGES = 100;
export const DEFAULT_BROWSER_MAX_PAGES = 2000;
const DEFAULT_MAX_HEAP_BYTES = 512 * 1024 * 1024;
const DEFAULT_IDLE_MS = 20_000;

/** The renderer crashed while the page was scanned; the tab is gone and the page may be tried once more. */
export class TabCrashedError extends Error {
  override name = 'TabCrashedError';
}

export interface TabPoolStats {
  /** Tabs open now, and how many of them wait for their owner's next page. */
  open: number;
  idle: number;
  /** Tabs opened, and pages loaded in a tab that had already loaded one, since the start. */
  opened: number;
  reused: number;
  browsersRetired: number;
  /** New owners that got the spare tab (see `warm`). */
  spares: number;
}

/**
 * The worker's page-scan tabs: one per slot and owner (a crawl, or a single-page scan), navigated
 * from page to page. A tab is only ever handed back to the owner it was opened for, so nothing a
 * page of one crawl leaves in its context (cookies, storage, cache, service workers) can reach
 * another crawl's or scan's page. Tabs are replaced after `maxPagesPerTab` pages, when their
 * page's heap grew past `maxHeapBytes`, or when they broke; Chromium itself after
 * `maxPagesPerBrowser` pages, once the tabs still on it are done.
 */
export interface TabPool {
  /**
   * Runs `fn` in a tab of `owner`'s. `keep: false` closes the tab afterwards (a single-page scan
   * has no next page). A renderer crash inside `fn` is thrown as TabCrashedError. `auth` is asked
   * only when a new tab is opened for `owner` (an owner is one crawl, so one site and its set-up).
   * `viewport` (default desktop): the owner's tabs of one viewport are never handed out for another.
   */
  use<T>(owner: string, fn: (tab: Tab) => Promise<T>, opts?: { keep?: boolean; auth?: () => Promise<SiteAuthLoad>; viewport?: ViewportName }): Promise<T>;
  /**
   * Launches Chromium and opens one spare tab that has never loaded a page, so the next owner
   * (a new crawl or scan) starts at once instead of waiting for a browser and a context. Called
   * when the worker starts; a spare that is taken is replaced in the background.
   */
  warm(): void;
  stats(): TabPoolStats;
  close(): Promise<void>;
}

interface Entry {
  owner: string;
  /** viewportKey of the tab's viewport. */
  viewport: string;
  tab: Tab;
  idleSince?: number;
  timer?: NodeJS.Timeout;
}

export function createTabPool(opts: TabPoolOptions): TabPool {
  const maxPagesPerTab = opts.maxPagesPerTab ?? DEFAULT_TAB_MAX_PAGES;
  const maxPagesPerBrowser = opts.maxPagesPerBrowser ?? DEFAULT_BROWSER_MAX_PAGES;
  const maxHeapBytes = opts.maxHeapBytes ?? DEFAULT_MAX_HEAP_BYTES;
  const idleMs = opts.idleMs ?? DEFAULT_IDLE_MS;
  const entries = new Set<Entry>();
  const pagesOn = new WeakMap<Browser, number>();
  const retired = new Set<Browser>();
  const stats = { opened: 0, reused: 0, browsersRetired: 0, spares: 0 };

  async function closeEntry(e: Entry): Promise<void> {
    entries.delete(e);
    clearTimeout(e.timer);
    await e.tab.close();
    // A retired Chromium goes once the last tab on it has.
    const b = e.tab.browser;
    if (retired.has(b) && ![...entries].some((x) => x.tab.browser === b)) {
      retired.delete(b);
      await b.close().catch(() => {});
    }
  }

  async function acquire(owner: string, viewport: ViewportName, auth?: () => Promise<SiteAuthLoad>): Promise<Entry> {
    const key = viewportKey(viewport);
    for (const e of entries) {
      if (e.owner !== owner || e.viewport !== key || e.idleSince === undefined) continue;
      if (e.tab.broken) {
        await closeEntry(e);
        continue;
      }
      clearTimeout(e.timer);
      e.idleSince = undefined;
      stats.reused++;
      return e;
    }
    // Room for a new tab: the longest-idle tabs of other owners make way. Each viewport in use
    // has the slots' count of tabs (desktop alone: the slots, as before viewports), up to the
    // viewports a crawl may ask for; past that idle tabs are closed for new ones.
    const cap = opts.slots * Math.min(MAX_VIEWPORTS, new Set([key, ...[...entries].map((e) => e.viewport)]).size);
    const idle = [...entries].filter((e) => e.idleSince !== undefined).sort((a, b) => a.idleSince! - b.idleSince!);
    while (entries.size >= cap && idle.length) await closeEntry(idle.shift()!);
    let browser = await opts.browser.get();
    if ((pagesOn.get(browser) ?? 0) >= maxPagesPerBrowser) {
      opts.logger?.info({ pages: pagesOn.get(browser) }, 'replacing Chromium after its page budget');
      retired.add(browser);
      stats.browsersRetired++;
      opts.browser.retire();
      for (const e of [...entries]) if (e.tab.browser === browser && e.idleSince !== undefined) await closeEntry(e);
      if (![...entries].some((x) => x.tab.browser === browser)) {
        retired.delete(browser);
        await browser.close().catch(() => {});
      }
      browser = await opts.browser.get();
    }
    const load = await auth?.();
    // Without a set-up at the desktop window, the spare tab fits any owner: it never loaded a page.
    if (key === 'desktop' && (load === undefined || load.kind === 'none')) {
      const ready = await takeSpare(browser);
      if (ready) {
        stats.opened++;
        stats.spares++;
        const e: Entry = { owner, viewport: key, tab: ready };
        entries.add(e);
        warm();
        return e;
      }
    }
    const tab = await openTab({
      browser,
      policy: opts.policy,
      pageLoadTimeoutMs: opts.pageLoadTimeoutMs,
      ...(opts.pacer ? { pacer: opts.pacer } : {}),
      ...(key === 'desktop' ? {} : { viewport: viewportSetup(viewport) }),
      ...(load?.kind === 'auth' ? { auth: load.auth } : load?.kind === 'unavailable' ? { authUnavailable: load.message } : {}),
    });
    stats.opened++;
    const e: Entry = { owner, viewport: key, tab };
    entries.add(e);
    return e;
  }

  /** A desktop tab without a set-up opened ahead of need, and its opening while under way. */
  let spare: Tab | undefined;
  let opening: Promise<void> | undefined;
  let closed = false;
  function warm(): void {
    if (spare || opening || closed) return;
    opening = (async () => {
      try {
        const browser = await opts.browser.get();
        const tab = await openTab({ browser, policy: opts.policy, pageLoadTimeoutMs: opts.pageLoadTimeoutMs, ...(opts.pacer ? { pacer: opts.pacer } : {}) });
        if (closed) await tab.close();
        else spare = tab;
      } catch (err) {
        opts.logger?.warn({ err: (err as Error).message }, 'could not open a spare tab; the next page opens its own');
      } finally {
        opening = undefined;
      }
    })();
  }
  /** The spare tab if it is on `browser` (one being opened is waited for), else none. */
  async function takeSpare(browser: Browser): Promise<Tab | undefined> {
    await opening;
    const tab = spare;
    spare = undefined;
    if (!tab) return undefined;
    if (tab.browser === browser && !tab.broken) return tab;
    await tab.close();
    return undefined;
  }

  async function release(e: Entry, keep: boolean): Promise<void> {
    const { tab } = e;
    pagesOn.set(tab.browser, (pagesOn.get(tab.browser) ?? 0) + 1);
    const worn = tab.pages >= maxPagesPerTab || retired.has(tab.browser) || (keep && (await tab.heapBytes()) > maxHeapBytes);
    if (!keep || tab.broken || worn) {
      await closeEntry(e);
      return;
    }
    e.idleSince = Date.now();
    e.timer = setTimeout(() => void closeEntry(e), idleMs);
    e.timer.unref();
  }

  return {
    async use(owner, fn, useOpts = {}) {
      const e = await acquire(owner, useOpts.viewport ?? 'desktop', useOpts.auth);
      try {
        return await fn(e.tab);
      } catch (err) {
        if (e.tab.crashed) throw new TabCrashedError(`the browser tab crashed: ${(err as Error).message?.split('\n')[0] ?? err}`, { cause: err });
        throw err;
      } finally {
        await release(e, useOpts.keep ?? true);
      }
    },
    stats() {
      const idle = [...entries].filter((e) => e.idleSince !== undefined).length;
      return { open: entries.size, idle, ...stats };
    },
    warm,
    async close() {
      closed = true;
      await opening;
      const last = spare;
      spare = undefined;
      await Promise.all([...[...entries].map(closeEntry), last?.close()]);
    },
  };
}
