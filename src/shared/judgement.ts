/**
 * AI-assisted judgement: the candidates a scan collects for criteria that need
 * judgement, when a model is configured. Pure types and limits, shared by the collector
 * (src/audit/judgement), the store (judgement.repository.ts) and the judge (src/enrichment/judge).
 */

/** What a candidate is, and so which criterion the model judges it against. */
export const JUDGEMENT_KINDS = ['alt', 'link', 'heading', 'label', 'title', 'lang', 'sensory'] as const;
export type JudgementKind = (typeof JUDGEMENT_KINDS)[number];

/** The rule (src/shared/rules/ai.ts) and criterion each kind is reported under. */
export const JUDGEMENT_RULES: Readonly<Record<JudgementKind, { ruleId: string; criterion: string; severity: 'serious' | 'moderate' }>> = Object.freeze({
  alt: { ruleId: 'ai-alt-text-quality', criterion: '1.1.1', severity: 'serious' },
  link: { ruleId: 'ai-link-purpose', criterion: '2.4.4', severity: 'serious' },
  heading: { ruleId: 'ai-heading-descriptive', criterion: '2.4.6', severity: 'moderate' },
  label: { ruleId: 'ai-label-descriptive', criterion: '2.4.6', severity: 'moderate' },
  title: { ruleId: 'ai-page-title', criterion: '2.4.2', severity: 'moderate' },
  lang: { ruleId: 'ai-language-of-parts', criterion: '3.1.2', severity: 'serious' },
  sensory: { ruleId: 'ai-sensory-instructions', criterion: '1.3.3', severity: 'serious' },
});

/** One element (or the title, or a sentence) the model is asked about. Every string is capped. */
export interface JudgementCandidate {
  kind: JudgementKind;
  /** axe's selector of the element: the identity its findings have. */
  selector: string;
  /** The element's HTML, shortened (`JUDGEMENT_CAPS.html`). */
  html: string;
  /** What is judged: the alt text, the link's name, the heading's or label's text, the title, the passage, the sentence. */
  text: string;
  /** The text around it (the link's sentence or list item, the section after a heading, the page's main heading). */
  context: string;
  /** Facts by kind: an image's file name, a link's destination path, the page's language, a field's type. */
  extra?: Record<string, string>;
}

/** The candidates of one page's default state. */
export interface PageCandidates {
  /** The page's own `lang`, if any. */
  pageLang: string | null;
  candidates: JudgementCandidate[];
}

/** Limits on collection: per page and kind, and on every string's length (characters). */
export const JUDGEMENT_CAPS = {
  perKind: { alt: 15, link: 25, heading: 15, label: 12, title: 1, lang: 8, sensory: 8 } satisfies Record<JudgementKind, number>,
  /** Elements looked at per kind before giving up (a huge page costs no more than this). */
  scanPerKind: 1500,
  text: 300,
  context: 300,
  html: 400,
  extra: 150,
  selector: 500,
  /** The whole in-page collection's time limit. */
  timeMs: 3000,
} as const;
