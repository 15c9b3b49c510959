import type { BackgroundImageFact, GeneratedContentFact, HiddenContentFact, SpacerRegion } from './facts.ts';

/** Font families that draw icons from letters or private-use characters. */
export const ICON_FONT_SOURCE = String.raw`icon|awesome|glyph|symbol|material|fontello|icomoon|dashicons|octicon|ionicons|feather|bootstrap-icons|codicon|remixicon|lucide|phosphor`;

/**
 * Text that `::before`/`::after` put in the page and that carries meaning (WCAG F87): words of two
 * letters or more, or figures. Quotes, bullets, arrows, separators and icon-font glyphs (private
 * use characters, or any letters in an icon font) are decoration. Returns the text, trimmed, or null.
 */
export function meaningfulGenerated(g: Pick<GeneratedContentFact, 'text' | 'font'>): string | null {
  const t = g.text.replace(/[\u{E000}-\u{F8FF}\u{F0000}-\u{FFFFD}\u{100000}-\u{10FFFD}]/gu, '').replace(/\s+/g, ' ').trim();
  if (t === '') return null;
  if (new RegExp(ICON_FONT_SOURCE, 'i').test(g.font)) return null;
  if (!/\p{L}{2,}|\p{N}/u.test(t)) return null;
  return t;
}

/** Class or id words that say an element holds text meant for screen readers only, or a skip link. */
export const SR_CLASS_SOURCE = String.raw`(?:^|[^a-z])(sr-only|sr_only|sronly|screen-?reader(?:-text|-only)?|screenreader(?:-text|-only)?|visually-?hidden|visuallyhidden|assistive-?text|a11y-?(?:hidden|text|only)|hidden-accessible|element-invisible|reader-only|skip-?link|skip-?to(?:-content|-main)?|skip-?nav(?:igation)?)(?:[^a-z]|$)`;

/** A hidden-content fact worth reporting: enough words to be content rather than an icon or a label's leftover. */
export function hiddenContentWorthReporting(h: HiddenContentFact): boolean {
  const words = h.text.split(/\s+/).filter((w) => /\p{L}{2,}|\p{N}/u.test(w));
  if (h.kind === 'aria-hidden') return words.length >= 3 && h.text.length >= 15;
  if (h.kind === 'sr-hidden') return words.length >= 1 && /\p{L}{2,}/u.test(h.text);
  return words.length >= 1;
}

/** Spacers in a region worth one finding: two or more (one stray empty paragraph is common and harmless). */
export function spacerWorthReporting(r: SpacerRegion): boolean {
  return r.emptyBlocks + r.brRuns >= 2;
}

/** Class or id words naming a status that an icon conveys (F3: a warning icon beside the text). */
export const STATUS_HINT_SOURCE = String.raw`(?:^|[^a-z])(warning|warn|error|danger|alert|caution|success|important|required|complete|completed|incomplete|valid|invalid|correct|incorrect|approved|rejected)(?:[^a-z]|$)`;

/** A background image large enough to carry information, not a tile or a page backdrop; a status icon beside text always. */
export function backgroundWorthReporting(b: BackgroundImageFact): boolean {
  if (b.status) return b.width >= 8 && b.height >= 8;
  return b.width >= 40 && b.height >= 40 && b.width * b.height >= 3000 && !(b.width >= 1000 && b.height >= 500);
}
