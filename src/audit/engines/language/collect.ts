import type { AuditWindow } from '../page-helpers.ts';
/**
 * What the language checks read in the page, gathered in one walk of the DOM: the text in the
 * page's default language (`<html lang>`), the own text of each element with a `lang` of its
 * own, the blocks of page-language text long enough to be a passage, and the blocks whose
 * script runs against their direction. Text counts when it is rendered (visible, or present
 * but clipped for screen readers); code, scripts, form fields and `translate="no"` are left out.
 */

export interface LanguageCaps {
  /** Elements visited at most (the walk stops there and says so). */
  maxElements: number;
  /** Characters of page-language text kept (text in `<main>` first). */
  pageChars: number;
  /** Elements with their own `lang` kept, and characters of own text per element. */
  maxParts: number;
  partChars: number;
  /** Blocks of page-language text kept as passages, the letters they need, characters kept. */
  maxBlocks: number;
  blockMinLetters: number;
  blockChars: number;
  /** Blocks examined for their direction, and the letters they need. */
  maxDirBlocks: number;
  dirMinLetters: number;
  /** Blocks of page-language text of any length kept for short passages in another language, and the letters they need. */
  maxSnippets: number;
  snippetMinLetters: number;
}

export const DEFAULT_LANGUAGE_CAPS: LanguageCaps = {
  maxElements: 20_000,
  pageChars: 5_000,
  maxParts: 150,
  partChars: 2_000,
  maxBlocks: 60,
  blockMinLetters: 120,
  blockChars: 1_500,
  maxDirBlocks: 40,
  dirMinLetters: 12,
  maxSnippets: 200,
  snippetMinLetters: 12,
};

export interface LanguagePart {
  /** `__a11yAudit.remember` id. */
  id: number;
  lang: string;
  /** Which attribute gave the language (`xml:lang` only when there is no `lang`). */
  attr: 'lang' | 'xml:lang';
  text: string;
}

export interface LanguageBlock {
  id: number;
  text: string;
}

export interface DirectionBlock {
  id: number;
  /** Letters, and how many of them belong to right-to-left scripts. */
  letters: number;
  rtl: number;
  /** The element's resolved direction. */
  direction: 'ltr' | 'rtl';
  text: string;
}

export interface LanguageFacts {
  htmlLang: string | null;
  htmlXmlLang: string | null;
  pageText: string;
  parts: LanguagePart[];
  blocks: LanguageBlock[];
  /** Blocks of page-language text, short ones too, each with only its own text (not its child blocks'). */
  snippets: LanguageBlock[];
  dirBlocks: DirectionBlock[];
  elements: number;
  truncated: boolean;
}

/**
 * Runs in the page (after `ensureInPage`): self-contained, no imports. Elements of interest are
 * kept with `__a11yAudit.remember`, to be described only if they are reported.
 */
