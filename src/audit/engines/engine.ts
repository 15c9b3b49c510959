import type { Page } from 'playwright';
import type { IssueType, Severity } from '../../shared/contracts.ts';
import { lowestLevel, successCriterion, wcagCriteria } from '../../shared/wcag.ts';
import { ruleEntry } from '../../shared/rules/index.ts';
import type { FindingDraft, PassedRule } from '../../shared/findings.ts';

/**
 * One loaded page, as every engine sees it. Engines run one after another on the same page, so
 * an engine that changes the page (viewport, zoom, focus, scroll, styles) puts it back before it
 * returns.
 */
export interface PageSession {
  page: Page;
  /** The URL asked for, and where the page ended up after redirects. */
  url: string;
  finalUrl: string;
  pageTitle: string | null;
  /** Aborts when the scan is cancelled: engines stop between steps. */
  signal?: AbortSignal;
  /**
   * The page is the end of a site flow, not a plain load: loading it again could send
   * the flow's forms once more, so an engine that would need to reload it does not act on it.
   */
  fromFlow?: boolean;
  /** What the engines before this one found (with `data.engine`), e.g. axe's undecided contrast. */
  earlier: readonly FindingDraft[];
  /** The ids of this scan's engines, in the order they run (unset: the engine cannot tell who comes after it). */
  engineIds?: readonly string[];
  /**
   * What an engine measured for a later one in a layout it had set up anyway, so that the later
   * one need not change the viewport again: reflow, at the phone viewport in portrait, runs axe's
   * target-size rule for `target-size-mobile` when that engine is to run after it.
   */
  layouts?: { phoneTargetSize?: PhoneTargetSize };
}

/** axe's target-size rule at the phone viewport (390×844): its violations and its undecided results. */
export interface PhoneTargetSize {
  violations: unknown[];
  incomplete: unknown[];
}

export interface EngineResult {
  findings: FindingDraft[];
  /** Rules that ran and found nothing wrong, for the report's "what works well". */
  passes?: PassedRule[];
  /**
   * Findings of earlier engines that this engine measured and so replaces: dropped from the
   * result (this engine's own finding for the element, if any, takes their place).
   */
  supersedes?: Array<{ ruleId: string; selector: string }>;
}

/**
 * A rule engine: axe, or one of the service's own checks. Findings carry the WCAG criterion,
 * the element's selector and HTML, and the outcome (`confirmed` only where the rule has no false
 * positive on the ACT test cases; otherwise `needs_review`).
 */
export interface ScanEngine {
  /** Stable name, shown in the harness and in `data.engine`. */
  readonly id: string;
  /** The scan stage reported while it runs. */
  readonly stage: 'AxeChecks' | 'CustomChecks';
  run(session: PageSession): Promise<EngineResult>;
}

export interface OwnFindingInput {
  ruleId: string;
  type: IssueType;
  severity: Severity;
  /** A WCAG 2.2 A/AA criterion id, e.g. `2.1.2`. */
  criterion: string;
  selector: string;
  html: string;
  help: string;
  description: string;
  /** What is wrong with this element, in a sentence or two. */
  failureSummary: string;
  helpUrl?: string | null;
  data?: Record<string, unknown>;
  /** Further criteria this finding fails, from its catalogue entry's `mayAlsoFail`. */
  alsoFails?: readonly string[];
}

const MAX_HTML = 4000;

/**
 * A finding of one of the service's own checks, in the shape axe's findings have. The rule must
 * be in the rule catalogue (src/shared/rules), with this criterion and this severity among its
 * entry's: code and catalogue cannot drift apart without the engines' tests failing. Its criteria
 * are this criterion, then the entry's `alsoFails`, then the finding's own `alsoFails` (each among
 * the entry's `mayAlsoFail`); its level the lowest of them.
 */
export function ownFinding(input: OwnFindingInput): FindingDraft {
  const sc = successCriterion(input.criterion);
  if (!sc) throw new Error(`${input.ruleId}: ${input.criterion} is not a WCAG 2.2 A/AA criterion`);
  const rule = ruleEntry(input.ruleId);
  if (!rule) throw new Error(`${input.ruleId}: not in the rule catalogue (src/shared/rules)`);
  if (!rule.criteria.includes(sc.id)) {
    throw new Error(`${input.ruleId}: criterion ${sc.id} is not in the rule catalogue's entry (${rule.criteria.join(', ')})`);
  }
  if (!rule.severities.includes(input.severity)) {
    throw new Error(`${input.ruleId}: severity ${input.severity} is not in the rule catalogue's entry (${rule.severities.join(', ')})`);
  }
  const own = input.alsoFails ?? [];
  const stray = own.filter((c) => !rule.mayAlsoFail.includes(c));
  if (stray.length > 0) {
    throw new Error(`${input.ruleId}: ${stray.join(', ')} not among the criteria the rule catalogue's entry may also fail (${rule.mayAlsoFail.join(', ') || 'none'})`);
  }
  const criteria = wcagCriteria([sc.id, ...rule.alsoFails, ...own]);
  return {
    ruleId: input.ruleId,
    type: input.type,
    severity: input.severity,
    wcagCriterion: sc.id,
    wcagLevel: lowestLevel(criteria) ?? sc.level,
    wcagCriteria: criteria,
    elementSelector: input.selector.replace(/\s+/g, ' ').trim(),
    elementHtml: input.html.length > MAX_HTML ? `${input.html.slice(0, MAX_HTML)}…` : input.html,
    engineHelp: input.help,
    engineDescription: input.description,
    failureSummary: input.failureSummary,
    helpUrl: input.helpUrl ?? null,
    data: { ...input.data },
  };
}

/** Understanding document of a WCAG 2.2 criterion, for `helpUrl`. */
export function understandingUrl(slug: string): string {
  return `https://www.w3.org/WAI/WCAG22/Understanding/${slug}.html`;
}
