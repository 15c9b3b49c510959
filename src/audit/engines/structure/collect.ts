import type {
  HeadingCandidate,
  ImageFact,
  LayoutFacts,
  ListCandidate,
  SensoryBlock,
  TextStyle,
} from './facts.ts';
import type { AuditWindow } from '../page-helpers.ts';

/** Upper bounds on the work done in one page. */
export interface CollectCaps {
  tables: number;
  cellsPerTable: number;
  headingElements: number;
  headingCandidates: number;
  brParents: number;
  siblingParents: number;
  images: number;
  textNodes: number;
  sensoryBlocks: number;
  /** Style rules read for `::before`/`::after` content, and elements matched per rule. */
  styleRules: number;
  generatedPerRule: number;
  generated: number;
  /** Candidates examined for hidden content, and facts kept per kind. */
  hiddenCandidates: number;
  hiddenPerKind: number;
  spacerBlocks: number;
  backgroundElements: number;
  backgrounds: number;
}

export const DEFAULT_CAPS: CollectCaps = {
  tables: 60,
  cellsPerTable: 1500,
  headingElements: 4000,
  headingCandidates: 60,
  brParents: 300,
  siblingParents: 300,
  images: 400,
  textNodes: 6000,
  sensoryBlocks: 40,
  styleRules: 5000,
  generatedPerRule: 50,
  generated: 10,
  hiddenCandidates: 300,
  hiddenPerKind: 5,
  spacerBlocks: 3000,
  backgroundElements: 4000,
  backgrounds: 5,
};

export interface CollectInput {
  caps: CollectCaps;
  /** Pattern sources from the pure deciders, so that page and Node agree. */
  numericSource: string;
  listMarkerSource: string;
  fileNameHintSource: string;
  sensoryHintSource: string;
  /** Full patterns (flags `iu`) a block's text must match to be reported. */
  sensoryPatternSources: readonly string[];
  maxHeadingChars: number;
  maxHeadingWords: number;
  infoHintSource: string;
  logoHintSource: string;
  srClassSource: string;
  statusHintSource: string;
}

/**
 * Runs in the page (through `page.evaluate`): measures heading-like text, list-like
 * lines, images and text that refers to position or shape, and identifies each candidate the way
 * axe does. Needs `window.__a11yAudit` (see `ensureInPage`). Self-contained: no imports reach
 * the page, only this function's source.
 */
