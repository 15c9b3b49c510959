/**
 * The built-in enricher: descriptions, fixes and page summaries written without a model, from the
 * rule's guide and what the engine measured on each element (colours and ratio, target size, the
 * element's attributes). Texts are plain text; HTML and CSS appear literally.
 *
 * Element-specific fixes put each suggested piece of code on its own line after a lead-in line
 * that ends with one of these phrases, so that a person can copy it and a tool can apply it:
 *   "Replace the element with:"    the corrected element (HTML)
 *   "Replace the start tag with:"  the element's corrected start tag (HTML)
 *   "Add before the element:"      markup to insert just before the element (HTML)
 *   "Add after the element:"       markup to insert just after the element (HTML)
 *   "Add this attribute to the element:"  one attribute (HTML)
 *   "Add this CSS:"                one CSS rule on one line
 */
import { SEVERITIES, type Severity } from '../shared/contracts.ts';
import { successCriterion } from '../shared/wcag.ts';
import type { ContrastFacts, ElementFacts, ReviewFacts, TargetFacts } from '../shared/findings.ts';
import { groupKey as computeGroupKey } from '../audit/findings/group-key.ts';
import { formatRatio, nearestPassingColour, parseHex } from './colour.ts';
import { NO_USAGE, type Enricher, type FindingTextsOut } from './enricher.ts';
import { DEFAULT_GUIDE, FIX_GUIDES, type FixGuide } from '../shared/rules/index.ts';
import type { EnrichableFinding, PageInfo, PassedRuleInfo, TopPriority, PositiveFinding, ScanSummary, FindingTexts } from '../shared/summary.ts';








/** Upper bounds of the texts, in characters. */
export const MAX_DESCRIPTION = 800;
export const MAX_FIX = 1500;

const rank = (s: Severity) => SEVERITIES.indexOf(s);

function criterionLabel(id: string): string {
  const sc = successCriterion(id);
  return sc ? `WCAG ${sc.id} ${sc.title} (Level ${sc.level})` : `WCAG ${id}`;
}

function sentence(s: string): string {
  const t = s.trim();
  return t === '' || /[.!?]$/.test(t) ? t : `${t}.`;
}

/** Cuts at a word boundary and marks the cut. */
function cap(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.search(/\s\S*$/);
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** A short piece of page text, quoted. */
function quote(s: string, max = 80): string {
  return `"${cap(s.replace(/\s+/g, ' ').trim(), max)}"`;
}

/** Required parts in order, then optional ones while they fit within `max`. */
function within(max: number, parts: ReadonlyArray<{ text: string; optional?: boolean }>): string {
  let out = '';
  for (const p of parts) {
    if (!p.text) continue;
    const next = out ? `${out}\n\n${p.text}` : p.text;
    if (p.optional && next.length > max) continue;
    out = next;
  }
  return cap(out, max);
}

const attrEscape = (v: string) => v.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
const textEscape = (v: string) => v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

// ---- reading the engine's facts ----------------------------------------------------------------

const obj = (v: unknown): Record<string, unknown> | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined);
const s = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : undefined);
const n = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

interface Facts {
  contrast?: ContrastFacts;
  target?: TargetFacts;
  element?: ElementFacts;
  review?: ReviewFacts;
  viewport?: string;
}

function factsOf(f: EnrichableFinding): Facts {
  const d = obj(f.data) ?? {};
  const c = obj(d.contrast);
  const t = obj(d.target);
  const e = obj(d.element);
  const r = obj(d.review);
  return {
    contrast: c && {
      fgColor: s(c.fgColor),
      bgColor: s(c.bgColor),
      contrastRatio: n(c.contrastRatio),
      expectedContrastRatio: s(c.expectedContrastRatio),
      fontSize: s(c.fontSize),
      fontWeight: s(c.fontWeight),
    },
    target: t && { minSize: n(t.minSize) ?? 24, width: n(t.width), height: n(t.height), closestOffset: n(t.closestOffset), minOffset: n(t.minOffset) },
    element: e && s(e.tag)
      ? {
          tag: s(e.tag)!,
          id: s(e.id),
          name: s(e.name),
          type: s(e.type),
          placeholder: s(e.placeholder),
          src: s(e.src),
          href: s(e.href),
          title: s(e.title),
          lang: typeof e.lang === 'string' ? e.lang : undefined,
          text: s(e.text),
          hasChildElements: e.hasChildElements === true,
          truncated: e.truncated === true,
        }
      : undefined,
    review: r && { messageKey: s(r.messageKey), reason: s(r.reason) },
    viewport: s(d.viewport),
  };
}

