/** Reading what the engine measured on a finding (`data`), defensively: odd values become absent. */
import type { ContrastFacts, ElementFacts, ReviewFacts, TargetFacts } from '../../shared/findings.ts';
import type { EnrichableFinding } from '../../shared/summary.ts';

const obj = (v: unknown): Record<string, unknown> | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined);
const s = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : undefined);
const n = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

export interface Facts {
  contrast?: ContrastFacts;
  target?: TargetFacts;
  element?: ElementFacts;
  review?: ReviewFacts;
  viewport?: string;
}

export function factsOf(f: EnrichableFinding): Facts {
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
