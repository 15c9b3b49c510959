/** Images and image buttons without alt text: the corrected element, with an alt suggested from the file name. */
import { fileNameOf, withAttribute, wordsFrom } from '../markup.ts';
import { attrEscape, fill, MAX_FIX, quote, within, type Part } from '../text.ts';
import { BUTTON_NAME_NOISE, IMAGE_NAME_NOISE } from '../vocabulary.ts';
import { IMAGE, LEAD } from '../wording.ts';
import type { Ctx, Texts } from './context.ts';

export function describeImage({ f, facts, guide, tail }: Ctx): Texts | undefined {
  const el = facts.element;
  if (!el || !f.elementHtml) return undefined;
  const button = f.ruleId === 'input-image-alt';
  const file = fileNameOf(el.src);
  const suggested = file ? wordsFrom(file, button ? BUTTON_NAME_NOISE : IMAGE_NAME_NOISE) : undefined;
  const alt = suggested ?? (button ? IMAGE.buttonPlaceholder : IMAGE.placeholder);
  const src = el.src && !/^data:/i.test(el.src) ? ` ${quote(el.src, 100)}` : '';
  const description = fill(button ? IMAGE.buttonDescription : IMAGE.description, { src, who: guide.who, tail });
  const corrected = withAttribute(f.elementHtml, 'alt', alt);
  const whole = corrected !== undefined && corrected.length <= 600 && !/\n/.test(corrected);
  const origin = suggested ? fill(IMAGE.fromFile, { alt: quote(alt), file: quote(file!, 60) }) : button ? IMAGE.buttonNoWords : IMAGE.noWords;
  const lead = button ? IMAGE.buttonLead : IMAGE.lead;
  const parts: Part[] = [
    { text: `${lead} ${origin} ${whole ? LEAD.replaceElement : LEAD.addAttribute}` },
    { text: whole ? corrected! : `alt="${attrEscape(alt)}"` },
  ];
  parts.push({ text: button ? IMAGE.buttonAdvice : IMAGE.advice, optional: true });
  return { description, fix: within(MAX_FIX, parts) };
}