/** The last part of a frame / shadow DOM selector, which is what CSS inside that document matches. */
function cssSelector(selector: string): { selector: string; nested: boolean } {
  const parts = selector.split(' >>> ');
  return { selector: parts.at(-1)!.trim(), nested: parts.length > 1 };
}

function nestedNote(nested: boolean): string {
  return nested ? ' (the element is inside a frame or shadow root: put the CSS in that document or component)' : '';
}

/** Turns a file name, path segment or identifier into words: `red-bicycle_2x.jpg` → "Red bicycle". */
export function wordsFrom(raw: string, drop: readonly string[] = []): string | undefined {
  let v = raw;
  try {
    v = decodeURIComponent(v);
  } catch {
    // keep as is
  }
  const words = v
    .replace(/\.[a-z0-9]{1,5}$/i, '') // extension
    .replace(/@\d+(\.\d+)?x$/i, '') // @2x
    .replace(/([a-z])([A-Z])/g, '$1 $2') // camelCase
    .replace(/[[\]]/g, ' ')
    .split(/[\s\-_+.,;:~()]+/)
    .filter(
      (w) =>
        w !== '' &&
        !/^\d+x\d+$/i.test(w) && // 300x200
        !/^@?\d+x$/i.test(w) && // @2x
        !(/^\d{3,}$/.test(w) && !/^(19|20)\d\d$/.test(w)) && // long numbers, but not years
        !(/\d/.test(w) && /[a-z]/i.test(w) && w.length >= 6) && // hashes, ids
        !/^(img|image|dsc|dscn|pic|photo|file|scan|copy|final|thumb|thumbnail|small|large|medium|web|min|edit|field|input|fld|txt|frm)$/i.test(w) &&
        !drop.includes(w.toLowerCase()),
    );
  const text = words.join(' ').toLowerCase().trim();
  if (!/[a-z\p{L}]{2,}/iu.test(text)) return undefined;
  const out = text.charAt(0).toUpperCase() + text.slice(1);
  return out.length > 80 ? cap(out, 80) : out;
}

