import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { BrowserContext, Frame, Page } from 'playwright';
import { customRulesSource } from '../engines/links/link-rules.ts';

/**
 * axe-core's minified build (the package's `source` export is the 1.5 MB unminified one, which
 * costs a page about ten times as long to receive and compile).
 */
const AXE_MIN = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe with the service's own rules appended, built once per process. It marks itself, so that a
 * page's own copy of axe (some sites bundle one) is never taken for it.
 */
export const AXE_WITH_CUSTOM_RULES = `${AXE_MIN};\n${customRulesSource('en')};${auditReporter.toString()};auditReporter();window.__a11yAxe = window.axe;`;

/**
 * Registered once per browser context (see `installAxeLoader`): every document then starts with
 * a function that sets axe up when called. Defining it costs a document next to nothing (V8 only
 * pre-parses a function body it does not run), so the source is sent to Chromium once per context
 * instead of once per page: loading axe then takes about 30 ms instead of about 300 ms here.
 * The property cannot be replaced by the page; a document without it gets the source sent
 * (`ensureAxe`).
 */
const AXE_LOADER = `Object.defineProperty(window, '__a11yLoadAxe', { value: function () {\n${AXE_WITH_CUSTOM_RULES}\n}, enumerable: false, writable: false, configurable: false });`;

/** Lets every document of the context set axe up without the source being sent to it again. */
export async function installAxeLoader(context: BrowserContext): Promise<void> {
  await context.addInitScript(AXE_LOADER);
}

/**
 * axe's v1 report, trimmed to what the engines read, plus per rule how many elements passed it
 * (`passCounts`), counted before `resultTypes` trims the passes: the reports say how many
 * elements were checked and passed without the page copying every passing element out. Passes
 * keep no nodes, checks no `relatedNodes`, and the inapplicable rules are left out: on long
 * pages these were most of what the page had to serialise.
 */
