/**
 * A picture of each problem: the failing element in its context, outlined, as a small PNG. Taken
 * right after the engines ran on the page's default state, so the picture shows what they saw.
 *
 * The outline is an overlay of our own (absolutely placed over the element's box, pointer-events
 * none, the highest z-index, inline styles marked important), so the page's layout is untouched;
 * it is removed after each shot and the page's scroll position is put back at the end. The page
 * is hostile: it may remove the overlay, lie about boxes, throw or loop. Every step is bounded by
 * the page's budget and nothing here throws: a finding whose element cannot be found, has no box
 * or does not fit the byte limit simply has no picture.
 */
import type { Page } from 'playwright';
import type { FindingDraft } from '../../shared/findings.ts';
import { pngSize } from '../../shared/png-size.ts';
import { CLIP_STEPS, clipAround, type Box } from './clip.ts';

/** About 40 KB per picture. */
export const SCREENSHOT_MAX_BYTES = 40 * 1024;
export const SCREENSHOT_MIME = 'image/png';

export interface ElementScreenshot {
  mime: typeof SCREENSHOT_MIME;
  image: Buffer;
  width: number;
  height: number;
}

/** A finding's picture: the finding is named by its rule and element (as the scan reported it). */
export interface FindingScreenshot extends ElementScreenshot {
  ruleId: string;
  elementSelector: string;
}

/** What the scan asks for: which findings get a picture (the caller's policy), and the page's time budget. */
export interface ScreenshotHook {
  /** Picks, among the page's default-state findings, those to picture (in order; may read what a crawl already has). */
  pick(findings: readonly FindingDraft[]): Promise<readonly FindingDraft[]> | readonly FindingDraft[];
  /** All pictures of one page together take at most this long. */
  budgetMs: number;
  maxBytes?: number;
}

interface Marked {
  box: Box;
}

/**
 * In the page: finds the element (`a >>> b` steps into an open shadow root or a same-origin frame),
 * scrolls it to the middle of the viewport and lays the outline over its box. Self-contained: it is
 * serialised into the page.
 */
function markInPage(arg: { selector: string; id: string }): Marked | null {
  const parts = arg.selector.split(' >>> ');
  let root: Document | ShadowRoot = document;
  const frames: Element[] = [];
  let el: Element | null = null;
  for (let i = 0; i < parts.length; i++) {
    el = root.querySelector(parts[i]!);
    if (!el) return null;
    if (i === parts.length - 1) break;
    if (el.shadowRoot) root = el.shadowRoot;
    else if (el.localName === 'iframe' || el.localName === 'frame') {
      const doc: Document | null = (el as HTMLIFrameElement).contentDocument;
      if (!doc) return null;
      frames.push(el);
      root = doc;
    } else return null;
  }
  if (!el) return null;
  el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' as ScrollBehavior });
  const r = el.getBoundingClientRect();
  let x = r.left;
  let y = r.top;
  for (const f of frames) {
    const fr = f.getBoundingClientRect();
    x += fr.left + f.clientLeft;
    y += fr.top + f.clientTop;
  }
  const box = { x, y, width: r.width, height: r.height };
  if (!(box.width > 0 || box.height > 0)) return null;
  const pad = 6;
  const o = document.createElement(`a11y-audit-outline-${arg.id}`);
  const css: Record<string, string> = {
    all: 'initial',
    position: 'fixed',
    display: 'block',
    left: `${x - pad}px`,
    top: `${y - pad}px`,
    width: `${box.width + 2 * pad}px`,
    height: `${box.height + 2 * pad}px`,
    'box-sizing': 'border-box',
    border: '4px solid #e6007e',
    outline: '2px solid #ffffff',
    'box-shadow': '0 0 0 4px #000000',
    'pointer-events': 'none',
    'z-index': '2147483647',
    margin: '0',
    padding: '0',
    transform: 'none',
    opacity: '1',
    visibility: 'visible',
  };
  for (const [k, v] of Object.entries(css)) o.style.setProperty(k, v, 'important');
  o.setAttribute('aria-hidden', 'true');
  document.documentElement.appendChild(o);
  return { box };
}

function unmarkInPage(id: string): void {
  for (const o of document.querySelectorAll(`a11y-audit-outline-${id}`)) o.remove();
}

/** Settles with the promise's value, or `undefined` once `ms` have passed or it failed. */
async function within<T>(ms: number, p: Promise<T>): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), Math.max(0, ms));
  });
  try {
    return await Promise.race([p.catch(() => undefined), late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Pictures the elements of `selectors` on `page` (in order, until the budget is spent), each as a
 * PNG of at most `maxBytes`. Keyed by selector; an element without a picture is absent.
 */
export async function captureElements(
  page: Page,
  selectors: readonly string[],
  opts: { budgetMs: number; maxBytes?: number; signal?: AbortSignal },
): Promise<Map<string, ElementScreenshot>> {
  const maxBytes = opts.maxBytes ?? SCREENSHOT_MAX_BYTES;
  const end = performance.now() + opts.budgetMs;
  const left = () => end - performance.now();
  const shots = new Map<string, ElementScreenshot>();
  const id = Math.random().toString(36).slice(2, 10);
  const scroll = await within(left(), page.evaluate(() => ({ x: window.scrollX, y: window.scrollY })));
  try {
    for (const selector of selectors) {
      if (left() <= 0 || opts.signal?.aborted || page.isClosed()) break;
      if (shots.has(selector)) continue;
      try {
        const viewport = page.viewportSize();
        const marked = viewport ? await within(left(), page.evaluate(markInPage, { selector, id })) : undefined;
        if (!marked || !viewport) continue;
        for (const limits of CLIP_STEPS) {
          const clip = clipAround(marked.box, viewport, limits);
          if (!clip || left() <= 0) break;
          const image = await within(left(), page.screenshot({ clip, type: 'png', scale: 'css', caret: 'hide', timeout: Math.max(1, Math.round(left())) }));
          if (!image) break;
          if (image.length > maxBytes) continue;
          const size = pngSize(image);
          if (size) shots.set(selector, { mime: SCREENSHOT_MIME, image, width: size.width, height: size.height });
          break;
        }
      } finally {
        await within(Math.min(2000, Math.max(250, left())), page.evaluate(unmarkInPage, id));
      }
    }
  } finally {
    if (scroll && typeof scroll.x === 'number' && typeof scroll.y === 'number') {
      await within(1000, page.evaluate((s) => window.scrollTo(s.x, s.y), scroll));
    }
  }
  return shots;
}

/**
 * The scan's hook: the findings of the page's default state (no `state`) that `hook` picks, each
 * with its picture when one could be taken. Never throws and never takes much longer than the budget.
 */
export async function screenshotFindings(page: Page, findings: readonly FindingDraft[], hook: ScreenshotHook, signal?: AbortSignal): Promise<FindingScreenshot[]> {
  const started = performance.now();
  try {
    const candidates = findings.filter((f) => !f.state && f.elementSelector);
    if (!candidates.length) return [];
    const picked = await within(hook.budgetMs, Promise.resolve(hook.pick(candidates)));
    if (!picked?.length) return [];
    const shots = await captureElements(
      page,
      picked.map((f) => f.elementSelector),
      { budgetMs: hook.budgetMs - (performance.now() - started), maxBytes: hook.maxBytes, signal },
    );
    return picked.flatMap((f) => {
      const s = shots.get(f.elementSelector);
      return s ? [{ ...s, ruleId: f.ruleId, elementSelector: f.elementSelector }] : [];
    });
  } catch {
    return [];
  }
}
