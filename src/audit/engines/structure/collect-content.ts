import type { CollectInput } from './collect.ts';
import type { BackgroundImageFact, ContentFacts, ElementRef, GeneratedContentFact, HiddenContentFact, SpacerRegion, TableFact } from './facts.ts';
import type { AuditWindow } from '../page-helpers.ts';

/**
 * Runs in the page (through `page.evaluate`), after `collectStructureFacts`: tables (header
 * cells, the HTML table model's grid, layout use, nesting), text put in by CSS
 * `::before`/`::after` (F87), content hidden from assistive technology or shown only to it
 * (F3-like misuse of `aria-hidden`, `role=presentation`, off-screen text), spacer markup, and CSS
 * background images that stand alone (F3). Needs `window.__a11yAudit` (see `ensureInPage`).
 * Self-contained: no imports reach the page, only this function's source. Read-only.
 */
export function collectContentFacts(input: CollectInput): ContentFacts {
  const A = (window as unknown as AuditWindow).__a11yAudit;
  const caps = input.caps;
  const srClass = new RegExp(input.srClassSource, 'i');
  const statusHint = new RegExp(input.statusHintSource, 'i');
  const numeric = new RegExp(input.numericSource);
  // Counts, timings, cached styles, and candidates identified in one pass at the end (`resolve`).
  const { examined, split, bump, norm, cs, hidden, describe, nameChecks, resolve, known } = A.collector();
  /** Font weight of the element that holds the first non-blank text inside `el`. */
  const weightOf = (el: Element): number => {
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    let holder: Element = el;
    for (let n = walker.nextNode(), i = 0; n && i < 50; n = walker.nextNode(), i++) {
      if (n.nodeValue?.trim() && n.parentElement) {
        holder = n.parentElement;
        break;
      }
    }
    const w = cs(holder).fontWeight;
    return Number(w) || (w === 'bold' ? 700 : 400);
  };

  {
    // ---- text put in by CSS ::before / ::after (F87) ------------------------------------------
    const generated: GeneratedContentFact[] = [];
    {
      const pseudoRules: Array<{ sel: string; pseudo: 'before' | 'after'; base: string }> = [];
      let ruleCount = 0;
      const visit = (list: CSSRuleList, depth: number) => {
        for (const r of Array.from(list)) {
          if (++ruleCount > caps.styleRules || pseudoRules.length >= 200) return;
          if (r instanceof CSSStyleRule) {
            const sel = r.selectorText;
            if (!/::?(?:before|after)\b/i.test(sel)) continue;
            if (!/["']/.test(r.style.getPropertyValue('content'))) continue;
            for (const part of sel.split(',')) {
              const m = /::?(before|after)\b/i.exec(part);
              if (!m) continue;
              const base = part.replace(/::?(?:before|after)\b/gi, '').trim() || '*';
              pseudoRules.push({ sel: part.trim(), pseudo: m[1]!.toLowerCase() as 'before' | 'after', base });
            }
          } else if (depth < 4 && r instanceof CSSMediaRule) {
            if (!window.matchMedia(r.conditionText).matches) continue;
            visit(r.cssRules, depth + 1);
          } else if (depth < 4 && 'cssRules' in r && !(r instanceof CSSKeyframesRule)) {
            try {
              visit((r as CSSGroupingRule).cssRules, depth + 1);
            } catch {
              /* ignore */
            }
          }
        }
      };
      for (const sheet of Array.from(document.styleSheets).slice(0, 100)) {
        try {
          if (sheet.disabled || (sheet.media.length > 0 && !window.matchMedia(sheet.media.mediaText).matches)) continue;
          visit(sheet.cssRules, 0);
        } catch {
          /* a cross-origin sheet cannot be read */
        }
      }
      bump('styleRules', ruleCount);
      const seenText = new Set<string>();
      const literals = (content: string) => {
        const main = content.split(/\s\/\s/)[0] ?? '';
        const out: string[] = [];
        for (const m of main.matchAll(/"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'/g)) out.push((m[1] ?? m[2] ?? '').replace(/\\(.)/g, '$1'));
        return out.join('');
      };
      let pseudoLooks = 0;
      for (const pr of pseudoRules) {
        if (generated.length >= caps.generated || pseudoLooks >= caps.generatedPerRule * 40) break;
        let els: Element[];
        try {
          els = Array.from(document.querySelectorAll(pr.base)).slice(0, caps.generatedPerRule);
        } catch {
          continue;
        }
        let first: { el: Element; text: string; font: string } | null = null;
        let count = 0;
        for (const el of els) {
          try {
            if (!A.rendered(el) || el.closest('[aria-hidden="true"]')) continue;
            pseudoLooks++;
            const ps = getComputedStyle(el, `::${pr.pseudo}`);
            if (ps.display === 'none' || ps.visibility === 'hidden' || /^(none|normal)$/.test(ps.content)) continue;
            const text = norm(literals(ps.content));
            if (!/\p{L}{2,}|\p{N}/u.test(text)) continue;
            count++;
            if (!first) first = { el, text, font: ps.fontFamily };
          } catch {
            /* skip */
          }
        }
        if (!first) continue;
        const key = `${pr.base}|${pr.pseudo}|${first.text}`;
        if (seenText.has(key)) continue;
        seenText.add(key);
        generated.push({ ref: describe(first.el), pseudo: pr.pseudo, text: first.text.slice(0, 160), rule: pr.sel.slice(0, 160), count, font: first.font.slice(0, 120) });
      }
      bump('pseudoLooks', pseudoLooks);
    }

    split('generated');
    // ---- content hidden from the wrong audience -----------------------------------------------
    const hiddenContent: HiddenContentFact[] = [];
    {
      const CONTROL = 'a[href],button,label,summary,select,textarea,input,[role="button"],[role="link"],[role="tab"],[role="menuitem"],[role="option"],[role="switch"],[role="checkbox"]';
      const FOCUSABLE = 'a[href],button,input,select,textarea,iframe,[tabindex],[contenteditable="true"]';
      const CAROUSEL = /carousel|slider|slick|swiper|glide|splide|owl-|flickity|marquee|ticker|clone/i;
      const modalOpen = Array.from(document.querySelectorAll('[aria-modal="true"],dialog[open]')).slice(0, 20).some((d) => A.rendered(d));
      let bodyText: string | null = null;
      let kept = 0;
      if (!modalOpen) {
        const els = Array.from(document.querySelectorAll('[aria-hidden="true"]')).slice(0, caps.hiddenCandidates);
        bump('ariaHidden', els.length);
        for (const el of els) {
          if (kept >= caps.hiddenPerKind) break;
          try {
            if (el.parentElement?.closest('[aria-hidden="true"]') || el.closest(CONTROL) || el.querySelector(FOCUSABLE)) continue;
            let carousel = false;
            for (let a: Element | null = el, i = 0; a && i < 6 && !carousel; a = a.parentElement, i++) carousel = CAROUSEL.test(`${a.getAttribute('class') ?? ''} ${a.id}`);
            if (carousel || !A.rendered(el) || cs(el).opacity === '0') continue;
            const text = norm((el as HTMLElement).innerText ?? el.textContent);
            if (text.length < 15 || text.split(' ').length < 3) continue;
            const r = el.getBoundingClientRect();
            if (r.width < 2 || r.height < 2 || r.right + window.scrollX <= 0 || r.bottom + window.scrollY <= 0) continue;
            // Visually hidden copies (sr-only text saying the same) make the hidden one a duplicate.
            bodyText ??= norm(document.body?.textContent ?? '');
            const probe = norm(el.textContent).slice(0, 60);
            if (bodyText.indexOf(probe) !== bodyText.lastIndexOf(probe)) continue;
            hiddenContent.push({ ref: describe(el), kind: 'aria-hidden', tag: el.tagName.toLowerCase(), detail: 'aria-hidden="true"', text: text.slice(0, 200) });
            kept++;
          } catch {
            /* skip */
          }
        }
      }
      kept = 0;
      const pres = Array.from(document.querySelectorAll('[role]')).slice(0, caps.hiddenCandidates * 3);
      for (const el of pres) {
        if (kept >= caps.hiddenPerKind) break;
        try {
          const role = (el.getAttribute('role') ?? '').trim().toLowerCase().split(/\s+/)[0];
          if (role !== 'presentation' && role !== 'none') continue;
          const tag = el.tagName;
          if (!/^(H[1-6]|UL|OL|DL|TABLE|BLOCKQUOTE)$/.test(tag)) continue;
          // role presentation is ignored on focusable elements and elements with global ARIA names.
          if (el.hasAttribute('tabindex') || el.hasAttribute('aria-label') || el.hasAttribute('aria-labelledby') || el.hasAttribute('aria-describedby')) continue;
          if (el.closest('[aria-hidden="true"]') || !A.rendered(el)) continue;
          if (/^(UL|OL|DL)$/.test(tag)) {
            if (el.closest('nav,[role="navigation"],[role="menu"],[role="menubar"],[role="tablist"],[role="tree"],[role="listbox"],[role="toolbar"]')) continue;
            const items = Array.from(el.children).filter((c) => /^(LI|DT)$/.test(c.tagName) && !c.hasAttribute('role') && norm(c.textContent) !== '');
            if (items.length < 2) continue;
          }
          if (tag === 'TABLE') {
            const t = el as HTMLTableElement;
            const th = Array.from(t.querySelectorAll('th')).filter((c) => c.closest('table') === t && norm(c.textContent) !== '');
            const cap = t.caption !== null && norm(t.caption.textContent) !== '';
            if ((th.length === 0 && !cap) || t.rows.length < 2 || t.querySelector('h1,h2,h3,h4,h5,h6,nav,form,main,table')) continue;
          }
          const text = norm(el.textContent);
          if (text === '') continue;
          hiddenContent.push({ ref: describe(el), kind: 'presentation', tag: tag.toLowerCase(), detail: `role="${role}"`, text: text.slice(0, 160) });
          kept++;
        } catch {
          /* skip */
        }
      }
      kept = 0;
      const srSel = '[class*="sr"],[class*="creen"],[class*="isually"],[class*="ssistive"],[class*="a11y"],[class*="eader"],[class*="kip"],[class*="nvisible"],[class*="ccessible"],[id*="kip"]';
      const srEls = Array.from(document.body?.querySelectorAll(srSel) ?? []).slice(0, caps.hiddenCandidates);
      bump('srCandidates', srEls.length);
      for (const el of srEls) {
        if (kept >= caps.hiddenPerKind) break;
        try {
          const m = srClass.exec(`${el.getAttribute('class') ?? ''} ${el.id}`.toLowerCase());
          if (!m) continue;
          const st = cs(el);
          const how = st.display === 'none' ? 'display:none' : st.visibility === 'hidden' ? 'visibility:hidden' : null;
          if (!how || !el.parentElement || !A.rendered(el.parentElement)) continue;
          // Hidden together with a visible copy that takes its place (a toggled pair) is not this.
          if (el.closest('[aria-hidden="true"],template,noscript')) continue;
          const text = norm(el.textContent);
          if (!/\p{L}{2,}/u.test(text)) continue;
          hiddenContent.push({ ref: describe(el), kind: 'sr-hidden', tag: el.tagName.toLowerCase(), detail: `${m[1]} (${how})`, text: text.slice(0, 160) });
          kept++;
        } catch {
          /* skip */
        }
      }
      // Part of a link's or button's text hidden by its own display:none or visibility:hidden while
      // the rest shows ("Read more <span style=display:none>about football</span>"): text that can
      // only have been meant for screen readers, which then do not get it either (C7's converse).
      const inControls = Array.from(document.body?.querySelectorAll('a[href] span, a[href] em, a[href] strong, a[href] small, button span') ?? []).slice(0, caps.hiddenCandidates);
      bump('controlParts', inControls.length);
      const controlsSeen = new Set<Element>();
      for (const el of inControls) {
        if (kept >= caps.hiddenPerKind) break;
        try {
          if (el.hasAttribute('hidden') || el.childElementCount > 2) continue;
          const st = cs(el);
          const how = st.display === 'none' ? 'display:none' : st.visibility === 'hidden' ? 'visibility:hidden' : null;
          if (!how) continue;
          const ctl = el.closest('a[href],button')!;
          if (controlsSeen.has(ctl)) continue;
          if (!el.parentElement || !A.rendered(el.parentElement) || !A.rendered(ctl) || el.closest('[aria-hidden="true"]')) continue;
          const text = norm(el.textContent);
          const shown = norm((ctl as HTMLElement).innerText);
          if (!/\p{L}{2,}/u.test(text) || shown === '' || shown.includes(text)) continue;
          // Responsive copies (a short and a long label, one shown per width) hide text that is shown elsewhere in the control.
          if (/(?:^|[\s_-])(?:d-none|hidden-|visible-|show-|hide-|mobile|desktop|tablet|(?:sm|md|lg|xl)[:-])/i.test(el.getAttribute('class') ?? '')) continue;
          controlsSeen.add(ctl);
          hiddenContent.push({ ref: describe(el), kind: 'sr-hidden', tag: el.tagName.toLowerCase(), detail: `part of the ${ctl.tagName === 'A' ? 'link' : 'button'} text (${how})`, text: text.slice(0, 160) });
          kept++;
        } catch {
          /* skip */
        }
      }
    }

    split('hidden');
    // ---- spacer paragraphs and runs of line breaks --------------------------------------------
    const spacerMap = new Map<Element, { first: Element; emptyBlocks: number; brRuns: number }>();
    {
      const REGION = 'main,[role="main"],header,[role="banner"],footer,[role="contentinfo"],nav,[role="navigation"],aside,[role="complementary"],article,section,form';
      const add = (el: Element, kind: 'emptyBlocks' | 'brRuns') => {
        const region = el.closest(REGION) ?? document.body;
        if (!region) return;
        let e = spacerMap.get(region);
        if (!e) spacerMap.set(region, (e = { first: el, emptyBlocks: 0, brRuns: 0 }));
        e[kind]++;
      };
      const INLINE_ONLY = /^(BR|SPAN|B|STRONG|I|EM|FONT|U|SMALL|BIG)$/;
      const counted = new Set<Element>();
      const blocks = Array.from(document.body?.querySelectorAll('p,div') ?? []).slice(0, caps.spacerBlocks);
      bump('spacerBlocks', blocks.length);
      for (const b of blocks) {
        try {
          if (b.childElementCount > 4) continue;
          const raw = b.textContent ?? '';
          if (raw.length > 40 || raw.replace(/[\s\u00a0]/g, '') !== '') continue;
          if (Array.from(b.querySelectorAll('*')).some((c) => !INLINE_ONLY.test(c.tagName))) continue;
          if (b.tagName === 'DIV' && !raw.includes('\u00a0') && !b.querySelector('br')) continue;
          if (b.closest('[aria-hidden="true"],pre,table,[contenteditable="true"],template')) continue;
          if (!A.rendered(b) || b.getBoundingClientRect().height < 6) continue;
          counted.add(b);
          add(b, 'emptyBlocks');
        } catch {
          /* skip */
        }
      }
      const brs = Array.from(document.body?.querySelectorAll('br') ?? []).slice(0, caps.spacerBlocks);
      const blank = (n: Node | null) => n !== null && n.nodeType === 3 && (n.nodeValue ?? '').replace(/[\s\u00a0]/g, '') === '';
      for (const br of brs) {
        try {
          let prev = br.previousSibling;
          while (blank(prev)) prev = prev!.previousSibling;
          if (prev && prev.nodeType === 1 && (prev as Element).tagName === 'BR') continue;
          let run = 1;
          let next = br.nextSibling;
          for (let i = 0; next && i < 40; i++, next = next.nextSibling) {
            if (blank(next)) continue;
            if (next.nodeType === 1 && (next as Element).tagName === 'BR') run++;
            else break;
          }
          if (run < 3) continue;
          const parent = br.parentElement;
          if (!parent || counted.has(parent) || parent.closest('pre,textarea,[aria-hidden="true"],[contenteditable="true"]') || /^pre/.test(cs(parent).whiteSpace) || !A.rendered(parent)) continue;
          add(br, 'brRuns');
        } catch {
          /* skip */
        }
      }
    }
    const spacers: SpacerRegion[] = [];
    for (const [region, e] of spacerMap) {
      if (e.emptyBlocks + e.brRuns < 2 || spacers.length >= 5) continue;
      const role = region.getAttribute('role');
      spacers.push({ ref: describe(e.first.tagName === 'BR' ? (e.first.parentElement ?? e.first) : e.first), region: role ? `role=${role}` : region.tagName.toLowerCase(), emptyBlocks: e.emptyBlocks, brRuns: e.brRuns });
    }

    split('spacers');
    // ---- CSS background images standing alone (F3) --------------------------------------------
    const backgrounds: BackgroundImageFact[] = [];
    {
      const SKIP_TAG = /^(BODY|MAIN|SECTION|HEADER|FOOTER|NAV|ASIDE|ARTICLE|FORM|SCRIPT|STYLE|NOSCRIPT|TEMPLATE|LINK|META|A|BUTTON|INPUT|SELECT|TEXTAREA|LABEL|IMG|SVG|VIDEO|AUDIO|CANVAS|IFRAME|OBJECT|EMBED|PICTURE|SOURCE|TABLE|TBODY|THEAD|TFOOT|TR|UL|OL|DL|HR|BR|OPTION|DIALOG|PATH|G|USE)$/i;
      const MEDIA = 'img,svg,video,canvas,iframe,object,embed,input,button,select,textarea,picture,audio';
      const all = document.body ? document.body.getElementsByTagName('*') : null;
      const n = all ? Math.min(all.length, caps.backgroundElements) : 0;
      bump('backgroundElements', n);
      for (let i = 0; i < n && backgrounds.length < caps.backgrounds; i++) {
        const el = all![i]!;
        try {
          if (SKIP_TAG.test(el.tagName) || el.childElementCount > 3) continue;
          // A status icon drawn as a background next to text that does not say the status (F3's example).
          const cls = `${el.getAttribute('class') ?? ''} ${el.id}`;
          const status = cls.length > 1 ? statusHint.exec(cls.toLowerCase()) : null;
          if (status) {
            const text = norm(el.textContent);
            const st = cs(el);
            if (text !== '' && text.length < 600 && /url\(/i.test(st.backgroundImage) && /no-repeat/.test(st.backgroundRepeat) && !text.toLowerCase().includes(status[1]!.slice(0, 4)) && !el.closest('[aria-hidden="true"],a[href],button,[role="button"],[role="link"]') && A.rendered(el)) {
              const r = el.getBoundingClientRect();
              const url = /url\(\s*["']?([^"')]*)/i.exec(st.backgroundImage)?.[1] ?? '';
              backgrounds.push({ ref: describe(el), tag: el.tagName.toLowerCase(), url: url.slice(0, 300), width: Math.round(r.width), height: Math.round(r.height), status: status[1]!, text: text.slice(0, 160) });
            }
            continue;
          }
          if ((el.textContent ?? '').trim() !== '' || el.querySelector(MEDIA)) continue;
          const bg = cs(el).backgroundImage;
          if (!bg || !/url\(/i.test(bg)) continue;
          if (el.hasAttribute('aria-label') || el.hasAttribute('aria-labelledby') || el.hasAttribute('title') || el.hasAttribute('role')) continue;
          if (el.closest('[aria-hidden="true"],a[href],button,label,summary,[role="button"],[role="link"],[role="img"],[role="presentation"],[role="none"]')) continue;
          const parent = el.parentElement;
          if (!parent || norm(parent.textContent) !== '' || !A.rendered(el)) continue;
          const r = el.getBoundingClientRect();
          if (r.width < 40 || r.height < 40 || (r.width >= 1000 && r.height >= 500)) continue;
          const url = /url\(\s*["']?([^"')]*)/i.exec(bg)?.[1] ?? '';
          backgrounds.push({ ref: describe(el), tag: el.tagName.toLowerCase(), url: url.slice(0, 300), width: Math.round(r.width), height: Math.round(r.height), status: null, text: '' });
        } catch {
          /* skip */
        }
      }
    }

    split('backgrounds');
    // ---- tables ------------------------------------------------------------------------------
    const tables: TableFact[] = [];
    const allTables = Array.from(document.querySelectorAll('table'));
    bump('tables', Math.min(allTables.length, caps.tables));
    const thIsHeader = (c: Element) => {
      const r = (c.getAttribute('role') ?? '').trim().toLowerCase();
      return c.tagName === 'TH' && (r === '' || r === 'columnheader' || r === 'rowheader');
    };
    const bold = (c: Element) => weightOf(c) >= 600;
    const bgOf = (cell: Element, row: Element) => {
      for (const el of [cell, row, row.parentElement]) {
        if (!el) continue;
        const bg = cs(el).backgroundColor;
        if (bg && bg !== 'transparent' && !/rgba\(.*,\s*0\)$/.test(bg)) return bg;
      }
      return 'none';
    };
    for (const t of allTables.slice(0, caps.tables)) {
      try {
        if (hidden(t)) continue;
        const role = (t.getAttribute('role') ?? '').trim().toLowerCase().split(/\s+/)[0] || null;
        const rows = Array.from(t.rows).filter((r) => A.rendered(r));
        let budget = caps.cellsPerTable;
        const grid: HTMLTableCellElement[][] = [];
        for (const r of rows) {
          if (budget <= 0) break;
          const cells = Array.from(r.cells).filter((c) => A.rendered(c));
          budget -= cells.length;
          if (cells.length) grid.push(cells);
        }
        const cells = grid.flat();
        const text = new Map<Element, string>();
        for (const c of cells) text.set(c, norm(c.textContent));
        const th = cells.filter(thIsHeader);
        const td = cells.filter((c) => c.tagName === 'TD');
        const inThead = (c: Element) => c.parentElement?.parentElement?.tagName === 'THEAD';
        const theadRows = grid.filter((r) => r[0] && inThead(r[0])).length;
        const theadCells = grid.filter((r) => r[0] && inThead(r[0])).flat();
        const bodyRows = grid.filter((r) => r[0] && !inThead(r[0]));
        const first = grid[0] ?? [];
        const rest = grid.slice(1);
        const restCells = rest.flat().filter((c) => text.get(c) !== '');
        const firstRowLabels = first.length >= 2 && first.every((c) => {
          const s = text.get(c) ?? '';
          return s !== '' && s.length <= 40 && !numeric.test(s);
        });
        const numericShare = restCells.length ? restCells.filter((c) => numeric.test(text.get(c) ?? '')).length / restCells.length : 0;
        let firstRowStyled = false;
        let firstColStyled = false;
        if (grid.length >= 3 && first.length >= 2) {
          const firstBold = first.every((c) => text.get(c) === '' || bold(c));
          const restBoldShare = restCells.length ? restCells.filter(bold).length / restCells.length : 1;
          const firstBg = first.map((c) => bgOf(c, c.parentElement!));
          const sameBg = firstBg.every((b) => b === firstBg[0]) && firstBg[0] !== 'none';
          const otherBgs = new Set(rest.map((r) => bgOf(r[0]!, r[0]!.parentElement!)));
          firstRowStyled = (firstBold && restBoldShare < 0.2) || (sameBg && rest.length >= 2 && !otherBgs.has(firstBg[0]!));
          const col0 = rest.map((r) => r[0]!).filter((c) => text.get(c) !== '');
          const others = rest.flatMap((r) => r.slice(1)).filter((c) => text.get(c) !== '');
          firstColStyled = col0.length >= 2 && others.length >= 2 && col0.every(bold) && others.filter(bold).length / others.length < 0.2 && !firstBold;
        }
        const layout: string[] = [];
        const own = (el: Element) => el.parentElement?.closest('table') === t;
        const landmarkSel = 'h1,h2,h3,h4,h5,h6,[role="heading"],nav,main,header,footer,aside,form,fieldset,[role="navigation"],[role="main"],[role="banner"],[role="contentinfo"],[role="complementary"],[role="search"],[role="form"]';
        for (const el of Array.from(t.querySelectorAll(landmarkSel)).slice(0, 50)) {
          if (!own(el) || hidden(el)) continue;
          const tag = el.tagName.toLowerCase();
          const label = /^h\d$/.test(tag) || el.getAttribute('role') === 'heading' ? 'headings' : tag === 'form' || tag === 'fieldset' || el.getAttribute('role') === 'form' || el.getAttribute('role') === 'search' ? 'forms' : 'landmarks';
          if (!layout.includes(label)) layout.push(label);
        }
        for (const inner of Array.from(t.querySelectorAll('table')).slice(0, 20)) {
          if (!own(inner) || hidden(inner)) continue;
          const innerRole = (inner.getAttribute('role') ?? '').trim().toLowerCase();
          const innerHasTh = inner.querySelector('th,caption') !== null;
          if (!innerHasTh || innerRole === 'presentation' || innerRole === 'none') {
            if (!layout.includes('layout tables')) layout.push('layout tables');
          }
        }
        const blockSel = 'ul,ol,dl,p,div,blockquote,img';
        const singleRowBlocks =
          grid.length === 1 && first.length >= 2 && first.filter((c) => Array.from(c.querySelectorAll(blockSel)).some((b) => !hidden(b) && (b.tagName === 'IMG' || norm(b.textContent) !== ''))).length >= 2 && first.some((c) => c.querySelector('ul,ol,dl,p') !== null);
        const outerCell = t.parentElement?.closest('td,th') ?? null;
        const outerTable = outerCell?.closest('table') ?? null;
        const nestedIn = outerCell && outerTable ? (outerCell.tagName === 'TH' ? 'th' : 'td') : null;
        const outerHasTh = outerTable ? Array.from(outerTable.querySelectorAll('th')).some((x) => x.closest('table') === outerTable) : false;
        const emptyThEls = th.filter((c) => text.get(c) === '' && !c.querySelector('img,svg,[aria-label],[aria-labelledby]'));
        const emptyTh: ElementRef[] = [];
        for (const c of emptyThEls.slice(0, 3)) {
          const ref = describe(c);
          emptyTh.push(ref);
          nameChecks.push(() => {
            if (norm(A.name(c)) !== '') emptyTh.splice(emptyTh.indexOf(ref), 1);
          });
        }
        // The table's grid as the HTML table model lays it out (colspan and rowspan taken; spans
        // capped), for each row its width in slots and how many header cells open it.
        const taken = new Set<string>();
        const widths: number[] = [];
        const leadingTh: number[] = [];
        grid.forEach((r, i) => {
          let col = 0;
          let lead = 0;
          let leading = true;
          for (const c of r) {
            while (taken.has(`${i},${col}`)) col++;
            const across = Math.min(Math.max(1, c.colSpan || 1), 50);
            const down = Math.min(c.rowSpan === 0 ? grid.length - i : Math.max(1, c.rowSpan || 1), grid.length - i, 50);
            for (let y = i; y < i + down; y++) for (let x = col; x < col + across; x++) taken.add(`${y},${x}`);
            col += across;
            if (leading && thIsHeader(c)) lead++;
            else leading = false;
          }
          let w = col;
          while (taken.has(`${i},${w}`)) w++;
          widths.push(w);
          leadingTh.push(leading ? 0 : lead);
        });
        let headerRows = 0;
        while (headerRows < grid.length && grid[headerRows]!.every(thIsHeader)) headerRows++;
        // Header cells opening a row below the header rows, before its first data cell.
        const rowHeaderLevels = Math.max(0, ...leadingTh.slice(headerRows));
        const widthCounts = new Map<number, number>();
        for (const w of widths) widthCounts.set(w, (widthCounts.get(w) ?? 0) + 1);
        const usual = [...widthCounts.entries()].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0]?.[0] ?? 0;
        const raggedRows = widths.filter((w) => w !== usual).length;
        const headerWidth = Math.max(0, ...widths.slice(0, headerRows));
        const wideRows = headerRows > 0 ? widths.slice(headerRows).filter((w) => w > headerWidth).length : 0;
        const spanningTh = th.some((c) => c.colSpan > 1 || c.rowSpan > 1);
        const scope = cells.some((c) => c.hasAttribute('scope'));
        const headersAttr = cells.some((c) => c.hasAttribute('headers'));
        const headerRoles = cells.some((c) => /^(columnheader|rowheader)$/.test((c.getAttribute('role') ?? '').trim().toLowerCase()));
        const noHeaderMarkup = th.length === 0 && !scope && !headersAttr && !headerRoles;
        const claimsData = th.length > 0 || scope || headersAttr || (t.caption !== null && norm(t.caption.textContent) !== '') || norm(t.getAttribute('summary')) !== '';
        const complexHeaders = !headersAttr && grid.length >= 3 && (headerRows >= 2 || rowHeaderLevels >= 2);
        const ragged = th.length > 0 && grid.length >= 2 && (raggedRows > 0 || wideRows > 0);
        const interesting = (noHeaderMarkup && grid.length >= 2 && first.length >= 2) || layout.length > 0 || (singleRowBlocks && claimsData) || (nestedIn !== null && outerHasTh) || emptyTh.length > 0 || complexHeaders || ragged;
        if (!interesting) continue;
        tables.push({
          ref: describe(t),
          role,
          rows: grid.length,
          cols: Math.max(0, ...grid.map((r) => r.length)),
          th: th.length,
          td: td.length,
          caption: t.caption !== null && norm(t.caption.textContent) !== '',
          summary: norm(t.getAttribute('summary')) !== '',
          scope,
          headersAttr,
          headerRoles,
          theadRows,
          theadTextTd: theadCells.filter((c) => c.tagName === 'TD' && text.get(c) !== '').length,
          theadTh: theadCells.filter(thIsHeader).length,
          bodyRowsWithText: bodyRows.filter((r) => r.some((c) => text.get(c) !== '')).length,
          firstRowStyled,
          firstColStyled,
          firstRowLabels,
          numericShare,
          longCells: cells.filter((c) => (text.get(c) ?? '').length > 150).length,
          layout,
          singleRowBlocks,
          nestedIn,
          outerHasTh,
          emptyTh,
          headerRows,
          rowHeaderLevels,
          spanningTh,
          raggedRows,
          wideRows,
          usualWidth: usual,
        });
      } catch {
        /* a table that breaks a measurement is skipped */
      }
    }

    split('tables');
    resolve();
    split('describe-content');
    for (const t of tables) t.emptyTh = t.emptyTh.filter(known);
    return {
      tables: tables.filter((t) => known(t.ref)),
      generated: generated.filter((g) => known(g.ref)),
      hiddenContent: hiddenContent.filter((h) => known(h.ref)),
      spacers: spacers.filter((x) => known(x.ref)),
      backgrounds: backgrounds.filter((b) => known(b.ref)),
      examined,
    };
  }
}