export function collectStructureFacts(input: CollectInput): LayoutFacts {
  const A = (window as unknown as AuditWindow).__a11yAudit;
  const caps = input.caps;
  const marker = new RegExp(input.listMarkerSource);
  const fileHint = new RegExp(input.fileNameHintSource, 'i');
  const infoHint = new RegExp(input.infoHintSource, 'i');
  const logoHint = new RegExp(input.logoHintSource, 'i');
  const sensoryHint = new RegExp(input.sensoryHintSource, 'i');
  const sensoryPatterns = input.sensoryPatternSources.map((src) => new RegExp(src, 'iu'));
  // Counts, timings, cached styles, and candidates identified in one pass at the end (`resolve`).
  const { examined, split, bump, norm, cs, hidden, describe, nameChecks, resolve, known } = A.collector();
  /** Style of the element that holds the first non-blank text inside `el`. */
  const textStyle = (el: Element): TextStyle => {
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    let holder: Element = el;
    for (let n = walker.nextNode(), i = 0; n && i < 50; n = walker.nextNode(), i++) {
      if (n.nodeValue && n.nodeValue.trim() !== '' && n.parentElement) {
        holder = n.parentElement;
        break;
      }
    }
    const s = cs(holder);
    return { size: parseFloat(s.fontSize) || 0, weight: Number(s.fontWeight) || (s.fontWeight === 'bold' ? 700 : 400) };
  };
  const BLOCK_DISPLAY = /^(block|flex|grid|flow-root|list-item|table|table-cell|inline-block)$/;
  const isBlock = (el: Element) => BLOCK_DISPLAY.test(cs(el).display);

  {
    // ---- page context ------------------------------------------------------------------------
    const headingEls = Array.from(document.querySelectorAll('h1,h2,h3,h4,h5,h6,[role="heading"]')).slice(0, 300);
    const headingTexts: string[] = [];
    for (const h of headingEls) {
      if (headingTexts.length >= 100) break;
      try {
        if (!hidden(h)) headingTexts.push(norm(h.textContent).slice(0, 120));
      } catch {
        /* detached or odd element */
      }
    }
    const buttonNames: string[] = [];
    const buttons: Element[] = [];
    for (const b of Array.from(document.querySelectorAll('button,[role="button"],input[type="button"],input[type="submit"],input[type="reset"]')).slice(0, 200)) {
      if (buttons.length >= 50) break;
      try {
        if (!hidden(b)) buttons.push(b);
      } catch {
        /* ignore */
      }
    }
    let navCount = 0;
    for (const n of Array.from(document.querySelectorAll('nav,[role="navigation"]')).slice(0, 50)) {
      try {
        if (!hidden(n)) navCount++;
      } catch {
        /* ignore */
      }
    }
    const sizes: number[] = [];
    for (const p of Array.from(document.querySelectorAll('p')).slice(0, 200)) {
      try {
        if (norm(p.textContent).length >= 40 && A.rendered(p)) sizes.push(textStyle(p).size);
      } catch {
        /* ignore */
      }
    }
    sizes.sort((a, b) => a - b);
    const bodyFontSize = sizes.length ? sizes[Math.floor(sizes.length / 2)]! : 0;

    split('context');
    // ---- visual headings ---------------------------------------------------------------------
    const headings: HeadingCandidate[] = [];
    const EXCLUDE =
      'h1,h2,h3,h4,h5,h6,[role="heading"],a,button,label,legend,caption,th,td,summary,li,dt,dd,nav,header,footer,figcaption,pre,code,select,option,textarea,table,[role="button"],[role="link"],[role="tab"],[role="menuitem"],[role="navigation"],[role="banner"],[role="contentinfo"],[role="menu"],[role="menubar"],[role="tablist"],[role="listbox"],[role="dialog"],[role="alert"],[role="status"],[role="tooltip"],[aria-hidden="true"],blockquote,address';
    const LEAF_BLOCKERS = 'p,div,ul,ol,dl,table,h1,h2,h3,h4,h5,h6,section,article,br,img,svg,input,select,button,textarea,iframe,video,audio,canvas,hr';
    const seen = new Set<Element>();
    const headingPool = Array.from(document.body?.querySelectorAll('p,div,span,strong,b,font,big,em,i,u,center') ?? []).slice(0, caps.headingElements);
    bump('headingElements', headingPool.length);
    const maxChars = input.maxHeadingChars;
    for (const el of headingPool) {
      if (headings.length >= caps.headingCandidates) break;
      try {
        const raw = el.textContent ?? '';
        if (raw.length > maxChars * 3) continue;
        const text = norm(raw);
        if (text.length < 2 || text.length > maxChars || text.split(' ').length > input.maxHeadingWords) continue;
        if (/[.,;]$/.test(text) && !/(\.\.\.|…)$/.test(text)) continue;
        if (el.closest(EXCLUDE)) continue;
        let unit: Element | null = el;
        if (!isBlock(el)) {
          unit = null;
          let p = el.parentElement;
          for (let i = 0; p && i < 4 && p !== document.body; i++, p = p.parentElement) {
            if (norm(p.textContent) !== text) break;
            if (isBlock(p)) {
              unit = p;
              break;
            }
          }
        }
        if (!unit || unit === document.body || seen.has(unit)) continue;
        seen.add(unit);
        if (unit.closest(EXCLUDE)) continue;
        const explicitRole = (unit.getAttribute('role') ?? '').trim().toLowerCase();
        if (explicitRole && explicitRole !== 'none' && explicitRole !== 'presentation' && explicitRole !== 'generic') continue;
        if (unit.querySelector(LEAF_BLOCKERS)) continue;
        if (!A.rendered(unit)) continue;
        const style = textStyle(unit);
        if (style.size <= 0) continue;
        // The next content: the unit's next rendered sibling with text, climbing out of wrappers
        // that hold nothing but the unit.
        let from: Element = unit;
        let nextEl: Element | null = null;
        for (let up = 0; up < 3 && !nextEl; up++) {
          for (let s = from.nextElementSibling, hops = 0; s && hops < 4; s = s.nextElementSibling, hops++) {
            if (/^(SCRIPT|STYLE|TEMPLATE|BR|HR|NOSCRIPT)$/.test(s.tagName) || !A.rendered(s) || norm(s.textContent) === '') continue;
            nextEl = s;
            break;
          }
          if (nextEl) break;
          const parent: Element | null = from.parentElement;
          if (!parent || parent === document.body || norm(parent.textContent) !== text) break;
          from = parent;
        }
        let next: HeadingCandidate['next'] = null;
        if (nextEl) {
          const isHeading = nextEl.matches('h1,h2,h3,h4,h5,h6,[role="heading"]') || nextEl.querySelector(':scope > h1, :scope > h2, :scope > h3, :scope > h4, :scope > h5, :scope > h6') !== null;
          next = { tag: nextEl.tagName.toLowerCase(), style: textStyle(nextEl), textLength: norm(nextEl.textContent).length, isHeading };
        }
        const fs = style.size;
        const lh = parseFloat(cs(unit).lineHeight) || fs * 1.2;
        const h = unit.getBoundingClientRect().height;
        const lines = Math.max(1, Math.round(h / Math.max(lh, fs)));
        const sizeHint = next ? fs / Math.max(1, next.style.size) : 1;
        // Only what can pass the decider in Node is described (that is where the cost is).
        if (!next || sizeHint < 1.1 || lines !== 1) continue;
        headings.push({ ref: describe(unit), text: text.slice(0, 160), tag: unit.tagName.toLowerCase(), style, lines, next });
      } catch {
        /* skip */
      }
    }

    split('headings');
    // ---- lists not marked up -----------------------------------------------------------------
    const lists: ListCandidate[] = [];
    const LIST_EXCLUDE = 'pre,code,kbd,samp,textarea,li,dt,dd,table,[contenteditable="true"],[aria-hidden="true"],script,style';
    const brParents = new Set<Element>();
    for (const br of Array.from(document.querySelectorAll('br')).slice(0, caps.brParents * 10)) {
      if (brParents.size >= caps.brParents) break;
      if (br.parentElement) brParents.add(br.parentElement);
    }
    bump('brParents', brParents.size);
    const head = (s: string) => s.replace(/^\s+/, '').slice(0, 16);
    for (const p of brParents) {
      try {
        if (p.closest(LIST_EXCLUDE) || /^pre/.test(cs(p).whiteSpace) || !A.rendered(p)) continue;
        const lines: string[] = [];
        let cur = '';
        for (const n of Array.from(p.childNodes).slice(0, 400)) {
          if (n.nodeType === 1 && (n as Element).tagName === 'BR') {
            lines.push(head(cur));
            cur = '';
          } else cur += n.textContent ?? '';
        }
        if (cur.trim() !== '') lines.push(head(cur));
        const nonEmpty = lines.filter((l) => l !== '');
        if (nonEmpty.filter((l) => marker.test(l)).length < 3) continue;
        lists.push({ ref: describe(p), kind: 'br', lines: nonEmpty.slice(0, 100) });
      } catch {
        /* skip */
      }
    }
    const sibParents = new Set<Element>();
    for (const el of Array.from(document.querySelectorAll('p')).slice(0, 5000)) {
      if (sibParents.size >= caps.siblingParents) break;
      if (el.parentElement) sibParents.add(el.parentElement);
    }
    bump('siblingParents', sibParents.size);
    for (const parent of sibParents) {
      try {
        if (parent.closest(LIST_EXCLUDE)) continue;
        const kids = Array.from(parent.children).filter((k) => k.tagName === 'P' || (k.tagName === 'DIV' && !k.querySelector('p,div,ul,ol,table')));
        if (kids.length < 3) continue;
        const starts = kids.map((k) => head(k.textContent ?? ''));
        if (starts.filter((l) => marker.test(l)).length < 3) continue;
        // Find the first child of the longest run later in Node: report the parent, keep the lines.
        const visible = kids.filter((k) => A.rendered(k));
        if (visible.length < 3) continue;
        lists.push({ ref: describe(parent), kind: 'siblings', lines: visible.map((k) => head(k.textContent ?? '')).slice(0, 100) });
      } catch {
        /* skip */
      }
    }

    split('lists');
    // ---- images ------------------------------------------------------------------------------
    const images: ImageFact[] = [];
    const PICTURED = 12;
    let pictured = 0;
    const imgs = Array.from(document.querySelectorAll('img,input[type="image"]')).slice(0, caps.images);
    bump('images', imgs.length);
    for (const img of imgs) {
      try {
        if (!A.rendered(img)) continue;
        if (img.parentElement?.closest('[aria-hidden="true"]')) continue;
        const alt = img.getAttribute('alt');
        const title = img.getAttribute('title');
        const role = (img.getAttribute('role') ?? '').trim().toLowerCase() || null;
        const ariaHidden = (img.getAttribute('aria-hidden') ?? '').trim().toLowerCase() === 'true';
        const src = img.getAttribute('src') ?? '';
        let svgText: string | null = null;
        const m = /^data:image\/svg\+xml(;[^,]*)?,/i.exec(src.trim());
        if (m && img.tagName === 'IMG') {
          try {
            const body = src.trim().slice(m[0].length);
            const xml = /;base64/i.test(m[1] ?? '') ? atob(body) : decodeURIComponent(body);
            const doc = new DOMParser().parseFromString(xml.slice(0, 100_000), 'image/svg+xml');
            svgText = norm(Array.from(doc.querySelectorAll('text')).map((x) => x.textContent ?? '').join(' ')).slice(0, 160) || null;
          } catch {
            svgText = null;
          }
        }
        const altT = (alt ?? '').trim();
        const r = img.getBoundingClientRect();
        const isInput = img.tagName === 'INPUT';
        const control = isInput ? img : (img.parentElement?.closest('a[href],button,[role="link"],[role="button"]') ?? null);
        const heading = img.parentElement?.closest('h1,h2,h3,h4,h5,h6,[role="heading"]') ?? null;
        const hintText = `${(src.split(/[?#]/)[0] ?? '').split('/').pop() ?? ''} ${img.getAttribute('class') ?? ''} ${img.id}`.toLowerCase();
        const infoM = infoHint.exec(hintText);
        const decorative = (alt !== null && altT === '') || ((role === 'presentation' || role === 'none') && altT === '');
        let logo = logoHint.test(hintText) || logoHint.test(altT);
        for (let a = img.parentElement, i = 0; a && i < 3 && !logo; a = a.parentElement, i++) logo = logoHint.test(`${a.getAttribute('class') ?? ''} ${a.id}`);
        if (!logo && control && !isInput && control.closest('header,[role="banner"]')) {
          const href = (control.getAttribute('href') ?? '').trim();
          logo = /^(?:\.?\/|(?:\.\.\/)*index\.html?|#?)$/i.test(href) || href === `${location.origin}/`;
        }
        // The image is what a captioned figure presents: the figure's only image.
        const figure = img.tagName === 'IMG' ? img.closest('figure') : null;
        const caption = figure && figure.querySelectorAll('img,svg,picture,video,canvas').length === 1 ? norm(figure.querySelector('figcaption')?.textContent).slice(0, 160) : '';
        // Only what can pass the deciders in Node is described (that is where the cost is).
        const wordy = !logo && altT.split(/\s+/).length >= 2 && r.height >= 12 && r.width >= 40 && (heading !== null || control !== null || r.width / r.height >= 1.8);
        const maybe =
          (altT !== '' && fileHint.test(altT)) ||
          (altT !== '' && (role === 'presentation' || role === 'none' || ariaHidden)) ||
          (alt !== null && altT === '' && norm(title) !== '') ||
          svgText !== null ||
          (decorative && (infoM !== null || caption !== '') && control === null) ||
          wordy ||
          // Large enough to hold text the pixel reading could find (image-text.ts), the first few.
          (img.tagName === 'IMG' && r.width >= 48 && r.height >= 16 && pictured++ < PICTURED);
        if (!maybe) continue;
        // Alone: no text beside the image in its control, heading or nearest block.
        let box: Element | null = control && !isInput ? control : heading;
        if (!box) {
          box = img.parentElement;
          for (let i = 0; box && i < 6 && box !== document.body && !isBlock(box); i++) box = box.parentElement;
        }
        const alone = isInput || !box || norm(box.textContent) === '';
        const fact: ImageFact = {
          ref: describe(img),
          tag: img.tagName.toLowerCase(),
          alt,
          title,
          src: src.slice(0, 500),
          role,
          ariaHidden,
          svgText,
          name: null,
          inControl: control && !isInput ? (control.getAttribute('href') ?? '').slice(0, 500) : null,
          width: Math.round(r.width),
          height: Math.round(r.height),
          alone,
          inHeading: heading !== null,
          logo,
          infoHint: infoM ? infoM[1]!.replace(/-/g, '') : null,
          figureCaption: caption || null,
        };
        images.push(fact);
        nameChecks.push(() => {
          fact.name = A.name(img);
        });
      } catch {
        /* skip */
      }
    }

    split('images');
    // ---- references to position, shape or colour ------------------------------------------
    const sensory: SensoryBlock[] = [];
    const blocks = new Set<Element>();
    const walker = document.body ? document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT) : null;
    let nodes = 0;
    for (let n = walker?.nextNode(); n && nodes < caps.textNodes && sensory.length < caps.sensoryBlocks; n = walker!.nextNode()) {
      nodes++;
      const v = n.nodeValue ?? '';
      if (v.length < 4 || !sensoryHint.test(v)) continue;
      try {
        const block = n.parentElement?.closest('p,li,dd,dt,td,th,figcaption,blockquote,label,div,section,article,main,body');
        if (!block || blocks.has(block)) continue;
        blocks.add(block);
        if (block.closest('pre,code,script,style,textarea,[aria-hidden="true"]') || !A.rendered(block)) continue;
        const text = norm(block.textContent);
        if (text.length > 2000 || !sensoryPatterns.some((re) => re.test(text))) continue;
        // Moved off the page (top: -9999em and the like): nobody sees it, so it refers to nothing visually.
        const r = block.getBoundingClientRect();
        if (r.right + window.scrollX <= 0 || r.bottom + window.scrollY <= 0 || r.width < 2 || r.height < 2) continue;
        sensory.push({ ref: describe(block), text: text.slice(0, 600) });
      } catch {
        /* skip */
      }
    }
    bump('textNodes', nodes);

    split('sensory');
    // Button names are read only when a sensory reference may need them, in the same pass.
    resolve(() => {
      if (sensory.length > 0) {
        for (const b of buttons) {
          try {
            buttonNames.push(norm(A.name(b)).slice(0, 80));
          } catch {
            /* ignore */
          }
        }
      }
    });
    split('describe');
    return {
      headings: headings.filter((h) => known(h.ref)),
      lists: lists.filter((l) => known(l.ref)),
      images: images.filter((i) => known(i.ref)),
      sensory: sensory.filter((b) => known(b.ref)),
      context: { buttonNames, navCount, headingTexts, bodyFontSize },
      examined,
    };
  }
}
