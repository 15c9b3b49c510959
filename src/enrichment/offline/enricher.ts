/**
 * The offline enricher: a description and fix per finding, written from the rule's guide (the rule
 * catalogue in src/shared/rules) and what the engine measured on the element, without a model.
 */
import { DEFAULT_GUIDE, FIX_GUIDES } from '../../shared/rules/index.ts';
import type { EnrichableFinding, FindingTexts, PageInfo } from '../../shared/summary.ts';
import { NO_USAGE, type Enricher, type FindingTextsOut } from '../enricher.ts';
import { DESCRIBERS, type Texts } from './describers/index.ts';
import { factsOf } from './facts.ts';
import { cap, criterionLabel, fill, MAX_DESCRIPTION, MAX_FIX, sentence } from './text.ts';
import { COMMON } from './wording.ts';

/**
 * Description and fix for one finding: specific to the element where the engine measured enough
 * (the rules in DESCRIBERS), else written from the rule's guide and the engine's own findings.
 */
export function describeFinding(f: EnrichableFinding, page?: PageInfo): FindingTexts {
  const guide = FIX_GUIDES[f.ruleId] ?? DEFAULT_GUIDE;
  const facts = factsOf(f);
  // (Contrast and link texts say why in their own words.)
  const why =
    facts.review?.reason && f.ruleId !== 'color-contrast' && f.ruleId !== 'link-text-generic'
      ? fill(COMMON.reviewWhy, { reason: cap(facts.review.reason.replace(/\.$/, ''), 200) })
      : '';
  const review = f.type === 'needs_review' ? fill(COMMON.review, { why }) : '';
  const tail = fill(COMMON.tail, { criterion: criterionLabel(f.wcagCriterion), review });
  let specific: Texts | undefined;
  try {
    specific = DESCRIBERS[f.ruleId]?.({ f, facts, guide, page, tail });
  } catch {
    specific = undefined; // odd engine data must never cost the finding its texts
  }
  if (specific) {
    return { id: f.id, description: cap(specific.description, MAX_DESCRIPTION), fixSuggestion: cap(specific.fix, MAX_FIX) };
  }
  const description = fill(COMMON.description, { help: sentence(f.engineHelp), who: guide.who, tail });
  const details = f.failureSummary.trim();
  const fixSuggestion = details ? fill(COMMON.fixForElement, { fix: guide.fix, selector: f.elementSelector, details }) : guide.fix;
  return { id: f.id, description: cap(description, MAX_DESCRIPTION), fixSuggestion: cap(fixSuggestion, MAX_FIX) };
}

/** The offline enricher: texts written here, no model, no cost. */
export function createOfflineEnricher(): Enricher {
  return {
    name: 'offline',
    async describeGroup(group, opts) {
      opts?.signal?.throwIfAborted();
      const texts: FindingTextsOut[] = group.members.map((m) => ({ ...describeFinding(m, group.page), enrichedBy: 'offline' }));
      return { texts, usage: NO_USAGE };
    },
  };
}
