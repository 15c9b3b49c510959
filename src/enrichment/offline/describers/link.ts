/** Links without a name or with vague text: the link rewritten to name its destination. */
import type { PageInfo } from '../../../shared/summary.ts';
import { wordsFrom } from '../markup.ts';
import { attrEscape, cap, fill, MAX_FIX, quote, textEscape, within, type Part } from '../text.ts';
import { DOC_TYPES, INDEX_PAGE } from '../vocabulary.ts';
import { LEAD, LINK } from '../wording.ts';
import type { Ctx, Texts } from './context.ts';

/** A name for where a link goes, from its title, address or the page itself. */
export function destinationName(href: string | undefined, title: string | undefined, page?: PageInfo): { text: string; from: string } | undefined {
  if (title && title.trim().length > 3) return { text: cap(title.trim(), 80), from: LINK.fromTitle };
  if (!href) return undefined;
  const h = href.trim();
  const mail = /^mailto:([^?]+)/i.exec(h);
  if (mail) return { text: fill(LINK.email, { address: mail[1]! }), from: LINK.fromAddress };
  const tel = /^tel:(.+)/i.exec(h);
  if (tel) return { text: fill(LINK.call, { number: tel[1]! }), from: LINK.fromAddress };
  if (/^(javascript|data):/i.test(h)) return undefined;
  let url: URL;
  try {
    url = new URL(h, page?.url ?? 'http://page.invalid/');
  } catch {
    return undefined;
  }
  let base: URL | undefined;
  try {
    base = page ? new URL(page.url) : undefined;
  } catch {
    base = undefined;
  }
  const samePage = base && url.origin === base.origin && url.pathname === base.pathname && url.search === base.search;
  if (samePage && url.hash.length > 1) {
    const w = wordsFrom(url.hash.slice(1));
    if (w) return { text: w, from: LINK.fromSection };
  }
  if (samePage && page?.title) return { text: cap(page.title, 80), from: LINK.fromPageTitle };
  const external = base ? url.host !== base.host : /^[a-z][a-z0-9+.-]*:\/\//i.test(h);
  const host = url.hostname.replace(/^www\./, '');
  const segments = url.pathname.split('/').filter(Boolean).filter((seg) => !INDEX_PAGE.test(seg));
  let words: string | undefined;
  let kind = '';
  for (let i = segments.length - 1; i >= 0 && !words; i--) {
    const seg = segments[i]!;
    const ext = /\.([a-z0-9]{2,5})$/i.exec(seg)?.[1]?.toLowerCase();
    if (ext && DOC_TYPES[ext] && i === segments.length - 1) kind = ` (${DOC_TYPES[ext]})`;
    words = wordsFrom(seg);
  }
  if (!words) {
    if (segments.length === 0 && !url.search) return { text: external ? fill(LINK.siteHomePage, { host: `${host.charAt(0).toUpperCase()}${host.slice(1)}` }) : LINK.homePage, from: LINK.fromAddress };
    return undefined;
  }
  return { text: `${words}${kind}${external ? fill(LINK.onHost, { host }) : ''}`, from: LINK.fromAddress };
}

export function describeLink({ f, facts, guide, tail, page }: Ctx): Texts | undefined {
  const el = facts.element;
  if (!el || !f.elementHtml) return undefined;
  const generic = f.ruleId === 'link-text-generic';
  if (generic && !el.text) return undefined;
  const dest = destinationName(el.href, el.title, page);
  const to = el.href ? fill(LINK.pointsTo, { href: quote(el.href, 100) }) : '';
  const description = generic
    ? fill(f.type === 'needs_review' ? LINK.vagueReview : LINK.vague, { text: quote(el.text!), to, who: guide.who, tail })
    : fill(LINK.unnamed, { to, who: guide.who, tail });
  const newText = dest?.text ?? LINK.placeholder;
  const origin = dest ? fill(LINK.suggestion, { text: quote(newText), from: dest.from }) : LINK.noSuggestion;
  const plain = !el.hasChildElements && !el.truncated && !/\n/.test(f.elementHtml) && f.elementHtml.length <= 600;
  const start = /^<a\b[^>]*>/i.exec(f.elementHtml)?.[0];
  const parts: Part[] = [];
  if (plain && start && /<\/a>\s*$/i.test(f.elementHtml)) {
    parts.push({ text: `${generic ? LINK.rewrite : LINK.giveText} ${origin} ${LEAD.replaceElement}` });
    parts.push({ text: `${start}${textEscape(newText)}</a>` });
  } else {
    // Content we cannot rewrite safely (icons, images, cut HTML): a name that starts with what is visible.
    const label = generic ? `${el.text}: ${newText}` : newText;
    parts.push({ text: `${generic ? LINK.nameDestination : LINK.giveName} ${origin} ${generic ? `${LINK.visibleWordsFirst} ` : ''}${LEAD.addAttribute}` });
    parts.push({ text: `aria-label="${attrEscape(label)}"` });
    if (!generic) parts.push({ text: LINK.betterStill, optional: true });
  }
  if (generic) parts.push({ text: LINK.hiddenText, optional: true });
  return { description, fix: within(MAX_FIX, parts) };
}
