import axeCore from 'axe-core';
import type { Page } from 'playwright';
import { customRulesSource } from './custom-rules.ts';

/** axe with the service's own rules appended, built once per process. */
export const AXE_WITH_CUSTOM_RULES = axeCore.source + customRulesSource('en');

/** What in-page code of the engines can call as `window.__a11yAudit`. */
export interface InPageHelpers {
  /**
   * Runs `fn` with axe's flattened tree set up (needed by `describe`, `name` and axe's commons),
   * and tears it down again unless it was already there.
   */
  withTree<T>(fn: () => T): T;
  /** axe's unique selector and shortened outer HTML for an element: the same identity axe's findings have. */
  describe(el: Element): { selector: string; html: string };
  /** The accessible name, as axe computes it. Needs `withTree`. */
  name(el: Element): string;
  /** Displayed: not display:none / visibility:hidden, has a box. */
  rendered(el: Element): boolean;
  /** Keeps an element under a number, for engines that find elements in one call and describe them in another. */
  remember(el: Element): number;
  recall(id: number): Element | undefined;
}

function installHelpers(): void {
  const w = window as unknown as { __a11yAudit?: unknown; axe: any };
  if (w.__a11yAudit) return;
  const kept: Array<WeakRef<Element>> = [];
  const helpers = {
    withTree<T>(fn: () => T): T {
      const axe = w.axe;
      const own = !axe._tree;
      if (own) axe.setup(document);
      try {
        return fn();
      } finally {
        if (own) axe.teardown();
      }
    },
    describe(el: Element) {
      const axe = w.axe;
      const dq = new axe.utils.DqElement(el);
      const sel = dq.selector as unknown[];
      return { selector: sel.map((s) => (Array.isArray(s) ? s.join(' >>> ') : String(s))).join(' >>> '), html: String(dq.source ?? el.outerHTML) };
    },
    name(el: Element): string {
      const axe = w.axe;
      const vn = axe.utils.getNodeFromTree(el);
      return (vn ? axe.commons.text.accessibleTextVirtual(vn) : axe.commons.text.accessibleText(el)) || '';
    },
    rendered(el: Element): boolean {
      const cs = getComputedStyle(el);
      if (cs.display === 'none' || cs.visibility === 'hidden' || cs.visibility === 'collapse') return false;
      const r = el.getBoundingClientRect();
      return r.width > 0 || r.height > 0 || el.getClientRects().length > 0;
    },
    remember(el: Element): number {
      kept.push(new WeakRef(el));
      return kept.length - 1;
    },
    recall(id: number): Element | undefined {
      return kept[id]?.deref();
    },
  };
  w.__a11yAudit = helpers;
}

/**
 * Makes sure axe (with the service's rules) and the helpers are in the page's main frame, so an
 * engine can run without depending on which engine ran before it.
 */
export async function ensureInPage(page: Page): Promise<void> {
  const has = await page.evaluate(() => {
    const w = window as unknown as { axe?: unknown; __a11yAudit?: unknown };
    return { axe: typeof w.axe === 'object' && w.axe !== null, helpers: !!w.__a11yAudit };
  });
  if (!has.axe) await page.evaluate(AXE_WITH_CUSTOM_RULES);
  if (!has.helpers) await page.evaluate(installHelpers);
}
