/** Colour contrast: the measured and required ratio, and the nearest passing colour as CSS. */
import { formatRatio, nearestPassingColour, parseHex } from '../../colour.ts';
import { cssSelector } from '../markup.ts';
import { fill, MAX_FIX, quote, sentence, within, type Part } from '../text.ts';
import { CONTRAST, LEAD } from '../wording.ts';
import type { Ctx, Texts } from './context.ts';

export function describeContrast({ f, facts, guide, tail }: Ctx): Texts | undefined {
  const c = facts.contrast;
  if (!c) return undefined;
  const subject = facts.element?.text ? fill(CONTRAST.subject, { text: quote(facts.element.text, 60) }) : CONTRAST.subjectUnknown;
  const expected = c.expectedContrastRatio ?? CONTRAST.defaultExpected;
  const target = parseFloat(expected) || 4.5;
  const large = target < 4.5;
  const font = c.fontSize ? fill(CONTRAST.font, { size: c.fontSize, weight: c.fontWeight ? fill(CONTRAST.fontWeight, { weight: c.fontWeight }) : '' }) : '';
  const need = fill(CONTRAST.need, { expected, large: large ? CONTRAST.large : '', font });
  const fg = c.fgColor ? parseHex(c.fgColor) : undefined;
  const bg = c.bgColor ? parseHex(c.bgColor) : undefined;
  if (!fg || !bg || c.contrastRatio === undefined) {
    const why = facts.review?.reason ? ` ${sentence(facts.review.reason)}` : '';
    return {
      description: fill(CONTRAST.unmeasured, { subject, why, who: guide.who, tail }),
      fix: within(MAX_FIX, [{ text: fill(CONTRAST.unmeasuredCheck, { expected }) }, { text: CONTRAST.unmeasuredFix }]),
    };
  }
  const fgHex = c.fgColor!;
  const bgHex = c.bgColor!;
  const description = fill(CONTRAST.measured, { subject, ratio: formatRatio(c.contrastRatio), fg: fgHex, bg: bgHex, need, who: guide.who, tail });
  const better = nearestPassingColour(fg, bg, target);
  const betterBg = nearestPassingColour(bg, fg, target);
  const { selector, nested } = cssSelector(f.elementSelector);
  const parts: Part[] = [];
  if (better) {
    const lead = fill(LEAD.css, { nested: nested ? LEAD.nestedNote : '' });
    parts.push({ text: fill(CONTRAST.nearest, { expected, bg: bgHex, hex: better.hex, ratio: formatRatio(better.ratio), direction: better.direction, fg: fgHex, lead }) });
    parts.push({ text: `${selector} { color: ${better.hex}; }` });
  } else {
    parts.push({ text: fill(CONTRAST.noNearest, { expected }) });
  }
  if (betterBg && (!better || betterBg.lightnessChange < better.lightnessChange)) {
    parts.push({ text: fill(CONTRAST.background, { hex: betterBg.hex, ratio: formatRatio(betterBg.ratio) }), optional: true });
  }
  parts.push({ text: CONTRAST.shared, optional: true });
  return { description, fix: within(MAX_FIX, parts) };
}
