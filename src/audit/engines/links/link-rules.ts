/**
 * The service's own checks, registered as axe rules so that they run in the same engine, get
 * the same selectors and HTML snippets, and cover iframes and shadow DOM like axe's own rules.
 * `registerCustomRules` runs inside the page: it may use nothing from this module's scope; the
 * pure helpers it needs (`links/*.ts`, self-contained functions) are injected beside it as source.
 *
 * Link purpose (WCAG 2.4.4), two rules:
 * - `link-text-generic` (ACT 5effbb): a link whose name alone says nothing ("click here", "read
 *   more", "next", ".", "PDF"). Not a failure when it is a step of a sequence in pagination or a
 *   navigation landmark. Confirmed only when nothing gives it a purpose: no programmatically
 *   determined context (ACT's definition: the list items it is in, its paragraph in the closest
 *   block container, its table cell and that cell's header cells, `aria-describedby`) and no
 *   title; where such a context exists only a person can tell whether it names the destination,
 *   so `needs_review`.
 * - `link-identical-name-different-purpose` (ACT fd3a94): links with the same name and the same
 *   context (the same text of the same kind of context; both without any context counts as the
 *   same) that go to different places. The check's `after` step compares them across the whole
 *   page (all frames); see `judgeIdenticalLinks` for when it is confirmed.
 *
 * And one of name, role, value (WCAG 4.1.2): `link-href-no-destination`, a link whose address
 * takes it nowhere (`javascript:`, a bare `#`): announced as a link, it acts as a button; see
 * `judgeLinkHref` for when that is confirmed.
 */
import { compareDestinations, judgeIdenticalLinks, judgeLinkHref, onclickDestination } from './destinations.ts';
import { classifyLinkName, judgeLinkName, LINK_NAME_LISTS, normaliseLinkName, type LinkNameLists } from './link-names.ts';

export const CUSTOM_RULE_IDS = {
  linkTextGeneric: 'link-text-generic',
  linkIdenticalNameDifferentPurpose: 'link-identical-name-different-purpose',
  linkHrefNoDestination: 'link-href-no-destination',
} as const;

/** ACT rules each of the service's axe-registered rules implements (read by the accuracy harness). */
export const ACT_RULES: Readonly<Record<string, readonly string[]>> = {
  'link-text-generic': ['5effbb'],
  'link-identical-name-different-purpose': ['fd3a94'],
};

/** Link names that say nothing about where a link goes (English), as one list. */
export const GENERIC_LINK_NAMES: Readonly<Record<string, readonly string[]>> = Object.fromEntries(
  Object.entries(LINK_NAME_LISTS).map(([lang, l]) => [lang, [...l.generic, ...l.sequence]]),
);

interface Helpers {
  normaliseLinkName: typeof normaliseLinkName;
  classifyLinkName: typeof classifyLinkName;
  judgeLinkName: typeof judgeLinkName;
  compareDestinations: typeof compareDestinations;
  onclickDestination: typeof onclickDestination;
  judgeIdenticalLinks: typeof judgeIdenticalLinks;
  judgeLinkHref: typeof judgeLinkHref;
}

