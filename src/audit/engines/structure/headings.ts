import type { HeadingCandidate } from './facts.ts';

/** Text longer than this, or with more words, is not read as a heading. */
export const MAX_HEADING_CHARS = 80;
export const MAX_HEADING_WORDS = 10;

const BOLD = 600;

export interface VisualHeading {
  /** Font size of the candidate over that of the content after it, and over the page's body text. */
  ratio: number;
  bodyRatio: number;
  bold: boolean;
}

/** Short text that could be a heading's: a few words, no sentence punctuation at its end. */
export function headingLikeText(text: string): boolean {
  const t = text.replace(/\s+/g, ' ').trim();
  if (t.length < 2 || t.length > MAX_HEADING_CHARS) return false;
  if (!/\p{L}/u.test(t)) return false;
  if (t.split(' ').length > MAX_HEADING_WORDS) return false;
  // A sentence or a fragment of one, not a title.
  if (/[.,;]$/.test(t) && !/\.\.\.$|…$/.test(t)) return false;
  return true;
}

/**
 * A short one-line block shown as a heading (clearly larger than the content after it and than
 * the page's body text, or bold and somewhat larger) and followed by more content, but not marked
 * up as a heading (WCAG 1.3.1). Always `needs_review`: only a person can tell a heading from a
 * pull quote or a big number.
 */
export function judgeHeading(c: HeadingCandidate, bodyFontSize: number): VisualHeading | null {
  if (!headingLikeText(c.text)) return null;
  if (c.lines !== 1) return null;
  const next = c.next;
  if (!next || next.isHeading || next.textLength < Math.max(20, c.text.length)) return null;
  if (c.style.size <= 0 || next.style.size <= 0) return null;
  const ratio = c.style.size / next.style.size;
  const body = bodyFontSize > 0 ? bodyFontSize : next.style.size;
  const bodyRatio = c.style.size / body;
  const bold = c.style.weight >= BOLD;
  const nextBold = next.style.weight >= BOLD;
  const larger = ratio >= 1.2 && bodyRatio >= 1.15;
  const boldAndLarger = bold && !nextBold && ratio >= 1.1 && bodyRatio >= 1.1;
  if (!larger && !boldAndLarger) return null;
  return { ratio: round2(ratio), bodyRatio: round2(bodyRatio), bold };
}

function round2(n: number): number {
  return Math.round(n * 100) / 100;
}