function auditReporter(): void {
  type Check = { relatedNodes?: unknown };
  type Node = { any?: Check[]; all?: Check[]; none?: Check[] };
  type Rule = { id: string; passes?: unknown[]; nodes?: Node[] };
  type Reporter = (raw: Rule[], options: unknown, resolve: (out: Record<string, unknown>) => void, reject: (e: unknown) => void) => void;
  const axe = (window as unknown as { axe: { getReporter(n: string): Reporter; addReporter(n: string, r: Reporter): void } }).axe;
  const slim = (rules: unknown) =>
    (rules as Rule[]).map((r) => ({
      ...r,
      nodes: (r.nodes ?? []).map((n) => ({
        ...n,
        any: n.any?.map(({ relatedNodes: _, ...c }) => c),
        all: n.all?.map(({ relatedNodes: _, ...c }) => c),
        none: n.none?.map(({ relatedNodes: _, ...c }) => c),
      })),
    }));
  axe.addReporter('a11y-audit', (raw, options, resolve, reject) => {
    const passCounts: Record<string, number> = {};
    for (const r of raw) passCounts[r.id] = r.passes?.length ?? 0;
    axe.getReporter('v1')(
      raw,
      options,
      (out) =>
        resolve({
          violations: slim(out.violations),
          incomplete: slim(out.incomplete),
          passes: (out.passes as Rule[]).map((r) => ({ ...r, nodes: [] })),
          passCounts,
        }),
      reject,
    );
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
  /** A fresh set of tools for one run of a collector of facts; its clock starts now. */
  collector(): InPageCollector;
}

/**
 * The tools the structure collectors share in the page, made once per run by
 * `window.__a11yAudit.collector()`. Properties, not methods: collectors destructure them.
 */
export interface InPageCollector {
  /** Counts of what was looked at, and milliseconds per part as `ms.<part>`, returned with the facts. */
  examined: Record<string, number>;
  /** Records the milliseconds since the previous split (or since the collector was made) as `ms.<part>`. */
  split: (part: string) => void;
  bump: (key: string, n?: number) => void;
  /** Runs of white space made one space, trimmed; null and undefined give ''. */
  norm: (s: string | null | undefined) => string;
  /** The computed style, read once per element in this run. */
  cs: (el: Element) => CSSStyleDeclaration;
  /** Not rendered, or inside `aria-hidden="true"`. */
  hidden: (el: Element) => boolean;
  /**
   * A blank identity for `el`, filled in by `resolve`: identifying elements needs axe's
   * flattened tree, which is costly to build on large pages, so it is built once at the end, and
   * only if anything was described.
   */
  describe: (el: Element) => { selector: string; html: string };
  /** Checks that need accessible names, run by `resolve` in the same pass. */
  nameChecks: Array<() => void>;
  /**
   * If anything was described: in one `withTree` pass, runs `nameChecks` (a failing one keeps its
   * candidate), then `extra`, then fills in the identities (one that fails stays blank).
   */
  resolve: (extra?: () => void) => void;
  /** Whether `resolve` filled in an identity: a blank one is dropped from the facts. */
  known: (ref: { selector: string }) => boolean;
}

function installHelpers(): void {
  const w = window as unknown as { __a11yAudit?: unknown; axe: any };
  if (w.__a11yAudit) return;
  const kept: Array<WeakRef<Element>> = [];
  const helpers: InPageHelpers = {
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
    collector(): InPageCollector {
      const examined: Record<string, number> = {};
      let lap = performance.now();
      const split = (part: string) => {
        const now = performance.now();
        examined[`ms.${part}`] = Math.round(now - lap);
        lap = now;
      };
      const bump = (k: string, n = 1) => {
        examined[k] = (examined[k] ?? 0) + n;
      };
      const norm = (s: string | null | undefined) => (s ?? '').replace(/\s+/g, ' ').trim();
      const styleCache = new Map<Element, CSSStyleDeclaration>();
      const cs = (el: Element) => {
        let s = styleCache.get(el);
        if (!s) {
          s = getComputedStyle(el);
          styleCache.set(el, s);
        }
        return s;
      };
      const hidden = (el: Element) => !helpers.rendered(el) || el.closest('[aria-hidden="true"]') !== null;
      const pending: Array<{ el: Element; ref: { selector: string; html: string } }> = [];
      const describe = (el: Element) => {
        const ref = { selector: '', html: '' };
        pending.push({ el, ref });
        return ref;
      };
      const nameChecks: Array<() => void> = [];
      const resolve = (extra?: () => void) => {
        if (pending.length === 0) return;
        helpers.withTree(() => {
          for (const check of nameChecks) {
            try {
              check();
            } catch {
              /* keep the candidate */
            }
          }
          extra?.();
          for (const { el, ref } of pending) {
            try {
              const d = helpers.describe(el);
              ref.selector = d.selector;
              ref.html = d.html;
            } catch {
              /* left blank: dropped by known */
            }
          }
        });
      };
      const known = (ref: { selector: string }) => ref.selector !== '';
      return { examined, split, bump, norm, cs, hidden, describe, nameChecks, resolve, known };
    },
  };
  w.__a11yAudit = helpers;
}

/**
 * Makes sure axe (with the service's rules) and the helpers are in the page's main frame, so an
 * engine can run without depending on which engine ran before it.
 */
export async function ensureInPage(page: Page): Promise<void> {
  const has = await page.evaluate(loadAxeHere);
  if (!has.axe) await page.evaluate(AXE_WITH_CUSTOM_RULES);
  if (!has.helpers) await page.evaluate(installHelpers);
}

/**
 * In a page or frame: sets axe up from the context's loader unless the service's axe is already
 * there (a page's own copy of axe does not count). Says whether axe and the helpers are there now.
 */
function loadAxeHere(): { axe: boolean; helpers: boolean } {
  const w = window as unknown as { axe?: unknown; __a11yAxe?: unknown; __a11yAudit?: unknown; __a11yLoadAxe?: () => void };
  const ours = () => !!w.__a11yAxe && w.axe === w.__a11yAxe;
  if (!ours() && typeof w.__a11yLoadAxe === 'function') {
    try {
      w.__a11yLoadAxe();
    } catch {
      // the source is sent instead
    }
  }
  return { axe: ours(), helpers: !!w.__a11yAudit };
}

/** axe in a frame: from the context's loader, else by sending the source. */
async function ensureAxe(frame: Frame): Promise<void> {
  if (!(await frame.evaluate(loadAxeHere)).axe) await frame.evaluate(AXE_WITH_CUSTOM_RULES);
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
      await Promise.race([ensureAxe(frame), new Promise((_, reject) => setTimeout(() => reject(new Error('axe did not start in the frame')), FRAME_INJECT_MS))]);
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
