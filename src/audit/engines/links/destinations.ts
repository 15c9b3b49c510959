/**
 * Where links go, and whether links with the same name and the same context go to the same
 * place (WCAG 2.4.4, ACT rule fd3a94 "Links with identical accessible names and same context
 * serve equivalent purpose").
 *
 * Like `link-names.ts`, these functions are injected into the page as source text: each is
 * self-contained (arguments and built-ins only).
 */

/**
 * How two absolute link targets relate, without following them (the scan stays on its page):
 * - `same`: the same resource once the URL is normalised: scheme http/https, a leading `www.`,
 *   default ports, a trailing slash, `index.html`-like file names, the order of query
 *   parameters and tracking parameters (`utm_*`, `gclid`…) are not told apart, nor an empty or
 *   `#top` fragment from none;
 * - `fragment`: the same document, different places in it;
 * - `query`: the same address asked with different query parameters;
 * - `different`: another path or host (may still be an equivalent page: only a person, or
 *   following the link, can tell);
 * - `unknown`: either is not a URL one can compare (`javascript:`, unparsable).
 */
export type DestinationRelation = 'same' | 'fragment' | 'query' | 'different' | 'unknown';

export function compareDestinations(a: string, b: string): DestinationRelation {
  const TRACKING = /^(utm_[a-z_]+|gclid|fbclid|msclkid|dclid|mc_cid|mc_eid|_ga|_gl|yclid|igshid)$/i;
  const parse = (s: string) => {
    let u: URL;
    try {
      u = new URL(s);
    } catch {
      return null;
    }
    const scheme = u.protocol.toLowerCase();
    if (scheme === 'javascript:' || scheme === 'data:' || scheme === 'blob:') return null;
    if (scheme !== 'http:' && scheme !== 'https:') {
      return { base: `${scheme}${decodeURIComponent(u.pathname).toLowerCase()}`, query: u.search, fragment: '' };
    }
    const host = u.hostname.toLowerCase().replace(/^www\./, '').replace(/\.$/, '');
    const port = u.port && !((scheme === 'http:' && u.port === '80') || (scheme === 'https:' && u.port === '443')) ? `:${u.port}` : '';
    let path = u.pathname.replace(/\/(index|default)\.(html?|php|aspx?|jsp)$/i, '/');
    if (path.length > 1) path = path.replace(/\/+$/, '');
    if (path === '') path = '/';
    const params = [...u.searchParams.entries()].filter(([k]) => !TRACKING.test(k)).map(([k, v]) => `${k}=${v}`).sort();
    const fragment = u.hash.replace(/^#/, '');
    return { base: `//${host}${port}${path}`, query: params.join('&'), fragment: fragment === 'top' ? '' : fragment };
  };
  const x = parse(a);
  const y = parse(b);
  if (!x || !y) return 'unknown';
  if (x.base !== y.base) return 'different';
  if (x.query !== y.query) return 'query';
  if (x.fragment !== y.fragment) return 'fragment';
  return 'same';
}

/**
 * The address a script-driven link (`role="link"` with no `href`) goes to, when its `onclick`
 * is a plain assignment to `location` (`location='…'`, `location.href = "…"`,
 * `location.assign('…')`, `window.open('…')`); null for anything else.
 */
export function onclickDestination(onclick: string | null): string | null {
  if (!onclick) return null;
  const m = /(?:^|[^\w.])(?:(?:window|document|self|top)\.)?(?:location(?:\.href)?\s*=\s*|location\.(?:assign|replace)\s*\(\s*|open\s*\(\s*)(['"`])([^'"`]+)\1/.exec(String(onclick));
  return m ? m[2]! : null;
}

/** One link of the page, as the identical-names check sees it. */
export interface LinkForComparison {
  /** Normalised accessible name and full text of its context: links with the same key are compared. */
  group: string;
  /** Identity of its context elements (the same elements, not only the same text); '' when unknown. */
  context: string;
  /** Absolute target, or null when it cannot be known without running the page's scripts. */
  destination: string | null;
  /** The target comes from the `href`, or was read from an `onclick` handler (less certain). */
  from: 'href' | 'onclick';
}

export type IdenticalLinkVerdict =
  | { verdict: 'not-applicable' }
  | { verdict: 'pass' }
  | { verdict: 'confirmed' | 'needs_review'; relation: Exclude<DestinationRelation, 'same' | 'unknown'>; others: string[] };

/**
 * For each link: not applicable when no other link has its name and context (or its target is
 * unknown); pass when all of them go to the same resource; otherwise a finding with the other
 * targets. Confirmed only when another link in the very same context elements, both with an
 * `href`, asks the same address with other query parameters (the same page cannot return two
 * different things to the same request unless the query changes it, and a person cannot tell
 * the links apart); `needs_review` where another page may be equivalent (different path or
 * host: redirects and copies cannot be followed from here) or only the fragment differs.
 * `compare` is `compareDestinations` (passed in so that this function stays self-contained).
 */
export function judgeIdenticalLinks(
  links: readonly LinkForComparison[],
  compare: (a: string, b: string) => DestinationRelation,
): IdenticalLinkVerdict[] {
  const byGroup = new Map<string, number[]>();
  links.forEach((l, i) => {
    if (l.destination === null) return;
    const g = byGroup.get(l.group);
    if (g) g.push(i);
    else byGroup.set(l.group, [i]);
  });
  const out: IdenticalLinkVerdict[] = links.map(() => ({ verdict: 'not-applicable' }));
  const rank = { fragment: 1, different: 2, query: 3 } as const;
  for (const members of byGroup.values()) {
    if (members.length < 2) continue;
    for (const i of members) {
      const me = links[i]!;
      let worst: keyof typeof rank | null = null;
      let certain = false;
      const others: string[] = [];
      let comparable = false;
      for (const j of members) {
        if (j === i) continue;
        const other = links[j]!;
        const rel = compare(me.destination!, other.destination!);
        if (rel === 'unknown') continue;
        comparable = true;
        if (rel === 'same') continue;
        if (worst === null || rank[rel] > rank[worst]) worst = rel;
        if (rel === 'query' && me.from === 'href' && other.from === 'href' && me.context !== '' && me.context === other.context) certain = true;
        if (others.indexOf(other.destination!) === -1 && others.length < 5) others.push(other.destination!);
      }
      if (!comparable) continue;
      out[i] = worst === null ? { verdict: 'pass' } : { verdict: certain ? 'confirmed' : 'needs_review', relation: worst, others };
    }
  }
  return out;
}

/**
 * Whether a link's `href` takes it anywhere (WCAG 4.1.2: a link is announced as a link, so its
 * function must be to go somewhere; one that only runs a script acts as a button):
 * - `confirmed` (`script`): a `javascript:` address whose code does something other than going
 *   to another address, or an empty address (`javascript:void(0)`, a bare `#`) whose `onclick`
 *   calls script that does not navigate: the link acts on the page;
 * - `needs_review` (`void`, `hash`): a `javascript:void(0)` or a bare `#` with no `onclick`: by
 *   itself it goes nowhere (or to the top of the page), and what a listener added by script does
 *   with it cannot be read from the markup;
 * - `pass`: any other address, `#top`, a hash route (`#/…`, `#!/…`), script that navigates, a
 *   bare `#` that names the top of the page (`namesTop`, asked only of a bare `#`: its name is the
 *   page's title or first heading, as a table of contents' first entry is, or says "top").
 */
export function judgeLinkHref(href: string, onclick: string | null, namesTop: () => boolean = () => false): { verdict: 'pass' } | { verdict: 'confirmed' | 'needs_review'; reason: 'script' | 'void' | 'hash' } {
  const NAVIGATES = /\blocation\b|\.href\b|\bopen\s*\(|\bnavigate\w*\s*\(|\bhistory\.|\.submit\s*\(|\bgo\s*\(|\brouter\b|\bassign\s*\(/i;
  const raw = String(href).trim();
  let code: string | null = null;
  if (/^javascript:/i.test(raw)) {
    code = raw.slice(11);
    try {
      code = decodeURIComponent(code);
    } catch {
      // Not percent-encoded as a URL would be: read it as written.
    }
  }
  const bareHash = raw === '#' || raw === '#!';
  if (code === null && !bareHash) return { verdict: 'pass' };
  const empty = (s: string) => /^[\s;]*(?:void\s*\(?\s*0\s*\)?|undefined|null|false|return\s+false)?[\s;]*$/i.test(s);
  if (code !== null && !empty(code)) return NAVIGATES.test(code) ? { verdict: 'pass' } : { verdict: 'confirmed', reason: 'script' };
  const handler = String(onclick || '');
  if (NAVIGATES.test(handler)) return { verdict: 'pass' };
  // Something is called other than cancelling the click: the link acts on the page.
  const calls = handler.replace(/\b(?:event|e)\.(?:preventDefault|stopPropagation)\s*\(\s*\)/g, '').replace(/\breturn\s+false\b/g, '');
  if (/[\w$\]]\s*\(/.test(calls) || /[\w$\].]\s*=[^=]/.test(calls)) return { verdict: 'confirmed', reason: 'script' };
  if (bareHash && namesTop()) return { verdict: 'pass' };
  return { verdict: 'needs_review', reason: code !== null ? 'void' : 'hash' };
}
