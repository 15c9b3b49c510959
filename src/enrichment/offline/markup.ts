/** Reading and writing the element's markup: words from names, one attribute set, CSS selectors. */
import { FILLER_WORDS } from './vocabulary.ts';
import { attrEscape, cap } from './text.ts';

const FILLER = new RegExp(`^(${FILLER_WORDS.join('|')})$`, 'i');

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
        !FILLER.test(w) &&
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

/** The last part of a frame / shadow DOM selector, which is what CSS inside that document matches. */
export function cssSelector(selector: string): { selector: string; nested: boolean } {
  const parts = selector.split(' >>> ');
  return { selector: parts.at(-1)!.trim(), nested: parts.length > 1 };
}

/** A file name usable as a suggestion (none for data: URIs, cut values, or names that are only ids). */
export function fileNameOf(src: string | undefined): string | undefined {
  if (!src || /^data:/i.test(src) || /\.\.\.$/.test(src)) return undefined;
  let path = src;
  try {
    path = new URL(src, 'http://example.invalid/').pathname;
  } catch {
    // a relative path that URL cannot read: use as is
  }
  return path.split('/').filter(Boolean).at(-1);
}
