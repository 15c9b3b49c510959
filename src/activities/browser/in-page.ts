import axeCore from 'axe-core';
import type { Frame, Page } from 'playwright';
import { customRulesSource } from './custom-rules.ts';

/**
 * axe with the service's own rules appended, built once per process. It marks itself, so that a
 * page's own copy of axe (some sites bundle one) is never taken for it.
 */
export const AXE_WITH_CUSTOM_RULES = `${axeCore.source}${customRulesSource('en')};${countingReporter.toString()};countingReporter();window.__a11yAxe = window.axe;`;

/**
 * axe's v1 report plus, per rule, how many elements passed it (`passCounts`), counted before
 * `resultTypes` trims the passes to one element each: the reports say how many elements were
 * checked and passed without the page copying every passing element out.
 */
function countingReporter(): void {
  type Raw = Array<{ id: string; passes?: unknown[] }>;
  type Reporter = (raw: Raw, options: unknown, resolve: (out: Record<string, unknown>) => void, reject: (e: unknown) => void) => void;
  const axe = (window as unknown as { axe: { getReporter(n: string): Reporter; addReporter(n: string, r: Reporter): void } }).axe;
  axe.addReporter('a11y-audit', (raw, options, resolve, reject) => {
    const passCounts: Record<string, number> = {};
    for (const r of raw) passCounts[r.id] = r.passes?.length ?? 0;
    axe.getReporter('v1')(raw, options, (out) => resolve({ ...out, passCounts }), reject);
  });
}

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
    const w = window as unknown as { axe?: unknown; __a11yAxe?: unknown; __a11yAudit?: unknown };
    return { axe: !!w.__a11yAxe && w.axe === w.__a11yAxe, helpers: !!w.__a11yAudit };
  });
  if (!has.axe) await page.evaluate(AXE_WITH_CUSTOM_RULES);
  if (!has.helpers) await page.evaluate(installHelpers);
}

/** axe's result lists, as far as the engines read them. */
export interface AxeRunResults {
  violations: unknown[];
  incomplete: unknown[];
  passes: unknown[];
  /** Elements that passed, per rule id (passes themselves keep one element each). */
  passCounts: Record<string, number>;
}

/** Waits this long for axe to be set up in a frame; a frame that does not answer is left out, as axe's own runner does. */
const FRAME_INJECT_MS = 1000;

/**
 * Runs axe in the page itself, with the copy `ensureInPage` put there once per document. A page
 * without frames gets one `axe.run`. With frames, axe runs in each frame on its own
 * (`runPartial`, cross-origin frames included, each frame reached through Playwright rather than
 * through postMessage) and the results are put together in the page (`finishRun`): the same
 * results as @axe-core/playwright's `analyze()`, without the extra page it opens per call to
 * finish the run, which cost a new renderer process per scanned page.
 */
export async function runAxe(page: Page, runOptions: Record<string, unknown>): Promise<AxeRunResults> {
  const options = { ...runOptions, reporter: 'a11y-audit' };
  await ensureInPage(page);
  if (page.frames().length === 1) {
    return page.evaluate((o) => (window as unknown as { axe: { run(c: Document, o: unknown): Promise<AxeRunResults> } }).axe.run(document, o), options);
  }
  const partials = await partialRun(page.mainFrame(), { exclude: [], include: [] }, options, true);
  return page.evaluate(
    ({ partials, options }) => (window as unknown as { axe: { finishRun(p: unknown[], o: unknown): Promise<AxeRunResults> } }).axe.finishRun(partials, options),
    { partials, options },
  );
}

type AxeWindow = { axe: { utils: { getFrameContexts(c: unknown): Array<{ frameSelector: unknown; frameContext: unknown }>; shadowSelect(s: unknown): Element | null }; runPartial(c: unknown, o: unknown): Promise<unknown> } };

/**
 * One frame's partial result followed by its frames', depth first, in the order `finishRun`
 * expects; a frame that fails stands as one `null` for itself and all frames inside it.
 */
async function partialRun(frame: Frame, context: unknown, options: Record<string, unknown>, top: boolean): Promise<unknown[]> {
  try {
    if (!top) {
      await Promise.race([frame.evaluate(AXE_WITH_CUSTOM_RULES), new Promise((_, reject) => setTimeout(() => reject(new Error('axe did not start in the frame')), FRAME_INJECT_MS))]);
    }
    const frameContexts = await frame.evaluate((c) => (window as unknown as AxeWindow).axe.utils.getFrameContexts(c), context);
    const own = frame.evaluate(({ c, o }) => (window as unknown as AxeWindow).axe.runPartial(c, o), { c: context, o: options });
    own.catch(() => {});
    const children: unknown[] = [];
    for (const { frameSelector, frameContext } of frameContexts) {
      const handle = await frame.evaluateHandle((s) => (window as unknown as AxeWindow).axe.utils.shadowSelect(s), frameSelector).catch(() => null);
      const child = await handle?.asElement()?.contentFrame().catch(() => null);
      await handle?.dispose().catch(() => {});
      children.push(...(child ? await partialRun(child, frameContext, options, false) : [null]));
    }
    return [await own, ...children];
  } catch (err) {
    if (top) throw err;
    return [null];
  }
}
