/** Pages without a (valid) language: the <html> start tag with the lang attribute set. */
import { withAttribute } from '../markup.ts';
import { fill, MAX_FIX, quote, within, type Part } from '../text.ts';
import { EXAMPLE_LANG, LANGUAGE_NAMES } from '../vocabulary.ts';
import { LANG, LEAD } from '../wording.ts';
import type { Ctx, Texts } from './context.ts';

/** A valid tag for a common mistake (`en_US`, `english`); undefined when there is no safe guess. */
export function suggestLang(value: string): string | undefined {
  const v = value.trim();
  const named = LANGUAGE_NAMES[v.toLowerCase()];
  if (named) return named;
  const m = /^([a-z]{2,3})(?:[_\s-]+([a-z]{2}|\d{3}))?$/i.exec(v);
  if (m) return m[2] ? `${m[1]!.toLowerCase()}-${m[2]!.toUpperCase()}` : m[1]!.toLowerCase();
  return undefined;
}

export function describeLang({ f, facts, guide, tail }: Ctx): Texts | undefined {
  const el = facts.element;
  if (!el || el.tag !== 'html' || !f.elementHtml) return undefined;
  const startTag = /^<html\b[^>]*>/i.exec(f.elementHtml)?.[0];
  const valid = f.ruleId === 'html-lang-valid';
  const current = el.lang ?? '';
  if (valid && current === '') return undefined;
  const fixed = valid ? suggestLang(current) : EXAMPLE_LANG;
  const description = valid ? fill(LANG.invalid, { current: quote(current, 40), who: guide.who, tail }) : fill(LANG.missing, { who: guide.who, tail });
  const corrected = startTag && !/\n/.test(startTag) && fixed ? withAttribute(startTag, 'lang', fixed) : undefined;
  const lead = valid ? (fixed ? fill(LANG.likely, { fixed: quote(fixed), current: quote(current, 40) }) : LANG.noGuess) : LANG.add;
  const parts: Part[] = [
    { text: `${lead}${corrected ? ` ${LEAD.replaceStartTag}` : fixed ? ` ${LEAD.addAttribute}` : ''}` },
    { text: corrected ?? (fixed ? `lang="${fixed}"` : '') },
    { text: LANG.passages, optional: true },
  ];
  return { description, fix: within(MAX_FIX, parts) };
}
