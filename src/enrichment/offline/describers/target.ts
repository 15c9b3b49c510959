/** Small targets: the measured size, and the min-width/min-height (and padding) that reach the minimum. */
import { cssSelector } from '../markup.ts';
import { fill, MAX_FIX, quote, within, type Part } from '../text.ts';
import { INLINE_TAGS } from '../vocabulary.ts';
import { LEAD, TARGET } from '../wording.ts';
import type { Ctx, Texts } from './context.ts';

const num1 = (v: number) => String(Math.round(v * 10) / 10);
const px = (v: number) => `${num1(v)}px`;

export function describeTarget({ f, facts, guide, tail }: Ctx): Texts | undefined {
  const t = facts.target;
  if (!t || t.width === undefined || t.height === undefined) return undefined;
  const min = t.minSize || 24;
  const el = facts.element;
  const what = el
    ? fill(TARGET.subject, {
        what: el.tag === 'a' ? TARGET.link : el.tag === 'input' ? fill(TARGET.control, { type: el.type ?? 'input' }) : el.tag,
        text: el.text ? ` (${quote(el.text, 40)})` : '',
      })
    : TARGET.subjectUnknown;
  const mobile = f.ruleId === 'target-size-mobile';
  const where = mobile ? fill(TARGET.mobile, { width: facts.viewport?.split('x')[0] ?? '390' }) : '';
  const spacing = t.closestOffset !== undefined ? fill(TARGET.spacing, { offset: px(t.closestOffset) }) : '';
  const description = fill(TARGET.description, { what, width: num1(t.width), height: num1(t.height), where, min, spacing, who: guide.who, tail });
  const moreW = Math.max(0, min - t.width);
  const moreH = Math.max(0, min - t.height);
  const padW = Math.ceil(moreW / 2);
  const padH = Math.ceil(moreH / 2);
  const grow = [moreW > 0 ? fill(TARGET.moreWidth, { more: px(moreW), pad: padW }) : '', moreH > 0 ? fill(TARGET.moreHeight, { more: px(moreH), pad: padH }) : '']
    .filter(Boolean)
    .join(TARGET.and);
  const { selector, nested } = cssSelector(f.elementSelector);
  const decls = [
    el && INLINE_TAGS.has(el.tag) ? 'display: inline-block;' : '',
    moreW > 0 ? `min-width: ${min}px;` : '',
    moreH > 0 ? `min-height: ${min}px;` : '',
  ].filter(Boolean);
  if (moreW === 0 && moreH === 0) return undefined; // big enough: the engine's own words say why it failed
  const lead = fill(LEAD.css, { nested: nested ? LEAD.nestedNote : '' });
  const parts: Part[] = [
    { text: fill(TARGET.grow, { min, grow: grow || TARGET.moreUnknown, lead }) },
    { text: `${selector} { ${decls.join(' ')} }` },
  ];
  if (decls[0] === 'display: inline-block;') parts.push({ text: TARGET.inlineBlock, optional: true });
  if (mobile) parts.push({ text: TARGET.narrow, optional: true });
  parts.push({ text: fill(TARGET.spaceApart, { min, now: t.closestOffset !== undefined ? fill(TARGET.now, { offset: px(t.closestOffset) }) : '' }), optional: true });
  return { description, fix: within(MAX_FIX, parts) };
}
