/**
 * Issue groups: the same rule failing on the same element of the same page template (the
 * navigation bar, the footer, the search box repeated on every page) share one group key, so a
 * template-wide problem is reported, explained and paid for once. The key is a fingerprint of the
 * rule, the element's selector path with positions and numbers generalised, and the element's
 * HTML shape (tags and attribute names, not texts or values): never of the page URL.
 */
import { createHash } from 'node:crypto';
import { parseDocument } from 'htmlparser2';

/** Attributes whose values say what kind of element it is (kept); all other values are dropped. */
const KIND_ATTRIBUTES = new Set(['type', 'role', 'rel', 'aria-hidden', 'disabled', 'readonly']);
const MAX_HTML = 2000;

interface TagNode {
  name: string;
  attribs: Record<string, string>;
  children: unknown[];
}
const isTag = (n: unknown): n is TagNode => typeof n === 'object' && n !== null && 'name' in n && 'attribs' in n;

/**
 * The selector path with what varies from page to page generalised: positions, numbers, ids (often
 * named after a section's heading) and attribute values (relative links change with a page's
 * depth). Tags, classes and structure stay: they carry the styles and the template. So
 * `#installing-ipython > ul > li:nth-child(7) > a[href="../../index.html"]` becomes
 * `#id > ul > li:nth-child(n) > a[href]`.
 */
export function normaliseSelectorPath(selector: string): string {
  return selector
    .replace(/\s+/g, ' ')
    .replace(/\[([\w-]+)\s*[~|^$*]?=\s*("(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'|[^\]]*)\]/g, '[$1]')
    .replace(/#(?:\\.|[^\s>+~.:#[\]\\])+/g, '#id')
    .replace(/:(nth-child|nth-of-type|nth-last-child|nth-last-of-type)\([^)]*\)/g, ':$1(n)')
    .replace(/\d+/g, 'N')
    .trim()
    .toLowerCase();
}

/** Tag names and attribute names of the element and its direct children: `a[class,href](span[class])`. */
export function htmlShape(html: string): string {
  const doc = parseDocument(html.slice(0, MAX_HTML), { lowerCaseTags: true, lowerCaseAttributeNames: true });
  const root: TagNode | undefined = (doc.children as unknown[]).find(isTag);
  if (!root) return '';
  const describe = (el: TagNode) =>
    `${el.name}[${Object.keys(el.attribs)
      .sort()
      .map((a) => (KIND_ATTRIBUTES.has(a) ? `${a}=${el.attribs[a]!.toLowerCase()}` : a))
      .join(',')}]`;
  const children = root.children
    .filter(isTag)
    .map((c) => c.name)
    .join(',');
  return `${describe(root)}(${children})`;
}

export function groupKey(ruleId: string, selector: string, html: string): string {
  return createHash('sha256').update(`${ruleId}\n${normaliseSelectorPath(selector)}\n${htmlShape(html)}`).digest('hex').slice(0, 24);
}
