/**
 * Collects the candidates of AI-assisted judgement from a loaded page (only when a model is
 * configured: see src/enrichment/judge). One bounded in-page call: elements looked at per kind,
 * candidates per kind and every string's length are capped, and the call has its own time limit;
 * a page that breaks it yields no candidates, never a failed scan.
 */
import type { Page } from 'playwright';
import { JUDGEMENT_CAPS, JUDGEMENT_RULES, type JudgementCandidate, type PageCandidates } from '../../shared/judgement.ts';
import type { FindingDraft } from '../../shared/findings.ts';
import { ensureInPage } from '../session/in-page.ts';

/** Words of instructions that may rely on the senses alone (F14, F26): a verb of doing or finding, then a shape, colour, place, size or sound. */
const SENSORY_SOURCE =
  '\\b(click|press|tap|select|choose|use|see|find|follow|look|shown|listed|located|hear|push)\\b[^.!?]{0,80}\\b(left|right|above|below|top|bottom|round|square|circle|circular|triangle|red|green|blue|yellow|orange|colou?red|icon|sound|beep|tone|chime|large|small|big|sidebar|corner|arrow)\\b';

interface CollectArg {
  caps: typeof JUDGEMENT_CAPS;
  sensorySource: string;
}

/** Runs in the page: self-contained, uses `window.__a11yAudit` (see ensureInPage). */
function collectInPage(arg: CollectArg): PageCandidates {
  type Helpers = {
    withTree<T>(fn: () => T): T;
    describe(el: Element): { selector: string; html: string };
    name(el: Element): string;
    rendered(el: Element): boolean;
  };
  const A = (window as unknown as { __a11yAudit: Helpers }).__a11yAudit;
  const caps = arg.caps;
  const squash = (s: string | null | undefined) => (s ?? '').replace(/\s+/g, ' ').trim();
  const cap = (s: string | null | undefined, n: number) => {
    const t = squash(s);
    return t.length > n ? `${t.slice(0, n - 1)}…` : t;
  };
  const pageLang = squash(document.documentElement.getAttribute('lang')) || null;
  const out: JudgementCandidate[] = [];
  const counts: Record<string, number> = {};
  const room = (kind: JudgementCandidate['kind']) => (counts[kind] ?? 0) < caps.perKind[kind];
  const add = (kind: JudgementCandidate['kind'], el: Element, text: string, context: string, extra?: Record<string, string>) => {
    const d = A.describe(el);
    const ex: Record<string, string> = {};
    for (const [k, v] of Object.entries(extra ?? {})) if (v) ex[k] = cap(v, caps.extra);
    out.push({
      kind,
      selector: d.selector.slice(0, caps.selector),
      html: cap(d.html, caps.html),
      text: cap(text, caps.text),
      context: cap(context, caps.context),
      ...(Object.keys(ex).length ? { extra: ex } : {}),
    });
    counts[kind] = (counts[kind] ?? 0) + 1;
  };
  const some = (selector: string) => Array.from(document.querySelectorAll(selector)).slice(0, caps.scanPerKind);
  /** The text of the nearest block around an element: its sentence's paragraph, list item, cell or figure. */
  const around = (el: Element) => {
    const block = el.closest('p, li, td, th, dd, dt, figure, caption, blockquote, h1, h2, h3, h4, h5, h6, label, legend') ?? el.parentElement;
    return squash(block instanceof HTMLElement ? block.innerText : block?.textContent).slice(0, 600);
  };
  const fileName = (src: string) => {
    try {
      return decodeURIComponent(new URL(src, location.href).pathname.split('/').pop() ?? '');
    } catch {
      return '';
    }
  };

  A.withTree(() => {
    const mainHeading = squash(document.querySelector('h1')?.textContent);
    // The title, against the page's main heading and its first text.
    const title = document.querySelector('title');
    const titleText = squash(document.title);
    if (title && titleText) {
      const body = Array.from(document.querySelectorAll('p'))
        .slice(0, 40)
        .filter((p) => A.rendered(p))
        .slice(0, 5)
        .map((p) => squash(p.innerText))
        .join(' ')
        .slice(0, 300);
      add('title', title, titleText, `${mainHeading ? `Main heading: ${mainHeading}. ` : ''}${body}`);
    }
    // Images with a non-empty text alternative (missing alt is axe's, decided).
    for (const img of some('img[alt], input[type="image"][alt]')) {
      if (!room('alt')) break;
      const alt = squash(img.getAttribute('alt'));
      if (!alt || !A.rendered(img)) continue;
      const r = img.getBoundingClientRect();
      if (r.width * r.height < 100) continue;
      const src = img.getAttribute('src') ?? '';
      const link = img.closest('a[href], button');
      add('alt', img, alt, around(img), { file: src.startsWith('data:') ? 'inline data' : fileName(src), ...(link ? { inside: link.tagName === 'A' ? 'link' : 'button' } : {}) });
    }
    // Links with a name (a link without one is axe's, decided).
    for (const a of some('a[href], [role="link"]')) {
      if (!room('link')) break;
      if (!A.rendered(a)) continue;
      const name = squash(A.name(a));
      if (!name) continue;
      const href = a.getAttribute('href') ?? '';
      let dest = '';
      try {
        const u = new URL(href, location.href);
        dest = u.origin === location.origin ? `${u.pathname}${u.hash}` : `${u.hostname}${u.pathname}`;
      } catch {
        dest = href;
      }
      add('link', a, name, around(a), { destination: dest });
    }
    // Headings and their section's first text.
    for (const h of some('h1, h2, h3, h4, h5, h6, [role="heading"]')) {
      if (!room('heading')) break;
      if (!A.rendered(h)) continue;
      const text = squash(A.name(h) || h.textContent);
      if (!text) continue;
      let next = '';
      for (let s = h.nextElementSibling, i = 0; s && i < 4 && next.length < 300; s = s.nextElementSibling, i++) {
        if (/^H[1-6]$/.test(s.tagName)) break;
        if (!A.rendered(s)) continue;
        next += ` ${squash(s instanceof HTMLElement ? s.innerText : s.textContent)}`;
      }
      add('heading', h, text, next.trim());
    }
    // Form fields and their names (a field without one is axe's, decided).
    for (const f of some('input:not([type="hidden"]):not([type="submit"]):not([type="button"]):not([type="reset"]):not([type="image"]), select, textarea')) {
      if (!room('label')) break;
      if (!A.rendered(f)) continue;
      const name = squash(A.name(f));
      if (!name) continue;
      const form = f.closest('form, fieldset');
      const legend = squash(form?.querySelector('legend')?.textContent);
      add('label', f, name, legend ? `In "${legend}".` : '', {
        type: f.tagName === 'INPUT' ? (f.getAttribute('type') ?? 'text') : f.tagName.toLowerCase(),
        placeholder: f.getAttribute('placeholder') ?? '',
        autocomplete: f.getAttribute('autocomplete') ?? '',
      });
    }
    // Passages that may be in another language than the page and carry no lang of their own:
    // letters outside ASCII, or markup that often holds a foreign phrase (i, q, cite, blockquote).
    // Not on a page without a language of its own: that is 3.1.1's failure, decided by the engines.
    const inherited = (el: Element) => squash(el.closest('[lang]')?.getAttribute('lang')) || '';
    for (const p of pageLang ? some('p, li, blockquote, q, i, cite, td, dd, figcaption') : []) {
      if (!room('lang')) break;
      const text = squash(p.textContent);
      if (text.length < 12 || text.length > 600 || p.hasAttribute('lang')) continue;
      if (inherited(p).toLowerCase() !== (pageLang ?? '').toLowerCase()) continue;
      const letters = text.match(/\p{L}/gu)?.length ?? 0;
      const nonAscii = text.match(/[^\u0000-\u007F\s\d\p{P}]/gu)?.length ?? 0;
      const marked = /^(I|Q|CITE|BLOCKQUOTE)$/.test(p.tagName) && text.split(' ').length >= 3;
      if (!(letters > 0 && nonAscii / letters >= 0.15) && !marked) continue;
      if (!A.rendered(p)) continue;
      add('lang', p, text, marked ? around(p) : '', { pageLang: pageLang ?? 'none given' });
    }
    // Instructions that may rely on shape, colour, size, position or sound alone.
    const sensory = new RegExp(arg.sensorySource, 'i');
    for (const b of some('p, li, td, dd, label, legend, figcaption, span, div')) {
      if (!room('sensory')) break;
      const own = Array.from(b.childNodes)
        .filter((n) => n.nodeType === Node.TEXT_NODE || (n.nodeType === Node.ELEMENT_NODE && /^(A|B|STRONG|EM|I|SPAN|CODE|KBD)$/.test((n as Element).tagName)))
        .map((n) => n.textContent ?? '')
        .join('');
      const text = squash(own);
      if (text.length < 15) continue;
      const sentence = text.split(/(?<=[.!?])\s+/).find((s) => sensory.test(s));
      if (!sentence || !A.rendered(b)) continue;
      add('sensory', b, sentence, text === sentence ? '' : text);
    }
  });
  return { pageLang, candidates: out };
}

/**
 * The page's candidates, without those a confirmed finding already decides (the same element
 * failing the same criterion). Undefined when the page would not let them be read in time.
 */
export async function collectJudgementCandidates(page: Page, known: readonly FindingDraft[]): Promise<PageCandidates | undefined> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await ensureInPage(page);
    const found = await Promise.race([
      page.evaluate(collectInPage, { caps: JUDGEMENT_CAPS, sensorySource: SENSORY_SOURCE }),
      new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), JUDGEMENT_CAPS.timeMs))),
    ]);
    if (!found) return undefined;
    // Decided under any criterion a confirmed finding fails (a confirmed link-name is 4.1.2 first, 2.4.4 too).
    const decided = new Set(
      known.filter((f) => f.type === 'confirmed').flatMap((f) => (f.wcagCriteria?.length ? f.wcagCriteria : [f.wcagCriterion]).map((c) => `${c}\u0000${f.elementSelector}`)),
    );
    return { pageLang: found.pageLang, candidates: found.candidates.filter((c) => !decided.has(`${JUDGEMENT_RULES[c.kind].criterion}\u0000${c.selector}`)) };
  } catch {
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}