function registerCustomRules(axe: any, lists: LinkNameLists, h: Helpers): void {
  const MAX_TEXT = 2000;
  /** Links whose context the identical-names check measures per document (bounds its cost on huge pages). */
  const MAX_COMPARED = 3000;
  const token = Math.random().toString(36).slice(2, 8);
  interface Texts {
    full: string;
    bare: string;
  }
  interface Run {
    start: number;
    end: number;
    full: string;
    bare: string;
  }
  interface Context {
    full: string;
    bare: string;
    ids: string;
  }
  let cacheRoot: unknown = null;
  let cache: {
    texts: WeakMap<object, Texts>;
    runs: WeakMap<object, Run[]>;
    ids: WeakMap<object, number>;
    grids: WeakMap<object, unknown>;
    names: WeakMap<object, string>;
    counts: Map<string, number> | null;
    relTargets: Set<string> | null;
    top: string | null;
    compared: number;
    nextId: number;
  } | null = null;
  function caches() {
    const root = axe._tree && axe._tree[0];
    if (!cache || root !== cacheRoot) {
      cacheRoot = root;
      cache = { texts: new WeakMap(), runs: new WeakMap(), ids: new WeakMap(), grids: new WeakMap(), names: new WeakMap(), counts: null, relTargets: null, top: null, compared: 0, nextId: 0 };
    }
    return cache;
  }
  function idOf(vn: any): string {
    const c = caches();
    let n = c.ids.get(vn);
    if (n === undefined) {
      n = c.nextId++;
      c.ids.set(vn, n);
    }
    return `${token}.${n}`;
  }
  function nameOf(vn: any): string {
    const c = caches();
    let n = c.names.get(vn);
    if (n === undefined) {
      n = String(axe.commons.text.accessibleTextVirtual(vn) || '').replace(/\s+/g, ' ').trim();
      c.names.set(vn, n);
    }
    return n;
  }
  const attr = (vn: any, name: string): string | null => (vn.actualNode && vn.actualNode.getAttribute ? vn.actualNode.getAttribute(name) : null);
  const roleAttr = (vn: any) => (attr(vn, 'role') || '').trim().toLowerCase().split(/\s+/)[0] || '';
  const display = (vn: any): string => {
    try {
      return String(vn.getComputedStylePropertyValue('display') || '');
    } catch {
      return '';
    }
  };
  function isLinkVNode(vn: any): boolean {
    if (vn.props.nodeType !== 1) return false;
    const r = roleAttr(vn);
    if (r === 'link') return true;
    if (r && r !== 'none' && r !== 'presentation') return false;
    const n = vn.props.nodeName;
    return (n === 'a' || n === 'area') && (vn.actualNode.hasAttribute('href') || vn.actualNode.hasAttribute('xlink:href'));
  }
  const clip = (s: string) => (s.length > MAX_TEXT ? s.slice(0, MAX_TEXT) : s);
  /** Text of a node as users get it: `full` with link names, `bare` without any link's text. */
  function textsOf(vn: any): Texts {
    const c = caches();
    const known = c.texts.get(vn);
    if (known) return known;
    let out: Texts;
    if (vn.props.nodeType === 3) {
      const v = String(vn.actualNode.nodeValue || '');
      out = { full: v, bare: v };
    } else if (vn.props.nodeType !== 1) {
      out = { full: '', bare: '' };
    } else {
      const n = vn.props.nodeName;
      const el = vn.actualNode as Element;
      if (n === 'script' || n === 'style' || n === 'template' || n === 'noscript' || n === 'head' || el.getAttribute('aria-hidden') === 'true' || display(vn) === 'none') {
        out = { full: '', bare: '' };
      } else {
        let own = '';
        if ((n === 'img' || n === 'area' || (n === 'input' && (el.getAttribute('type') || '').toLowerCase() === 'image')) && el.getAttribute('alt')) own = ` ${el.getAttribute('alt')} `;
        else if (roleAttr(vn) === 'img' && el.getAttribute('aria-label')) own = ` ${el.getAttribute('aria-label')} `;
        let full = own;
        let bare = own;
        for (const child of vn.children || []) {
          if (full.length > MAX_TEXT) break;
          const t = textsOf(child);
          full += t.full;
          bare += t.bare;
        }
        const d = display(vn);
        const pad = d && !d.startsWith('inline') && d !== 'contents' ? ' ' : '';
        out = isLinkVNode(vn) ? { full: clip(pad + full + pad), bare: pad } : { full: clip(pad + full + pad), bare: clip(pad + bare + pad) };
      }
    }
    c.texts.set(vn, out);
    return out;
  }
  const blockLevel = (vn: any) => {
    if (vn.props.nodeType !== 1) return false;
    const d = display(vn);
    return d !== '' && d !== 'none' && d !== 'contents' && !d.startsWith('inline') && d !== 'ruby' && d !== 'ruby-text';
  };
  const isBlockContainer = (vn: any) => /^(block|inline-block|list-item|flow-root|table-cell|table-caption)$|flow-root|list-item|^block flow$/.test(display(vn));
  /** The closest block container's content split into paragraphs: runs of inline content between block-level children. */
  function runsOf(block: any): Run[] {
    const c = caches();
    const known = c.runs.get(block);
    if (known) return known;
    const kids: any[] = block.children || [];
    const runs: Run[] = [];
    let cur: Run | null = null;
    for (let i = 0; i < kids.length; i++) {
      const k = kids[i];
      const t = textsOf(k);
      if (blockLevel(k)) {
        cur = null;
        runs.push({ start: i, end: i, full: t.full, bare: t.bare });
        continue;
      }
      if (!cur) {
        cur = { start: i, end: i, full: '', bare: '' };
        runs.push(cur);
      }
      cur.end = i;
      if (cur.full.length < MAX_TEXT) {
        cur.full += t.full;
        cur.bare += t.bare;
      }
    }
    c.runs.set(block, runs);
    return runs;
  }
  const collapse = (s: string) => s.replace(/\s+/g, ' ').trim();
  /**
   * The link's programmatically determined context (ACT's definition): every ancestor list
   * item (for the outer ones, their own label: H81), the paragraph it is in within its closest
   * block container, its closest cell and that cell's header cells, and what `aria-describedby`
   * points to. `full` keeps link names (to compare contexts), `bare` drops every link's text (to
   * tell whether there are any words besides links), `ids` names the elements.
   */
  function contextOf(vn: any): Context {
    const full: string[] = [];
    const bare: string[] = [];
    const ids: string[] = [];
    let child = vn;
    let p = vn.parent;
    let block = false;
    let cell = false;
    let firstItem = true;
    while (p) {
      if (p.props.nodeType === 1) {
        const n = p.props.nodeName;
        const r = roleAttr(p);
        let role = '';
        if (n === 'li' || n === 'td' || r) {
          try {
            role = axe.commons.aria.getRole(p) || '';
          } catch {
            role = r;
          }
        }
        if (role === 'listitem') {
          if (firstItem) {
            const t = textsOf(p);
            full.push(t.full);
            bare.push(t.bare);
          } else {
            // The outer item's own label (the words before its nested list), links included.
            let own = '';
            for (const k of p.children || []) if (k !== child) own += textsOf(k).full;
            full.push(own);
            bare.push(own);
          }
          ids.push(idOf(p));
          firstItem = false;
        }
        if (!block && isBlockContainer(p)) {
          block = true;
          const runs = runsOf(p);
          const idx = (p.children || []).indexOf(child);
          const run = runs.find((x) => idx >= x.start && idx <= x.end);
          if (run) {
            full.push(run.full);
            bare.push(run.bare);
            ids.push(`${idOf(p)}:${run.start}`);
          }
        }
        if (!cell && (role === 'cell' || role === 'gridcell')) {
          cell = true;
          const t = textsOf(p);
          full.push(t.full);
          bare.push(t.bare);
          ids.push(idOf(p));
          if (n === 'td') {
            try {
              const table = p.actualNode.closest('table');
              const c = caches();
              let grid = table ? c.grids.get(table) : undefined;
              if (table && !grid) {
                grid = axe.commons.table.toGrid(table);
                c.grids.set(table, grid);
              }
              const headers: Element[] = table ? axe.commons.table.getHeaders(p.actualNode, grid) : [];
              for (const hd of headers) {
                const hv = hd && axe.utils.getNodeFromTree(hd);
                const t2 = hv ? textsOf(hv) : { full: (hd && hd.textContent) || '', bare: (hd && hd.textContent) || '' };
                full.push(t2.full);
                bare.push(t2.bare);
                if (hv) ids.push(idOf(hv));
              }
            } catch {
              // a table axe cannot grid: no header cells
            }
          }
        }
      }
      child = p;
      p = p.parent;
    }
    try {
      const described: Array<Element | null> = axe.commons.dom.idrefs(vn.actualNode, 'aria-describedby');
      for (const el of described) {
        if (!el) continue;
        const dv = axe.utils.getNodeFromTree(el);
        const t = dv ? textsOf(dv) : { full: el.textContent || '', bare: el.textContent || '' };
        full.push(t.full);
        bare.push(t.bare);
        if (dv) ids.push(idOf(dv));
      }
    } catch {
      // no describedby
    }
    return { full: collapse(full.join(' | ')), bare: collapse(bare.join(' ')), ids: ids.join(',') };
  }
  function ancestors(vn: any, test: (a: any) => boolean): boolean {
    for (let p = vn.parent; p; p = p.parent) if (p.props.nodeType === 1 && test(p)) return true;
    return false;
  }
  const PAGINATION = /pagination|pager|paging|page navigation|pages/i;
  const PAGINATION_CLASS = /(^|[\s_-])(pagination|pager|paging)([\s_-]|$)/i;
  function labelText(vn: any): string {
    const el = vn.actualNode as Element;
    let s = el.getAttribute('aria-label') || '';
    const by = el.getAttribute('aria-labelledby');
    if (by) {
      for (const id of by.split(/\s+/)) {
        const t = id && el.ownerDocument.getElementById(id);
        if (t) s += ` ${t.textContent || ''}`;
      }
    }
    return s;
  }
  function destinationOf(vn: any): { destination: string | null; from: 'href' | 'onclick' } {
    const el = vn.actualNode as Element;
    const raw = el.getAttribute('href') ?? el.getAttribute('xlink:href');
    const resolve = (s: string) => {
      try {
        return new URL(s, el.baseURI || document.baseURI).href;
      } catch {
        return null;
      }
    };
    if (raw !== null) return { destination: resolve(raw), from: 'href' };
    const js = h.onclickDestination(el.getAttribute('onclick'));
    return { destination: js === null ? null : resolve(js), from: 'onclick' };
  }
  function relTargets(): Set<string> {
    const c = caches();
    if (!c.relTargets) {
      c.relTargets = new Set();
      for (const l of Array.from(document.querySelectorAll('link[rel][href]'))) {
        const rel = (l.getAttribute('rel') || '').toLowerCase().split(/\s+/);
        if (rel.indexOf('next') !== -1 || rel.indexOf('prev') !== -1 || rel.indexOf('previous') !== -1) c.relTargets.add((l as HTMLLinkElement).href);
      }
    }
    return c.relTargets;
  }
  /** What is at the top of the page: its title and first heading, lower case, once per run. */
  function topText(): string {
    const c = caches();
    if (c.top === null) {
      const h1 = document.querySelector('h1');
      c.top = `${document.title}\n${h1 ? h1.textContent || '' : ''}`.replace(/\s+/g, ' ').toLowerCase();
    }
    return c.top;
  }
  const groupName = (name: string) => name.toLowerCase().replace(/\s+/g, ' ').trim();
  const hash = (s: string) => {
    let x = 0x811c9dc5;
    for (let i = 0; i < s.length; i++) {
      x ^= s.charCodeAt(i);
      x = Math.imul(x, 0x01000193) >>> 0;
    }
    return `${x.toString(36)}.${s.length}`;
  };
  const LINKS = 'a[href], area[href], [role="link"]';
  function isLinkForRule(vn: any): boolean {
    try {
      return axe.commons.aria.getRole(vn) === 'link';
    } catch {
      return false;
    }
  }
  function nameCounts(): Map<string, number> {
    const c = caches();
    if (!c.counts) {
      c.counts = new Map();
      const all: any[] = axe.utils.querySelectorAllFilter(axe._tree[0], 'a, area, [role="link"]', (v: any) => isLinkVNode(v) && isLinkForRule(v));
      for (const v of all.slice(0, 20000)) {
        const key = groupName(nameOf(v));
        if (key) c.counts.set(key, (c.counts.get(key) || 0) + 1);
      }
    }
    return c.counts;
  }

  axe.configure({
    checks: [
      {
        id: 'a11y-audit-link-text-descriptive',
        evaluate(this: any, node: Element, _options: unknown, virtualNode: any) {
          const name = nameOf(virtualNode);
          if (name === '') return true; // no name at all is link-name's failure, not ours
          const category = h.classifyLinkName(h.normaliseLinkName(name), lists);
          if (category === null) return true;
          const ctx = contextOf(virtualNode);
          const rel = (node.getAttribute('rel') || '').toLowerCase().split(/\s+/);
          const dest = destinationOf(virtualNode).destination;
          const title = `${node.getAttribute('title') || ''} ${node.getAttribute('aria-description') || ''}`;
          const normTitle = h.normaliseLinkName(title);
          const verdict = h.judgeLinkName({
            category,
            rel: rel.indexOf('next') !== -1 || rel.indexOf('prev') !== -1 || rel.indexOf('previous') !== -1 || (dest !== null && relTargets().has(dest)),
            inNavigation: ancestors(virtualNode, (a) => a.props.nodeName === 'nav' || roleAttr(a) === 'navigation'),
            inPagination: ancestors(virtualNode, (a) => PAGINATION.test(labelText(a)) || PAGINATION_CLASS.test(a.actualNode.getAttribute('class') || '')),
            hasContext: /[\p{L}\p{N}]/u.test(ctx.bare),
            hasDescription: normTitle !== '' && normTitle !== h.normaliseLinkName(name),
          });
          if (verdict.verdict === 'pass') return true;
          // What the offline fix texts need: the vague text and where the link goes (full, unlike
          // the engine's HTML snippet, which cuts long attribute values).
          this.data({
            name: name.slice(0, 120),
            href: (node.getAttribute('href') || '').slice(0, 500),
            messageKey: verdict.reason,
            context: ctx.full.slice(0, 160),
          });
          return verdict.verdict === 'confirmed' ? false : undefined;
        },
        metadata: {
          impact: 'serious',
          messages: {
            pass: 'Link text describes the link purpose',
            fail: 'Link text "${data.name}" does not say where the link goes, and nothing around it does: it is not in a sentence, list item or table cell with other words, and has no description',
            incomplete: {
              default: 'Link text "${data.name}" is vague; check that the text around it says where it goes',
              context: 'Link text "${data.name}" is vague on its own; check that its context ("${data.context}") says where it goes',
              description: 'Link text "${data.name}" is vague; only its title says where it goes, and many users never get a title',
              format: 'Link text "${data.name}" names a format, not what the link opens, and no text around it says what that is',
            },
          },
        },
      },
      {
        id: 'a11y-audit-link-identical-name-same-purpose',
        evaluate(this: any, node: Element, _options: unknown, virtualNode: any) {
          const name = nameOf(virtualNode);
          const key = groupName(name);
          if (key === '' || (nameCounts().get(key) || 0) < 2) return true;
          const c = caches();
          if (c.compared >= MAX_COMPARED) return true;
          c.compared++;
          const ctx = contextOf(virtualNode);
          const dest = destinationOf(virtualNode);
          this.data({
            name: name.slice(0, 120),
            // Links in other documents (frames) are never in the same context.
            group: `${key}\u0001${hash(ctx.full)}\u0001${token}`,
            context: ctx.ids,
            contextText: ctx.full.slice(0, 160),
            destination: dest.destination === null ? null : dest.destination.slice(0, 2000),
            from: dest.from,
          });
          this.relatedNodes([node]);
          return true;
        },
        after(results: any[]) {
          const applicable = results.filter((r) => r && r.data && typeof r.data.group === 'string');
          const verdicts = h.judgeIdenticalLinks(
            applicable.map((r) => ({ group: r.data.group, context: r.data.context || '', destination: r.data.destination, from: r.data.from === 'onclick' ? 'onclick' : 'href' })),
            h.compareDestinations,
          );
          const keep: any[] = [];
          applicable.forEach((r, i) => {
            const v = verdicts[i]!;
            if (v.verdict === 'not-applicable') return;
            r.relatedNodes = [];
            if (v.verdict === 'pass') {
              r.result = true;
              r.data = { name: r.data.name };
            } else {
              r.result = v.verdict === 'confirmed' ? false : undefined;
              r.data = {
                name: r.data.name,
                href: String(r.data.destination || '').slice(0, 500),
                others: v.others.map((o) => o.slice(0, 200)).join(', '),
                context: r.data.contextText,
                messageKey: v.relation,
              };
            }
            keep.push(r);
          });
          return keep;
        },
        metadata: {
          impact: 'serious',
          messages: {
            pass: 'Links with the same name and context go to the same place',
            fail: 'Links named "${data.name}" in the same context go to different places: this one to ${data.href}, others to ${data.others}',
            incomplete: {
              default: 'Links named "${data.name}" in the same context go to different addresses (${data.href}; ${data.others}); check that they lead to equivalent content',
              different: 'Links named "${data.name}" in the same context go to different pages (${data.href}; ${data.others}); check that those pages serve the same purpose, or name the links differently',
              fragment: 'Links named "${data.name}" in the same context go to different places in the same page (${data.href}; ${data.others}); check that the name tells them apart',
              query: 'Links named "${data.name}" in the same context ask the same page with different parameters (${data.href}; ${data.others}); check that they lead to the same content',
            },
          },
        },
      },
      {
        id: 'a11y-audit-link-href-destination',
        evaluate(this: any, node: Element, _options: unknown, virtualNode: any) {
          const href = node.getAttribute('href');
          if (href === null) return true;
          // A bare "#" goes to the top of the page: right for a link named after what is there.
          const namesTop = () => {
            const name = nameOf(virtualNode).toLowerCase();
            return name !== '' && (topText().indexOf(name) !== -1 || /\b(top|start)\b/.test(name));
          };
          const v = h.judgeLinkHref(href, node.getAttribute('onclick'), namesTop);
          if (v.verdict === 'pass') return true;
          this.data({ href: href.slice(0, 200), messageKey: v.reason });
          return v.verdict === 'confirmed' ? false : undefined;
        },
        metadata: {
          impact: 'serious',
          messages: {
            pass: 'The link goes to an address',
            fail: 'The link goes nowhere (${data.href}) and runs a script instead: it is announced as a link but acts as a button',
            incomplete: {
              default: 'The link goes nowhere by itself (${data.href}); check what activating it does: if it acts on the page rather than going somewhere, it must be a button',
              hash: 'The link only goes to the top of the page (href="#"); check what activating it does: if a script makes it act on the page, it must be a button, and if it should go somewhere, give it that address',
            },
          },
        },
      },
    ],
    rules: [
      {
        id: 'link-href-no-destination',
        selector: 'a[href], area[href]',
        matches: isLinkForRule,
        excludeHidden: true,
        tags: ['cat.name-role-value', 'wcag2a', 'wcag412', 'a11y-audit'],
        impact: 'serious',
        metadata: {
          description: 'Ensures that every link goes somewhere, and that what acts on the page is a button',
          help: 'A link must go to an address; a control that runs a script must be a button',
          helpUrl: 'https://www.w3.org/WAI/WCAG22/Understanding/name-role-value.html',
        },
        all: [],
        any: ['a11y-audit-link-href-destination'],
        none: [],
      },
      {
        id: 'link-text-generic',
        selector: LINKS,
        matches: isLinkForRule,
        excludeHidden: true,
        tags: ['cat.name-role-value', 'wcag2a', 'wcag244', 'a11y-audit'],
        impact: 'serious',
        metadata: {
          description: 'Ensures the text of every link, alone or with its context, tells where the link goes',
          help: 'Link text must describe the purpose of the link',
          helpUrl: 'https://www.w3.org/WAI/WCAG22/Understanding/link-purpose-in-context.html',
        },
        all: [],
        any: ['a11y-audit-link-text-descriptive'],
        none: [],
      },
      {
        id: 'link-identical-name-different-purpose',
        selector: LINKS,
        matches: isLinkForRule,
        excludeHidden: true,
        tags: ['cat.name-role-value', 'wcag2a', 'wcag244', 'a11y-audit'],
        impact: 'serious',
        metadata: {
          description: 'Ensures that links with the same name and the same context go to the same place',
          help: 'Links with the same text in the same context must lead to the same place',
          helpUrl: 'https://www.w3.org/WAI/WCAG22/Understanding/link-purpose-in-context.html',
        },
        all: [],
        any: ['a11y-audit-link-identical-name-same-purpose'],
        none: [],
      },
    ],
  });
}

/** Source to append to axe-core's own source: it registers the custom rules on load. */
export function customRulesSource(lang = 'en'): string {
  const lists = LINK_NAME_LISTS[lang] ?? LINK_NAME_LISTS.en!;
  const fns: Helpers = { normaliseLinkName, classifyLinkName, judgeLinkName, compareDestinations, onclickDestination, judgeIdenticalLinks, judgeLinkHref };
  const helpers = Object.entries(fns)
    .map(([key, fn]) => `${key}: (${String(fn)})`)
    .join(',\n');
  return `;(${registerCustomRules.toString()})(window.axe, ${JSON.stringify(lists)}, {\n${helpers}\n});`;
}
