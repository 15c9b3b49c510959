import type { Page } from 'playwright';
import { MAX_URL_LENGTH } from '../../shared/limits.ts';
import { MAX_RENDERED_LINKS, type RenderedView } from './rendered-view.ts';

/** The collector's time in the page; past it the page is scanned without its links. */
const COLLECT_TIMEOUT_MS = 3000;
/** Elements looked at, across documents and shadow roots: a page of a million nodes costs a bound, not its size. */
const MAX_ELEMENTS = 200_000;
/** Frames inside frames followed this deep. */
const MAX_FRAME_DEPTH = 3;
/** Characters of visible text hashed and counted. */
const MAX_TEXT = 500_000;

interface Limits {
  maxLinks: number;
  maxUrl: number;
  maxElements: number;
  maxFrameDepth: number;
  maxText: number;
}

/**
 * The rendered page's links and the facts of its view (see RenderedView), read after the page
 * settled. It runs in an isolated world of its own (a separate JavaScript context on the same
 * DOM), so the page's scripts cannot see it, nor replace the built-ins it calls to lie to it; what
 * it returns is checked again here. Anything going wrong (a page that never yields, a closed tab)
 * gives `null`: the scan goes on without the page's links.
 */
export async function collectRenderedView(page: Page, timeoutMs = COLLECT_TIMEOUT_MS): Promise<RenderedView | null> {
  const limits: Limits = { maxLinks: MAX_RENDERED_LINKS, maxUrl: MAX_URL_LENGTH, maxElements: MAX_ELEMENTS, maxFrameDepth: MAX_FRAME_DEPTH, maxText: MAX_TEXT };
  let timer: NodeJS.Timeout | undefined;
  const cdp = await page.context().newCDPSession(page).catch(() => null);
  if (!cdp) return null;
  try {
    const work = (async () => {
      const { frameTree } = await cdp.send('Page.getFrameTree');
      const world = await cdp.send('Page.createIsolatedWorld', { frameId: frameTree.frame.id, worldName: 'a11y-audit-links', grantUniveralAccess: false });
      const r = await cdp.send('Runtime.evaluate', {
        expression: `(${collectInPage.toString()})(${JSON.stringify(limits)})`,
        contextId: world.executionContextId,
        returnByValue: true,
        timeout: timeoutMs,
      });
      return r.exceptionDetails ? null : checked(r.result.value, limits);
    })();
    const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), timeoutMs + 1000)));
    return await Promise.race([work.catch(() => null), late]);
  } finally {
    clearTimeout(timer);
    await cdp.detach().catch(() => {});
  }
}

/** A scan result's `links` and `view` (without its links) from a collected view, or none. */
export function splitView(rendered: RenderedView | null): { links: string[]; view: Omit<RenderedView, 'links'> | null } {
  if (!rendered) return { links: [], view: null };
  const { links, ...view } = rendered;
  return { links, view };
}

/** What came back, as the types say and within the limits, whatever the page did. */
function checked(value: unknown, limits: Limits): RenderedView | null {
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Record<string, unknown>;
  const text = (x: unknown, max: number) => (typeof x === 'string' ? x.slice(0, max) : '');
  const links = Array.isArray(v.links) ? v.links.slice(0, limits.maxLinks).filter((l): l is string => typeof l === 'string' && l.length <= limits.maxUrl && /^https?:\/\//i.test(l)) : [];
  return {
    links: [...new Set(links)],
    textHash: text(v.textHash, 64),
    title: text(v.title, 200),
    heading: text(v.heading, 200),
    words: typeof v.words === 'number' && Number.isFinite(v.words) ? Math.max(0, Math.floor(v.words)) : Number.MAX_SAFE_INTEGER,
    search: v.search === true,
  };
}

/**
 * In the isolated world. Walks the document, its open shadow roots and its same-origin frames
 * (each link resolved against its own document's base), the way extract-links reads served HTML:
 * `a[href]` and `area[href]`, without `rel=nofollow` links and nothing from a document whose
 * robots meta says nofollow. On the way, whether the page offers a search (RenderedView.search).
 */
function collectInPage(limits: Limits): unknown {
  const links = new Set<string>();
  let seen = 0;
  let search = false;
  const searchNames = new Set(['q', 'query', 'search', 's']);
  const nofollow = (doc: Document) => {
    for (const m of Array.from(doc.querySelectorAll('meta[name]'))) {
      if ((m.getAttribute('name') ?? '').toLowerCase() === 'robots' && /\b(nofollow|none)\b/i.test(m.getAttribute('content') ?? '')) return true;
    }
    return false;
  };
  const walk = (root: Document | ShadowRoot, doc: Document, depth: number, follow: boolean) => {
    const all = root.querySelectorAll('*');
    for (let i = 0; i < all.length; i++) {
      if (++seen > limits.maxElements || links.size >= limits.maxLinks) return;
      const el = all[i]!;
      const tag = el.localName;
      if (!search) {
        if (tag === 'search' || /(^|\s)search(\s|$)/i.test(el.getAttribute('role') ?? '')) search = true;
        else if (tag === 'input' && (el.getAttribute('type') ?? '').trim().toLowerCase() === 'search') search = true;
        else if ((tag === 'input' || tag === 'select') && (el as HTMLInputElement).form && searchNames.has((el.getAttribute('name') ?? '').trim().toLowerCase())) search = true;
      }
      if (follow && (tag === 'a' || tag === 'area')) {
        const href = el.getAttribute('href') ?? el.getAttributeNS('http://www.w3.org/1999/xlink', 'href');
        if (href !== null && !/\bnofollow\b/i.test(el.getAttribute('rel') ?? '')) {
          try {
            const u = new URL(href.trim(), doc.baseURI);
            if ((u.protocol === 'http:' || u.protocol === 'https:') && u.href.length <= limits.maxUrl) links.add(u.href);
          } catch {
            // not a URL
          }
        }
      }
      const shadow = (el as HTMLElement).shadowRoot;
      if (shadow) walk(shadow, doc, depth, follow);
      if ((tag === 'iframe' || tag === 'frame') && depth < limits.maxFrameDepth) {
        let inner: Document | null = null;
        try {
          inner = (el as HTMLIFrameElement).contentDocument; // null for another origin's frame
        } catch {
          inner = null;
        }
        if (inner?.documentElement) walk(inner, inner, depth + 1, follow && !nofollow(inner));
      }
    }
  };
  walk(document, document, 0, !nofollow(document));
  const body = document.body;
  const visible = (body?.innerText ?? '').slice(0, limits.maxText).replace(/\s+/g, ' ').trim();
  // cyrb53: a fast 53-bit string hash, good enough to tell two views apart.
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < visible.length; i++) {
    const c = visible.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  const textHash = `${visible.length}:${(4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36)}`;
  const main = document.querySelector('main, [role="main"]') as HTMLElement | null;
  const mainText = main ? main.innerText.slice(0, limits.maxText) : visible;
  const words = (mainText.match(/\S+/g) ?? []).length;
  const headingEl = document.querySelector('h1') ?? document.querySelector('h2, [role="heading"]');
  const heading = ((headingEl as HTMLElement | null)?.innerText ?? '').replace(/\s+/g, ' ').trim().slice(0, 200);
  return { links: Array.from(links), textHash, title: (document.title ?? '').trim().slice(0, 200), heading, words, search };
}
