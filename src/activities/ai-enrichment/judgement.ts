/**
 * The ai-enrichment stage's AI-assisted judgement of one page scan: the candidates its scan
 * collected go to the judge (cached verdicts first), and the verdicts become findings: a failing
 * one a `needs_review` finding of its `ai-*` rule with the model's reason as evidence, or, where a
 * finding of the scan is already about the same element and criterion, an annotation of that
 * finding (`data.ai`); a passing one only annotates such a finding. Never `confirmed`.
 */
import type { Database } from '../../db/database.ts';
import { loadJudgementCandidates, saveJudgements, type JudgementNote } from '../../db/repositories/judgement.repository.ts';
import type { ScanRecord } from '../../db/repositories/records.ts';
import type { Judge, JudgeUsage } from '../../enrichment/judge/judge.ts';
import type { Logger } from '../../logger.ts';
import { ownFinding, understandingUrl } from '../../audit/engines/engine.ts';
import { fingerprint } from '../../audit/findings/findings.ts';
import { groupKey, normaliseSelectorPath } from '../../audit/findings/group-key.ts';
import type { NewFindingRecord } from '../../shared/findings.ts';
import { JUDGEMENT_RULES, type JudgementKind } from '../../shared/judgement.ts';
import { DEFAULT_GUIDE, ruleEntry } from '../../shared/rules/index.ts';
import { successCriterion } from '../../shared/wcag.ts';

/** What each kind's finding says before the model's reason. */
const TEXTS: Readonly<Record<JudgementKind, { help: string; description: string; slug: string }>> = {
  alt: { help: 'Check that the text alternative conveys the image', description: 'An image\'s text alternative must give the information or function of the image in its context.', slug: 'non-text-content' },
  link: { help: 'Check that the link\'s purpose is clear from its text and context', description: 'The purpose of each link must be clear from its text, or from its text together with its context.', slug: 'link-purpose-in-context' },
  heading: { help: 'Check that the heading describes its section', description: 'Headings must describe the topic or purpose of their section.', slug: 'headings-and-labels' },
  label: { help: 'Check that the label describes the field', description: 'Labels must describe what their field is for.', slug: 'headings-and-labels' },
  title: { help: 'Check that the page title describes the page', description: 'The page title must describe the page\'s topic or purpose.', slug: 'page-titled' },
  lang: { help: 'Check the language of this passage', description: 'A passage in another language than the page\'s must be marked with its own lang.', slug: 'language-of-parts' },
  sensory: { help: 'Check that the instruction does not rely on the senses alone', description: 'Instructions must not rely only on shape, colour, size, visual location, orientation or sound.', slug: 'sensory-characteristics' },
};

export interface JudgeScanResult {
  candidates: number;
  added: number;
  annotated: number;
  usage: JudgeUsage | null;
}

export async function judgeScan(
  deps: { db: Database; logger: Logger; judge: Judge },
  scan: ScanRecord,
  scope: string,
  signal: AbortSignal | undefined,
): Promise<JudgeScanResult> {
  const stored = await loadJudgementCandidates(deps.db, scan.id);
  if (!stored || stored.candidates.length === 0) return { candidates: 0, added: 0, annotated: 0, usage: null };
  const { judged, usage } = await deps.judge.judgePage({
    scope,
    page: { url: scan.finalUrl ?? scan.url, title: scan.pageTitle },
    candidates: stored,
    signal,
    templateKey: normaliseSelectorPath,
  });
  const findings: NewFindingRecord[] = [];
  const passing: JudgementNote[] = [];
  for (const { candidate: c, verdict } of judged) {
    const rule = JUDGEMENT_RULES[c.kind];
    const ai = { ruleId: rule.ruleId, model: deps.judge.model, fails: verdict.fails, reason: verdict.reason };
    if (!verdict.fails) {
      passing.push({ criterion: rule.criterion, selector: c.selector, viewport: stored.viewport, ai });
      continue;
    }
    const t = TEXTS[c.kind];
    const draft = ownFinding({
      ruleId: rule.ruleId,
      type: 'needs_review',
      severity: rule.severity,
      criterion: rule.criterion,
      selector: c.selector,
      html: c.html,
      help: t.help,
      description: t.description,
      failureSummary: `The model ${deps.judge.model} judged: ${verdict.reason} A person should confirm it.`,
      helpUrl: understandingUrl(t.slug),
      data: { engine: 'ai', review: { messageKey: 'ai-judgement', reason: verdict.reason }, ai, judged: { text: c.text, ...(c.extra ? { extra: c.extra } : {}) } },
    });
    const sc = successCriterion(rule.criterion);
    const guide = ruleEntry(rule.ruleId)?.guide ?? DEFAULT_GUIDE;
    const context = { state: null, viewport: stored.viewport };
    findings.push({
      ...draft,
      ...context,
      description: `${t.description} A model judged that this one may fail WCAG 2.2 success criterion ${rule.criterion}${sc ? ` ${sc.title}` : ''}: ${verdict.reason} A person should confirm it. ${guide.who}`,
      fixSuggestion: guide.fix,
      fingerprint: fingerprint(scan.url, draft.ruleId, draft.elementSelector, context),
      groupKey: groupKey(draft.ruleId, draft.elementSelector, draft.elementHtml),
    });
  }
  const saved = await saveJudgements(deps.db, scan.id, { findings, passing });
  return { candidates: stored.candidates.length, ...saved, usage };
}

/** Findings whose texts the judgement wrote: the text enrichment leaves them alone. */
export function isJudgementFinding(f: { ruleId: string }): boolean {
  return f.ruleId.startsWith('ai-');
}
