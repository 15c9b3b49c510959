import { WCAG_LEVELS, type Severity, type WcagLevel } from '../contracts.ts';
import { successCriterion } from '../wcag.ts';

/**
 * One rule of the catalogue, as data: which engine reports it, under which WCAG 2.2 A/AA
 * criteria, at which levels, and with which severities. A rule reported under different criteria
 * (or severities) in different situations lists every one the code can produce.
 */
export interface RuleEntry {
  readonly id: string;
  /** The engine that reports it: `axe`, `forms`, `links`, `crawl`, … */
  readonly engine: string;
  /** The WCAG 2.2 A/AA criteria it can be reported under, e.g. `['1.3.1']`. */
  readonly criteria: readonly string[];
  /** The levels of those criteria (from `successCriterion`), each once, A before AA. */
  readonly levels: readonly WcagLevel[];
  /** The severities it can be reported with. */
  readonly severities: readonly Severity[];
  /**
   * Further WCAG 2.2 A/AA criteria every finding of the rule also fails (from the W3C's
   * Understanding documents and failure techniques), after the one it is reported under: a
   * finding's `wcagCriteria` is its criterion, then these.
   */
  readonly alsoFails: readonly string[];
  /**
   * Further criteria only some findings of the rule fail, where what the check saw on that
   * element shows it (an image link without a name fails 1.1.1, one without an image does not):
   * each finding names its own (`OwnFindingInput.alsoFails`), from these only.
   */
  readonly mayAlsoFail: readonly string[];
}

/** What an engine's file writes per rule: the levels follow from the criteria. */
export interface RuleSpec {
  readonly id: string;
  readonly criteria: readonly string[];
  readonly severities: readonly Severity[];
  /** See `RuleEntry.alsoFails`; none when unset. */
  readonly alsoFails?: readonly string[];
  /** See `RuleEntry.mayAlsoFail`; none when unset. */
  readonly mayAlsoFail?: readonly string[];
}

/**
 * An engine's rules as catalogue entries, frozen. A criterion that is not a WCAG 2.2 A/AA one
 * gives no level (the catalogue's test and `ownFinding` both refuse it).
 */
export function ruleEntries(engine: string, specs: readonly RuleSpec[]): readonly RuleEntry[] {
  return Object.freeze(
    specs.map((s) => {
      const levels = new Set(s.criteria.map((c) => successCriterion(c)?.level).filter((l): l is WcagLevel => !!l));
      return Object.freeze({
        id: s.id,
        engine,
        criteria: Object.freeze([...s.criteria]),
        levels: Object.freeze(WCAG_LEVELS.filter((l) => levels.has(l))),
        severities: Object.freeze([...s.severities]),
        alsoFails: Object.freeze([...(s.alsoFails ?? [])]),
        mayAlsoFail: Object.freeze([...(s.mayAlsoFail ?? [])]),
      });
    }),
  );
}