export function collectLanguageFacts(caps: LanguageCaps): LanguageFacts {
  const audit = (window as unknown as AuditWindow).__a11yAudit;
  const html = document.documentElement;
  const SKIP = new Set([
    'script', 'style', 'noscript', 'template', 'code', 'pre', 'kbd', 'samp', 'var', 'textarea', 'select', 'option', 'svg', 'math',
    'iframe', 'frame', 'object', 'embed', 'video', 'audio', 'canvas', 'head', 'title', 'input',
  ]);
  const BLOCK = new Set([
    'body', 'p', 'li', 'dd', 'dt', 'td', 'th', 'blockquote', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'figcaption', 'caption', 'div', 'section',
    'article', 'main', 'aside', 'header', 'footer', 'nav', 'form', 'fieldset', 'legend', 'summary', 'details', 'address', 'table', 'ul', 'ol',
    'dl', 'figure', 'q',
  ]);
  const LETTER = /\p{L}/u;

  interface Ctx {
    owner: number; // -1: page language, -2: an unknown or empty language (left out), >= 0: a part
    block: number;
    inMain: boolean;
  }
  const parts: Array<{ el: Element; lang: string; attr: 'lang' | 'xml:lang'; chunks: string[]; len: number }> = [];
  const blocks: Array<{ el: Element; page: string[]; pageLen: number; all: string[]; allLen: number }> = [];
  const mainText: string[] = [];
  const otherText: string[] = [];
  let mainLen = 0;
  let otherLen = 0;
  let elements = 0;
  let truncated = false;

  const visible = (el: Element): boolean => {
    const check = (el as Element & { checkVisibility?: (o: object) => boolean }).checkVisibility;
    if (!check || check.call(el, { visibilityProperty: true })) return true;
    // `display: contents` has no box of its own but its children render.
    return getComputedStyle(el).display === 'contents';
  };

  const addText = (t: string, ctx: Ctx) => {
    if (!LETTER.test(t)) return;
    if (ctx.owner === -1) {
      if (ctx.inMain && mainLen < caps.pageChars) {
        mainText.push(t);
        mainLen += t.length;
      } else if (!ctx.inMain && otherLen < caps.pageChars) {
        otherText.push(t);
        otherLen += t.length;
      }
    } else if (ctx.owner >= 0) {
      const p = parts[ctx.owner]!;
      if (p.len < caps.partChars) {
        p.chunks.push(t);
        p.len += t.length;
      }
    }
    if (ctx.block >= 0) {
      const b = blocks[ctx.block]!;
      if (ctx.owner === -1 && b.pageLen < caps.blockChars) {
        b.page.push(t);
        b.pageLen += t.length;
      }
      if (b.allLen < caps.blockChars) {
        b.all.push(t);
        b.allLen += t.length;
      }
    }
  };

  const body = document.body;
  const stack: Array<[Node, Ctx]> = body ? [[body, { owner: -1, block: -1, inMain: false }]] : [];
  while (stack.length) {
    const [node, parent] = stack.pop()!;
    if (node.nodeType === Node.TEXT_NODE) {
      addText((node as Text).data, parent);
      continue;
    }
    if (node.nodeType !== Node.ELEMENT_NODE) continue;
    const el = node as Element;
    if (++elements > caps.maxElements) {
      truncated = true;
      break;
    }
    const name = el.localName;
    if (SKIP.has(name) || el.getAttribute('translate') === 'no' || !visible(el)) continue;
    const ctx: Ctx = { ...parent };
    if (name === 'main' || el.getAttribute('role') === 'main') ctx.inMain = true;
    if (el !== html && (el.hasAttribute('lang') || el.hasAttribute('xml:lang'))) {
      const attr = el.hasAttribute('lang') ? 'lang' : 'xml:lang';
      const lang = (el.getAttribute(attr) ?? '').trim();
      if (!lang || parts.length >= caps.maxParts) ctx.owner = -2;
      else {
        parts.push({ el, lang, attr, chunks: [], len: 0 });
        ctx.owner = parts.length - 1;
      }
    }
    if (BLOCK.has(name)) {
      blocks.push({ el, page: [], pageLen: 0, all: [], allLen: 0 });
      ctx.block = blocks.length - 1;
    }
    // Text alternatives of images are text in the element's language too.
    if (name === 'img' || name === 'area') {
      const alt = el.getAttribute('alt');
      if (alt) addText(alt, ctx);
    }
    const kids = el.childNodes;
    for (let i = kids.length - 1; i >= 0; i--) stack.push([kids[i]!, ctx]);
    // Open shadow roots render in place of the light children that are not slotted.
    if (el.shadowRoot) for (let i = el.shadowRoot.childNodes.length - 1; i >= 0; i--) stack.push([el.shadowRoot.childNodes[i]!, ctx]);
  }

  const letters = (s: string) => s.match(/\p{L}/gu)?.length ?? 0;
  const join = (chunks: string[]) => chunks.join(' ').replace(/\s+/g, ' ').trim();

  const outBlocks: LanguageBlock[] = [];
  const snippets: LanguageBlock[] = [];
  const dirBlocks: DirectionBlock[] = [];
  const RTL = /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}\p{Script=Samaritan}\p{Script=Mandaic}\p{Script=Adlam}]/gu;
  for (const b of blocks) {
    if (outBlocks.length < caps.maxBlocks && b.pageLen) {
      const text = join(b.page);
      if (letters(text) >= caps.blockMinLetters) outBlocks.push({ id: audit.remember(b.el), text });
    }
    if (snippets.length < caps.maxSnippets && b.pageLen) {
      const text = join(b.page);
      if (letters(text) >= caps.snippetMinLetters) snippets.push({ id: audit.remember(b.el), text });
    }
    if (dirBlocks.length < caps.maxDirBlocks && b.allLen) {
      const text = join(b.all);
      const n = letters(text);
      if (n < caps.dirMinLetters) continue;
      const rtl = text.match(RTL)?.length ?? 0;
      // Only blocks written mostly in one direction's scripts are candidates (an Arabic paragraph
      // with a brand name or two in Latin letters still is).
      if (rtl / n < 0.6 && rtl > 0) continue;
      let direction: 'ltr' | 'rtl';
      try {
        direction = b.el.matches(':dir(rtl)') ? 'rtl' : 'ltr';
      } catch {
        direction = getComputedStyle(b.el).direction === 'rtl' ? 'rtl' : 'ltr';
      }
      if (getComputedStyle(b.el).unicodeBidi === 'plaintext') continue;
      if ((rtl > 0 && direction === 'ltr') || (rtl === 0 && direction === 'rtl')) {
        dirBlocks.push({ id: audit.remember(b.el), letters: n, rtl, direction, text: text.slice(0, 300) });
      }
    }
  }

  return {
    htmlLang: html.getAttribute('lang'),
    htmlXmlLang: html.getAttribute('xml:lang'),
    pageText: join([...mainText, ...otherText]).slice(0, caps.pageChars),
    parts: parts.map((p) => ({ id: audit.remember(p.el), lang: p.lang, attr: p.attr, text: join(p.chunks) })),
    blocks: outBlocks,
    snippets,
    dirBlocks,
    elements: Math.min(elements, caps.maxElements),
    truncated,
  };
}
