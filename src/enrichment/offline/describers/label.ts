/** Form fields without a label: a <label for> or a wrapping label, with its text suggested from the field. */
import type { ElementFacts } from '../../../shared/findings.ts';
import { wordsFrom } from '../markup.ts';
import { attrEscape, cap, fill, MAX_FIX, quote, textEscape, within, type Part } from '../text.ts';
import { FIELD_ID_NOISE, FIELD_LABELS } from '../vocabulary.ts';
import { LABEL, LEAD } from '../wording.ts';
import type { Ctx, Texts } from './context.ts';

function fieldKind(el: ElementFacts): string {
  if (el.tag === 'select') return LABEL.kind.select;
  if (el.tag === 'textarea') return LABEL.kind.textarea;
  const t = (el.type ?? 'text').toLowerCase();
  if (t === 'checkbox' || t === 'radio') return t === 'radio' ? LABEL.kind.radio : LABEL.kind.checkbox;
  return fill(LABEL.kind.field, { type: t });
}

export function describeLabel({ f, facts, guide, tail }: Ctx): Texts | undefined {
  const el = facts.element;
  if (!el || !f.elementHtml) return undefined;
  const fromName = el.name ? wordsFrom(el.name) : undefined;
  const fromId = !fromName && el.id ? wordsFrom(el.id, FIELD_ID_NOISE) : undefined;
  const fromPlaceholder = !fromName && !fromId && el.placeholder ? cap(el.placeholder, 60) : undefined;
  const typeLabel = el.tag === 'select' ? LABEL.selectLabel : el.tag === 'textarea' ? LABEL.textareaLabel : FIELD_LABELS[(el.type ?? 'text').toLowerCase()];
  const labelText = fromName ?? fromId ?? fromPlaceholder ?? typeLabel ?? LABEL.placeholder;
  const source = fromName
    ? fill(LABEL.fromName, { name: quote(el.name!, 40) })
    : fromId
      ? fill(LABEL.fromId, { id: quote(el.id!, 40) })
      : fromPlaceholder
        ? LABEL.fromPlaceholder
        : undefined;
  const ids = [el.id ? fill(LABEL.id, { id: quote(el.id, 40) }) : '', el.name ? fill(LABEL.name, { name: quote(el.name, 40) }) : ''].filter(Boolean).join(', ');
  const description = fill(LABEL.description, { kind: fieldKind(el), ids: ids ? ` (${ids})` : '', who: guide.who, tail });
  const origin = source ? fill(LABEL.suggestion, { label: quote(labelText), source }) : fill(LABEL.noSuggestion, { label: quote(labelText) });
  const after = el.tag === 'input' && /^(checkbox|radio)$/i.test(el.type ?? '');
  const parts: Part[] = [];
  if (el.id) {
    parts.push({ text: `${fill(LABEL.labelFor, { id: el.id })} ${origin} ${after ? LEAD.addAfter : LEAD.addBefore}` });
    parts.push({ text: `<label for="${attrEscape(el.id)}">${textEscape(labelText)}</label>` });
  } else {
    const inner = f.elementHtml.length <= 400 && !/\n/.test(f.elementHtml) && !el.truncated ? f.elementHtml : undefined;
    parts.push({ text: `${LABEL.wrapField} ${origin} ${inner ? LEAD.replaceElement : LEAD.wrap}` });
    const field = inner ?? `<${el.tag}${el.name ? ` name="${attrEscape(el.name)}"` : ''}>${el.tag === 'input' ? '' : `…</${el.tag}>`}`;
    parts.push({ text: after ? `<label>${field} ${textEscape(labelText)}</label>` : `<label>${textEscape(labelText)} ${field}</label>` });
  }
  parts.push({ text: LABEL.advice, optional: true });
  return { description, fix: within(MAX_FIX, parts) };
}