const START_TAG = /^<([a-z][a-z0-9-]*)((?:\s+[^\s"'=/>]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*)\s*(\/?)>/i;
const ATTRIBUTE = /\s+([^\s"'=/>]+)(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?/g;

/**
 * The element's HTML with one attribute set (replaced if present, else appended to the start tag),
 * everything else exactly as the engine gave it. Undefined when the engine cut the start tag.
 */
export function withAttribute(html: string, name: string, value: string): string | undefined {
  const m = START_TAG.exec(html);
  if (!m || /\s\.\.\.>$/.test(m[0])) return undefined;
  const kept = [...m[2]!.matchAll(ATTRIBUTE)].filter((a) => a[1]!.toLowerCase() !== name.toLowerCase()).map((a) => a[0]);
  return `<${m[1]}${kept.join('')} ${name}="${attrEscape(value)}"${m[3] ? ' /' : ''}>${html.slice(m[0].length)}`;
}

// ---- rule-specific texts -----------------------------------------------------------------------

interface Ctx {
  f: EnrichableFinding;
  facts: Facts;
  guide: FixGuide;
  page?: PageInfo;
  /** " This fails WCAG …." plus the review note. */
  tail: string;
}
type Texts = { description: string; fix: string };

function describeContrast({ f, facts, guide, tail }: Ctx): Texts | undefined {
  const c = facts.contrast;
  if (!c) return undefined;
  const text = facts.element?.text ? `The text ${quote(facts.element.text, 60)}` : 'This text';
  const expected = c.expectedContrastRatio ?? '4.5:1';
  const target = parseFloat(expected) || 4.5;
  const large = target < 4.5;
  const font = c.fontSize ? ` at ${c.fontSize}${c.fontWeight ? ` ${c.fontWeight} weight` : ''}` : '';
  const need = `it needs at least ${expected}${large ? ' (large text)' : ''}${font}`;
  const fg = c.fgColor ? parseHex(c.fgColor) : undefined;
  const bg = c.bgColor ? parseHex(c.bgColor) : undefined;
  if (!fg || !bg || c.contrastRatio === undefined) {
    const why = facts.review?.reason ? ` ${sentence(facts.review.reason)}` : '';
    return {
      description: `${text} could not be measured for contrast automatically.${why} ${guide.who}${tail}`,
      fix: within(MAX_FIX, [
        { text: `Check by hand that the text reaches a contrast ratio of ${expected} against what is actually behind it (for text over an image or gradient, against its lightest and darkest parts), with a colour picker and a contrast checker.` },
        { text: `If it does not, darken the text or lighten what is behind it; over images, add a solid or semi-opaque background behind the text.` },
      ]),
    };
  }
  const ratio = formatRatio(c.contrastRatio);
  const description = `${text} has a contrast ratio of ${ratio} (text ${c.fgColor} on background ${c.bgColor}); ${need}. ${guide.who}${tail}`;
  const better = nearestPassingColour(fg, bg, target);
  const betterBg = nearestPassingColour(bg, fg, target);
  const { selector, nested } = cssSelector(f.elementSelector);
  const parts: Array<{ text: string; optional?: boolean }> = [];
  if (better) {
    parts.push({
      text:
        `Raise the contrast to at least ${expected}. Keeping the hue and changing only the lightness, the nearest text colour that reaches it on ${c.bgColor} is ${better.hex} (${formatRatio(better.ratio)}), ${better.direction} than ${c.fgColor}. ` +
        `Add this CSS${nestedNote(nested)}:`,
    });
    parts.push({ text: `${selector} { color: ${better.hex}; }` });
  } else {
    parts.push({ text: `Raise the contrast to at least ${expected}: darken the text or lighten the background.` });
  }
  if (betterBg && (!better || betterBg.lightnessChange < better.lightnessChange)) {
    parts.push({ text: `Or keep the text colour and change the background to ${betterBg.hex} (${formatRatio(betterBg.ratio)}).`, optional: true });
  }
  parts.push({
    text: 'Where the colour comes from a shared class, custom property or design token, change it there so that every use is fixed, and check hover, focus and visited states too.',
    optional: true,
  });
  return { description, fix: within(MAX_FIX, parts) };
}

const DOC_TYPES: Readonly<Record<string, string>> = { pdf: 'PDF', doc: 'Word', docx: 'Word', xls: 'Excel', xlsx: 'Excel', csv: 'CSV', ppt: 'PowerPoint', pptx: 'PowerPoint', zip: 'ZIP', odt: 'ODT', ods: 'ODS', epub: 'EPUB' };

/** A file name usable as a suggestion (none for data: URIs, cut values, or names that are only ids). */
function fileNameOf(src: string | undefined): string | undefined {
  if (!src || /^data:/i.test(src) || /\.\.\.$/.test(src)) return undefined;
  let path = src;
  try {
    path = new URL(src, 'http://example.invalid/').pathname;
  } catch {
    // a relative path that URL cannot read: use as is
  }
  return path.split('/').filter(Boolean).at(-1);
}

function describeImage({ f, facts, guide, tail }: Ctx): Texts | undefined {
  const el = facts.element;
  if (!el || !f.elementHtml) return undefined;
  const button = f.ruleId === 'input-image-alt';
  const file = fileNameOf(el.src);
  const suggested = file ? wordsFrom(file, button ? ['icon', 'ico', 'btn', 'button', 'submit', 'sprite'] : ['icon', 'ico', 'sprite']) : undefined;
  const alt = suggested ?? (button ? 'Submit' : 'Describe what the image shows');
  const srcNote = el.src && !/^data:/i.test(el.src) ? ` ${quote(el.src, 100)}` : '';
  const description = button
    ? `The image button${srcNote} has no alternative text, so it has no name. ${guide.who}${tail}`
    : `The image${srcNote} has no text alternative. ${guide.who}${tail}`;
  const corrected = withAttribute(f.elementHtml, 'alt', alt);
  const whole = corrected !== undefined && corrected.length <= 600 && !/\n/.test(corrected);
  const origin = suggested
    ? `The text ${quote(alt)} is only a suggestion taken from the file name ${quote(file!, 60)}: check it against the image before you use it.`
    : button
      ? `The text "Submit" is a placeholder: name the action the button performs (for example "Search").`
      : 'No useful text could be taken from the file name: replace the placeholder with what the image shows.';
  const lead = button ? 'Add an alt attribute that names what the button does.' : 'Add an alt attribute that says what the image shows or does.';
  const parts: Array<{ text: string; optional?: boolean }> = [
    { text: `${lead} ${origin} ${whole ? 'Replace the element with:' : 'Add this attribute to the element:'}` },
    { text: whole ? corrected! : `alt="${attrEscape(alt)}"` },
  ];
  parts.push({
    text: button
      ? 'Describe the action ("Search", "Send"), not the picture ("magnifying glass").'
      : 'If the image is only decoration, use alt="" instead. If it is a link or button, describe where it goes or what it does, not how it looks.',
    optional: true,
  });
  return { description, fix: within(MAX_FIX, parts) };
}

const FIELD_LABELS: Readonly<Record<string, string>> = {
  email: 'Email address',
  tel: 'Phone number',
  search: 'Search',
  password: 'Password',
  url: 'Website address',
  number: 'Number',
  date: 'Date',
  'datetime-local': 'Date and time',
  month: 'Month',
  week: 'Week',
  time: 'Time',
  file: 'File to upload',
  color: 'Colour',
  range: 'Value',
  checkbox: 'Option',
  radio: 'Option',
};

function fieldKind(el: ElementFacts): string {
  if (el.tag === 'select') return 'select list';
  if (el.tag === 'textarea') return 'text area';
  const t = (el.type ?? 'text').toLowerCase();
  if (t === 'checkbox' || t === 'radio') return t === 'radio' ? 'radio button' : 'checkbox';
  return `${t} field`;
}

function describeLabel({ f, facts, guide, tail }: Ctx): Texts | undefined {
  const el = facts.element;
  if (!el || !f.elementHtml) return undefined;
  const fromName = el.name ? wordsFrom(el.name) : undefined;
  const fromId = !fromName && el.id ? wordsFrom(el.id, ['unlabeled', 'unlabelled']) : undefined;
  const fromPlaceholder = !fromName && !fromId && el.placeholder ? cap(el.placeholder, 60) : undefined;
  const typeLabel = el.tag === 'select' ? 'Choose an option' : el.tag === 'textarea' ? 'Message' : FIELD_LABELS[(el.type ?? 'text').toLowerCase()];
  const labelText = fromName ?? fromId ?? fromPlaceholder ?? typeLabel ?? 'Describe what to enter';
  const source = fromName ? `the field's name ${quote(el.name!, 40)}` : fromId ? `the field's id ${quote(el.id!, 40)}` : fromPlaceholder ? 'the placeholder' : undefined;
  const kind = fieldKind(el);
  const ids = [el.id ? `id ${quote(el.id, 40)}` : '', el.name ? `name ${quote(el.name, 40)}` : ''].filter(Boolean).join(', ');
  const description = `This ${kind}${ids ? ` (${ids})` : ''} has no label that names it. ${guide.who}${tail}`;
  const origin = source
    ? `The label text ${quote(labelText)} is a suggestion from ${source}: check that it says what to enter or choose.`
    : `The label text ${quote(labelText)} is a placeholder: write what the person should enter or choose.`;
  const after = el.tag === 'input' && /^(checkbox|radio)$/i.test(el.type ?? '');
  const parts: Array<{ text: string; optional?: boolean }> = [];
  if (el.id) {
    parts.push({ text: `Add a visible label and tie it to the field with for="${el.id}". ${origin} ${after ? 'Add after the element:' : 'Add before the element:'}` });
    parts.push({ text: `<label for="${attrEscape(el.id)}">${textEscape(labelText)}</label>` });
  } else {
    const inner = f.elementHtml.length <= 400 && !/\n/.test(f.elementHtml) && !el.truncated ? f.elementHtml : undefined;
    parts.push({
      text: `Wrap the field in a visible label (it has no id for a for attribute to point at). ${origin} ${inner ? 'Replace the element with:' : 'Wrap it like this:'}`,
    });
    const field = inner ?? `<${el.tag}${el.name ? ` name="${attrEscape(el.name)}"` : ''}>${el.tag === 'input' ? '' : `…</${el.tag}>`}`;
    parts.push({ text: after ? `<label>${field} ${textEscape(labelText)}</label>` : `<label>${textEscape(labelText)} ${field}</label>` });
  }
  parts.push({
    text: 'A placeholder is not a label: it disappears while typing. Use aria-label only where a visible label is impossible.',
    optional: true,
  });
  return { description, fix: within(MAX_FIX, parts) };
}

const INLINE_TAGS = new Set(['a', 'span', 'label', 'abbr', 'b', 'i', 'em', 'strong', 'small', 'code', 'cite', 'u', 'sup', 'sub']);
const num1 = (v: number) => String(Math.round(v * 10) / 10);
const px = (v: number) => `${num1(v)}px`;

function describeTarget({ f, facts, guide, tail }: Ctx): Texts | undefined {
  const t = facts.target;
  if (!t || t.width === undefined || t.height === undefined) return undefined;
  const min = t.minSize || 24;
  const el = facts.element;
  const what = el ? `This ${el.tag === 'a' ? 'link' : el.tag === 'input' ? `${el.type ?? 'input'} control` : el.tag}${el.text ? ` (${quote(el.text, 40)})` : ''}` : 'This target';
  const mobile = f.ruleId === 'target-size-mobile';
  const where = mobile ? ` at the ${facts.viewport?.split('x')[0] ?? '390'}px-wide mobile view` : '';
  const spacing = t.closestOffset !== undefined ? `, and the targets around it leave a safe clickable space of only ${px(t.closestOffset)} across` : '';
  const description = `${what} measures ${num1(t.width)} × ${num1(t.height)} CSS px${where}; targets need at least ${min} × ${min} px or enough space around them${spacing}. ${guide.who}${tail}`;
  const moreW = Math.max(0, min - t.width);
  const moreH = Math.max(0, min - t.height);
  const padW = Math.ceil(moreW / 2);
  const padH = Math.ceil(moreH / 2);
  const grow = [moreW > 0 ? `${px(moreW)} more width (${padW}px more padding on the left and right)` : '', moreH > 0 ? `${px(moreH)} more height (${padH}px more padding on the top and bottom)` : '']
    .filter(Boolean)
    .join(' and ');
  const { selector, nested } = cssSelector(f.elementSelector);
  const decls = [
    el && INLINE_TAGS.has(el.tag) ? 'display: inline-block;' : '',
    moreW > 0 ? `min-width: ${min}px;` : '',
    moreH > 0 ? `min-height: ${min}px;` : '',
  ].filter(Boolean);
  if (moreW === 0 && moreH === 0) return undefined; // big enough: the engine's own words say why it failed
  const parts: Array<{ text: string; optional?: boolean }> = [
    { text: `Make it at least ${min} × ${min} CSS px: it needs ${grow || 'a little more size'}, or a minimum size. Add this CSS${nestedNote(nested)}:` },
    { text: `${selector} { ${decls.join(' ')} }` },
  ];
  if (decls[0] === 'display: inline-block;') parts.push({ text: 'Leave out display: inline-block if the element is already a block, flex or grid item.', optional: true });
  if (mobile) parts.push({ text: 'If it is only this small on narrow screens, put the rule in the styles for those widths.', optional: true });
  parts.push({
    text: `Or keep its size and space the targets apart, so that a ${min}px circle centred on each target overlaps no other target or its circle${t.closestOffset !== undefined ? ` (now ${px(t.closestOffset)})` : ''}.`,
    optional: true,
  });
  return { description, fix: within(MAX_FIX, parts) };
}

/** A name for where a link goes, from its title, address or the page itself. */
export function destinationName(href: string | undefined, title: string | undefined, page?: PageInfo): { text: string; from: string } | undefined {
  if (title && title.trim().length > 3) return { text: cap(title.trim(), 80), from: 'its title attribute' };
  if (!href) return undefined;
  const h = href.trim();
  const mail = /^mailto:([^?]+)/i.exec(h);
  if (mail) return { text: `Email ${mail[1]}`, from: 'its address' };
  const tel = /^tel:(.+)/i.exec(h);
  if (tel) return { text: `Call ${tel[1]}`, from: 'its address' };
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
    if (w) return { text: w, from: 'the section it points to' };
  }
  if (samePage && page?.title) return { text: cap(page.title, 80), from: 'the page title' };
  const external = base ? url.host !== base.host : /^[a-z][a-z0-9+.-]*:\/\//i.test(h);
  const host = url.hostname.replace(/^www\./, '');
  const segments = url.pathname.split('/').filter(Boolean).filter((seg) => !/^(index|default|home)(\.[a-z0-9]+)?$/i.test(seg));
  let words: string | undefined;
  let kind = '';
  for (let i = segments.length - 1; i >= 0 && !words; i--) {
    const seg = segments[i]!;
    const ext = /\.([a-z0-9]{2,5})$/i.exec(seg)?.[1]?.toLowerCase();
    if (ext && DOC_TYPES[ext] && i === segments.length - 1) kind = ` (${DOC_TYPES[ext]})`;
    words = wordsFrom(seg);
  }
  if (!words) {
    if (segments.length === 0 && !url.search) return { text: external ? `${host.charAt(0).toUpperCase()}${host.slice(1)} home page` : 'Home page', from: 'its address' };
    return undefined;
  }
  return { text: `${words}${kind}${external ? ` on ${host}` : ''}`, from: 'its address' };
}

function describeLink({ f, facts, guide, tail, page }: Ctx): Texts | undefined {
  const el = facts.element;
  if (!el || !f.elementHtml) return undefined;
  const generic = f.ruleId === 'link-text-generic';
  if (generic && !el.text) return undefined;
  const dest = destinationName(el.href, el.title, page);
  const to = el.href ? ` (it points to ${quote(el.href, 100)})` : '';
  const description = generic
    ? f.type === 'needs_review'
      ? `The link text ${quote(el.text!)} is vague on its own${to}; the text around it may or may not say where it goes. ${guide.who}${tail}`
      : `The link text ${quote(el.text!)} does not say where the link goes${to}. ${guide.who}${tail}`
    : `This link${to} has no text or other accessible name, so it is announced only as "link". ${guide.who}${tail}`;
  const newText = dest?.text ?? 'Name of the page or file it opens';
  const origin = dest
    ? `The text ${quote(newText)} is a suggestion from ${dest.from}: check that it names the page or file the link opens.`
    : `No destination could be read from the link: replace the placeholder with the name of the page or file it opens.`;
  const plain = !el.hasChildElements && !el.truncated && !/\n/.test(f.elementHtml) && f.elementHtml.length <= 600;
  const start = /^<a\b[^>]*>/i.exec(f.elementHtml)?.[0];
  const parts: Array<{ text: string; optional?: boolean }> = [];
  if (plain && start && /<\/a>\s*$/i.test(f.elementHtml)) {
    parts.push({ text: `${generic ? 'Rewrite the link text so that it names its destination.' : 'Give the link text that names its destination.'} ${origin} Replace the element with:` });
    parts.push({ text: `${start}${textEscape(newText)}</a>` });
  } else {
    // Content we cannot rewrite safely (icons, images, cut HTML): a name that starts with what is visible.
    const label = generic ? `${el.text}: ${newText}` : newText;
    parts.push({
      text: `${generic ? 'Make the link name its destination.' : 'Give the link a name.'} ${origin} ${generic ? 'The label starts with the visible words, so voice control users can still say them. ' : ''}Add this attribute to the element:`,
    });
    parts.push({ text: `aria-label="${attrEscape(label)}"` });
    if (!generic) parts.push({ text: 'Better still, give an image inside the link an alt text naming the destination, or put visible text in the link.', optional: true });
  }
  if (generic) {
    parts.push({
      text: 'If the design needs the short words, keep them and add the rest as visually hidden text inside the link (a class that hides text visually but not from screen readers).',
      optional: true,
    });
  }
  return { description, fix: within(MAX_FIX, parts) };
}

const LANGUAGE_NAMES: Readonly<Record<string, string>> = {
  english: 'en', german: 'de', deutsch: 'de', french: 'fr', francais: 'fr', 'français': 'fr', spanish: 'es', espanol: 'es', 'español': 'es',
  italian: 'it', italiano: 'it', dutch: 'nl', nederlands: 'nl', portuguese: 'pt', 'português': 'pt', swedish: 'sv', svenska: 'sv',
  danish: 'da', dansk: 'da', norwegian: 'no', norsk: 'no', finnish: 'fi', suomi: 'fi', polish: 'pl', polski: 'pl', czech: 'cs',
  greek: 'el', turkish: 'tr', russian: 'ru', japanese: 'ja', chinese: 'zh', korean: 'ko', arabic: 'ar', hebrew: 'he', hindi: 'hi',
};

/** A valid tag for a common mistake (`en_US`, `english`); undefined when there is no safe guess. */
export function suggestLang(value: string): string | undefined {
  const v = value.trim();
  const named = LANGUAGE_NAMES[v.toLowerCase()];
  if (named) return named;
  const m = /^([a-z]{2,3})(?:[_\s-]+([a-z]{2}|\d{3}))?$/i.exec(v);
  if (m) return m[2] ? `${m[1]!.toLowerCase()}-${m[2]!.toUpperCase()}` : m[1]!.toLowerCase();
  return undefined;
}

function describeLang({ f, facts, guide, tail }: Ctx): Texts | undefined {
  const el = facts.element;
  if (!el || el.tag !== 'html' || !f.elementHtml) return undefined;
  const startTag = /^<html\b[^>]*>/i.exec(f.elementHtml)?.[0];
  const valid = f.ruleId === 'html-lang-valid';
  const current = el.lang ?? '';
  if (valid && current === '') return undefined;
  const fixed = valid ? suggestLang(current) : 'en';
  const description = valid
    ? `The page declares its language as lang=${quote(current, 40)}, which is not a valid language tag. ${guide.who}${tail}`
    : `The page does not declare the language of its text on the <html> element. ${guide.who}${tail}`;
  const corrected = startTag && !/\n/.test(startTag) && fixed ? withAttribute(startTag, 'lang', fixed) : undefined;
  const lead = valid
    ? fixed
      ? `Use a valid BCP 47 language tag: ${quote(fixed)} is the likely meaning of ${quote(current, 40)}; check it is the language of the page's text.`
      : `Use a valid BCP 47 language tag such as "en", "en-GB", "fr" or "de" for the language of the page's text.`
    : `Add the language of the page's text to the root element. "en" (English) is an example: use "fr", "de", "es" and so on for pages in other languages.`;
  const parts: Array<{ text: string; optional?: boolean }> = [
    { text: `${lead}${corrected ? ' Replace the start tag with:' : fixed ? ' Add this attribute to the element:' : ''}` },
    { text: corrected ?? (fixed ? `lang="${fixed}"` : '') },
    { text: 'Mark passages in another language with their own lang attribute, e.g. <span lang="fr">…</span>.', optional: true },
  ];
  return { description, fix: within(MAX_FIX, parts) };
}

const SPECIFIC: Readonly<Record<string, (ctx: Ctx) => Texts | undefined>> = {
  'color-contrast': describeContrast,
  'image-alt': describeImage,
  'input-image-alt': describeImage,
  label: describeLabel,
  'select-name': describeLabel,
  'target-size': describeTarget,
  'target-size-mobile': describeTarget,
  'link-text-generic': describeLink,
  'link-name': describeLink,
  'html-has-lang': describeLang,
  'html-lang-valid': describeLang,
};

/**
 * Description and fix for one finding: specific to the element where the engine measured enough
 * (the rules in SPECIFIC), else written from the rule's guide and the engine's own findings.
 */
export function describeFinding(f: EnrichableFinding, page?: PageInfo): FindingTexts {
  const guide = FIX_GUIDES[f.ruleId] ?? DEFAULT_GUIDE;
  const facts = factsOf(f);
  // (Contrast and link texts say why in their own words.)
  const why = facts.review?.reason && f.ruleId !== 'color-contrast' && f.ruleId !== 'link-text-generic' ? ` (${cap(facts.review.reason.replace(/\.$/, ''), 200)})` : '';
  const review = f.type === 'needs_review' ? ` The checker could not decide this automatically${why}: a person should confirm it.` : '';
  const tail = ` This fails ${criterionLabel(f.wcagCriterion)}.${review}`;
  let specific: Texts | undefined;
  try {
    specific = SPECIFIC[f.ruleId]?.({ f, facts, guide, page, tail });
  } catch {
    specific = undefined; // odd engine data must never cost the finding its texts
  }
  if (specific) {
    return { id: f.id, description: cap(specific.description, MAX_DESCRIPTION), fixSuggestion: cap(specific.fix, MAX_FIX) };
  }
  const description = `${sentence(f.engineHelp)} ${guide.who}${tail}`;
  const details = f.failureSummary.trim();
  const fixSuggestion = details ? `${guide.fix}\n\nFor this element (${f.elementSelector}): ${details}` : guide.fix;
  return { id: f.id, description: cap(description, MAX_DESCRIPTION), fixSuggestion: cap(fixSuggestion, MAX_FIX) };
}

/** The offline enricher: texts written here, no model, no cost. */
export function createOfflineEnricher(): Enricher {
  return {
    name: 'offline',
    async describeGroup(group, opts) {
      opts?.signal?.throwIfAborted();
      const texts: FindingTextsOut[] = group.members.map((m) => ({ ...describeFinding(m, group.page), enrichedBy: 'offline' }));
      return { texts, usage: NO_USAGE };
    },
  };
}

// ---- page summary ------------------------------------------------------------------------------

/** Weight of the worst severity in a rule's priority: each level counts twice the one below. */
const SEVERITY_WEIGHT: Readonly<Record<Severity, number>> = { critical: 8, serious: 4, moderate: 2, minor: 1 };

function groupOf(f: EnrichableFinding): string {
  if (f.groupKey) return f.groupKey;
  return f.elementHtml ? computeGroupKey(f.ruleId, f.elementSelector, f.elementHtml) : `${f.ruleId}\u0000${f.elementSelector}`;
}

/**
 * The rules to fix first, by severity and reach: priority = weight of the worst severity ×
 * (1 + log2(distinct element groups, i.e. templates) / 2 + log2(elements) / 8). Severity leads: a
 * rule needs about four different templates to outrank one element of the next severity up; more
 * elements of one template (one fix) count for less. Confirmed failures come before ones to review.
 */
export function topPriorities(findings: readonly EnrichableFinding[], max = 5): TopPriority[] {
  const byRule = new Map<string, EnrichableFinding[]>();
  for (const f of findings) byRule.set(f.ruleId, [...(byRule.get(f.ruleId) ?? []), f]);
  const groups = [...byRule.values()].map((fs) => {
    const worst = fs.reduce((a, b) => (rank(b.severity) < rank(a.severity) ? b : a));
    const confirmed = fs.filter((f) => f.type === 'confirmed').length;
    const templates = new Set(fs.map(groupOf)).size;
    const priority = SEVERITY_WEIGHT[worst.severity] * (1 + Math.log2(templates) / 2 + Math.log2(fs.length) / 8);
    return { fs, worst, confirmed, templates, priority };
  });
  groups.sort(
    (a, b) =>
      Number(b.confirmed > 0) - Number(a.confirmed > 0) ||
      b.priority - a.priority ||
      rank(a.worst.severity) - rank(b.worst.severity) ||
      b.fs.length - a.fs.length ||
      a.worst.ruleId.localeCompare(b.worst.ruleId),
  );
  return groups.slice(0, max).map(({ fs, worst, templates }) => {
    const elements = `${fs.length} element${fs.length === 1 ? '' : 's'}`;
    const reach =
      fs.length === 1
        ? '1 element affected.'
        : templates === 1
          ? `${elements} affected, all alike: one fix to their shared markup or CSS should cover them.`
          : `${elements} affected in ${templates} different places or patterns.`;
    return {
      title: worst.engineHelp.trim(),
      severity: worst.severity,
      wcagCriterion: worst.wcagCriterion,
      issueCount: fs.length,
      reason: `${(FIX_GUIDES[worst.ruleId] ?? DEFAULT_GUIDE).who} ${reach}`,
    };
  });
}

export function positiveFindings(
  passes: readonly PassedRuleInfo[],
  findings: readonly EnrichableFinding[],
  max = 5,
): PositiveFinding[] {
  const failing = new Set(findings.map((f) => f.wcagCriterion));
  const seen = new Set<string>();
  return [...passes]
    .filter((p) => !failing.has(p.wcagCriterion) && p.elements > 0)
    .sort((a, b) => b.elements - a.elements || a.ruleId.localeCompare(b.ruleId))
    .filter((p) => (seen.has(p.wcagCriterion) ? false : (seen.add(p.wcagCriterion), true)))
    .slice(0, max)
    .map((p) => ({
      title: sentence(p.help).replace(/\.$/, ''),
      detail: `${p.elements} element${p.elements === 1 ? '' : 's'} checked and passing; nothing found against ${criterionLabel(p.wcagCriterion)}.`,
      wcagCriterion: p.wcagCriterion,
    }));
}

export function summarise(input: {
  pageTitle: string | null;
  url: string;
  score: number;
  findings: readonly EnrichableFinding[];
  passes: readonly PassedRuleInfo[];
}): ScanSummary {
  const { findings } = input;
  const counts = Object.fromEntries(SEVERITIES.map((s) => [s, findings.filter((f) => f.severity === s).length])) as Record<Severity, number>;
  const confirmed = findings.filter((f) => f.type === 'confirmed').length;
  const review = findings.length - confirmed;
  const criteria = new Set(findings.map((f) => f.wcagCriterion));
  const name = input.pageTitle ? `"${input.pageTitle.slice(0, 120)}"` : input.url;
  const priorities = topPriorities(findings);
  let text: string;
  if (findings.length === 0) {
    text = `${name} scores ${input.score}/100: no WCAG 2.2 A or AA failures were found by automated checks. Automated checks find only part of all barriers; test keyboard use and screen reader output by hand too.`;
  } else {
    const bySeverity = SEVERITIES.filter((s) => counts[s] > 0)
      .map((s) => `${counts[s]} ${s}`)
      .join(', ');
    text =
      `${name} scores ${input.score}/100 with ${confirmed} confirmed issue${confirmed === 1 ? '' : 's'}` +
      `${review ? ` and ${review} to review by hand` : ''} against ${criteria.size} WCAG criteri${criteria.size === 1 ? 'on' : 'a'} (${bySeverity}).` +
      (priorities[0] ? ` Start with "${priorities[0].title}" (${priorities[0].issueCount} element${priorities[0].issueCount === 1 ? '' : 's'}, ${criterionLabel(priorities[0].wcagCriterion)}).` : '');
  }
  return {
    overallScore: input.score,
    summary: text,
    topPriorities: priorities,
    positiveFindings: positiveFindings(input.passes, findings),
  };
}
