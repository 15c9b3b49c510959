// Pure scoring of the accuracy harness: which WCAG criteria an ACT rule maps to, whether a
// finding belongs to a test case's rule, how failed / passed / inapplicable cases are counted,
// the goals, GDS "barrier found" and the ipython contrast bookkeeping. No I/O here.
import { successCriterion } from '../../src/shared/wcag.ts';

export type Outcome = 'confirmed' | 'needs_review';
export type Expected = 'passed' | 'failed' | 'inapplicable';

/** A finding as the harness keeps it: enough to score and to point an engineer at the element. */
export interface Finding {
  ruleId: string;
  type: Outcome;
  criterion: string;
  /** Every criterion it fails, the primary (`criterion`) first (`wcagCriteria`); unset: the primary only. */
  criteria?: readonly string[];
  selector: string;
  /** The engine that produced it (`data.engine`). */
  engine?: string;
  /** Rules of other engines merged into this finding (`data.alsoFlaggedBy`). */
  also?: readonly string[];
}

// ---- ACT rule -> WCAG criteria --------------------------------------------------------------------

/**
 * The criteria a WCAG technique is sufficient (or advisory) for, from the W3C "Techniques for
 * WCAG 2.2" pages. Only used for rules with no A/AA criterion of their own as a primary
 * requirement. AAA criteria are listed for completeness and dropped later.
 */
export const TECHNIQUE_CRITERIA: Readonly<Record<string, readonly string[]>> = {
  ARIA4: ['4.1.2'], // Using a WAI-ARIA role to expose the role of a user interface component
  ARIA5: ['4.1.2'], // Using WAI-ARIA state and property attributes to expose the state of a UI component
  G1: ['2.4.1'], // Adding a link at the top of each page that goes directly to the main content area
  G8: ['1.2.7'], // Providing a movie with extended audio descriptions (AAA)
  G17: ['1.4.6'], // Contrast ratio of at least 7:1 (AAA)
  G18: ['1.4.3'], // Contrast ratio of at least 4.5:1
  G21: ['2.1.2'], // Ensuring that users are not trapped in content
  G60: ['1.4.2'], // Playing a sound that turns off automatically within three seconds
  G69: ['1.2.3', '1.2.8'], // Providing an alternative for time-based media
  G78: ['1.2.3', '1.2.5'], // Providing a second, user-selectable, audio track that includes audio descriptions
  G87: ['1.2.2'], // Providing closed captions
  G88: ['2.4.2'], // Providing descriptive titles for web pages
  G91: ['2.4.4', '2.4.9'], // Providing link text that describes the purpose of a link
  G93: ['1.2.2'], // Providing open (always visible) captions
  G94: ['1.1.1'], // Providing short text alternative for non-text content
  G95: ['1.1.1'], // Providing short text alternatives that provide a brief description
  G96: ['1.3.3'], // Providing textual identification of items that otherwise rely only on sensory information
  G108: ['4.1.2'], // Using markup features to expose the name and role ... of user interface components
  G110: ['2.2.1', '2.2.4', '3.2.5'], // Using an instant client-side redirect
  G123: ['2.4.1'], // Adding a link at the beginning of a block of repeated content to go to its end
  G124: ['2.4.1'], // Adding links at the top of the page to each area of the content
  G131: ['2.4.6', '3.3.2'], // Providing descriptive labels
  G158: ['1.2.1'], // Providing an alternative for time-based media for audio-only content
  G159: ['1.2.1'], // Providing an alternative for time-based media for video-only content
  G166: ['1.2.1'], // Providing audio that describes the important video content
  G170: ['1.4.2'], // Providing a control near the beginning of the page that turns off sounds that play automatically
  G171: ['1.4.2'], // Playing sounds only on user request
  G173: ['1.2.3', '1.2.5'], // Providing a version of a movie with audio descriptions
  G202: ['2.1.1'], // Ensuring keyboard control for all functionality
  G208: ['2.5.3'], // Including the text of the visible label as part of the accessible name
  H25: ['2.4.2'], // Providing a title using the title element
  H43: ['1.3.1'], // Using id and headers attributes to associate data cells with header cells
  H57: ['3.1.1'], // Using the language attribute on the HTML element
  H58: ['3.1.2'], // Using language attributes to identify changes in the human language
  H69: ['2.4.1'], // Providing heading elements at the beginning of each section of content
  H76: ['2.2.1', '2.2.4', '3.2.5'], // Using meta refresh to create an instant client-side redirect
  H95: ['1.2.2'], // Using the track element to provide captions
  SCR28: ['2.4.1'], // Using an expandable and collapsible menu to bypass block of content
};

/**
 * For rules whose only WCAG requirements are AAA: the A/AA criterion on the same subject that a
 * failure of the stricter one usually also fails (a link not descriptive on its own, 2.4.9, is
 * checked for 2.4.4 by the service, which reports A/AA only).
 */
export const AAA_SIBLING: Readonly<Record<string, string>> = {
  '2.4.9': '2.4.4', // Link Purpose (Link Only) -> (In Context)
  '1.4.6': '1.4.3', // Contrast (Enhanced) -> (Minimum)
  '1.4.9': '1.4.5', // Images of Text (No Exception) -> Images of Text
  '1.2.8': '1.2.3', // Media Alternative (Prerecorded) -> Audio Description or Media Alternative
  '1.2.7': '1.2.5', // Extended Audio Description -> Audio Description
  '2.1.3': '2.1.1', // Keyboard (No Exception) -> Keyboard
};

/**
 * ACT rules with no WCAG requirement at all (or only ARIA ones): the criterion of their subject.
 * Most are atomic parts of a composite rule that does map to WCAG; they take its criterion.
 */
export const SUBJECT_CRITERIA: Readonly<Record<string, { criteria: readonly string[]; why: string }>> = {
  '46ca7f': { criteria: ['1.1.1', '4.1.2'], why: 'element marked decorative but exposed (with a name or role): non-text content / name, role, value' },
  afb423: { criteria: ['1.2.1'], why: 'audio as media alternative for text: part of e7aa44 (1.2.1)' },
  '2eb176': { criteria: ['1.2.1'], why: 'audio transcript: part of e7aa44 (1.2.1)' },
  ab4d13: { criteria: ['1.2.2', '1.2.3'], why: 'video as media alternative for text: part of eac66b (1.2.2) and c5a4ea (1.2.3)' },
  fd26cf: { criteria: ['1.2.1'], why: 'video-only as media alternative for text: part of c3232f (1.2.1)' },
  b40fd1: { criteria: ['2.4.1'], why: 'landmark around non-repeated content: part of cf77f2 (2.4.1)' },
  ebe86a: { criteria: ['2.1.2'], why: 'keyboard trap (non-standard navigation): part of 80af7b (2.1.2)' },
  a1b64e: { criteria: ['2.1.2'], why: 'keyboard trap (standard navigation): part of 80af7b (2.1.2)' },
  ffd0e9: { criteria: ['1.3.1', '2.4.6'], why: 'empty heading: heading structure (1.3.1) and headings describe topic (2.4.6)' },
};

export type CriteriaSource = 'wcag' | 'wcag+technique' | 'technique' | 'aaa-sibling' | 'subject' | 'none';

export interface RuleCriteria {
  /** WCAG 2.2 A/AA criteria, sorted. */
  criteria: string[];
  source: CriteriaSource;
}

const isAA = (id: string) => successCriterion(id) !== undefined;

function byNumber(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < 3; i++) if ((pa[i] ?? 0) !== (pb[i] ?? 0)) return (pa[i] ?? 0) - (pb[i] ?? 0);
  return 0;
}

/**
 * The WCAG 2.2 A/AA criteria of an ACT rule, from its `ruleAccessibilityRequirements`:
 * 1. its `wcag20:/wcag21:/wcag22:` criteria, primary and secondary, A/AA only (4.1.1 is gone);
 * 2. when no primary requirement is an A/AA criterion: the criteria of its WCAG techniques;
 * 3. still none: the A/AA sibling of its AAA criteria (`AAA_SIBLING`);
 * 4. still none: the criterion of its subject (`SUBJECT_CRITERIA`).
 */
export function ruleCriteria(actRuleId: string, requirements: Readonly<Record<string, unknown>> | null | undefined): RuleCriteria {
  const primary: string[] = [];
  const secondary: string[] = [];
  const techniques: string[] = [];
  for (const [key, value] of Object.entries(requirements ?? {})) {
    const wcag = /^wcag2[012]:(\d+\.\d+\.\d+)$/.exec(key);
    if (wcag) {
      const isSecondary = typeof value === 'object' && value !== null && 'secondary' in value;
      (isSecondary ? secondary : primary).push(wcag[1]!);
      continue;
    }
    const tech = /^wcag-technique:([A-Z]+\d+)$/.exec(key);
    if (tech) techniques.push(tech[1]!);
  }
  const out = new Set<string>([...primary, ...secondary].filter(isAA));
  let source: CriteriaSource = out.size ? 'wcag' : 'none';
  if (!primary.some(isAA)) {
    const before = out.size;
    for (const t of techniques) for (const c of TECHNIQUE_CRITERIA[t] ?? []) if (isAA(c)) out.add(c);
    if (out.size > before) source = before ? 'wcag+technique' : 'technique';
  }
  if (!out.size) {
    for (const c of primary) {
      const sib = AAA_SIBLING[c];
      if (sib) out.add(sib);
    }
    if (out.size) source = 'aaa-sibling';
  }
  if (!out.size && SUBJECT_CRITERIA[actRuleId]) {
    for (const c of SUBJECT_CRITERIA[actRuleId]!.criteria) out.add(c);
    source = 'subject';
  }
  return { criteria: [...out].sort(byNumber), source };
}

// ---- engine rule -> ACT rule declarations -----------------------------------------------------

/** Engine rule id -> the ACT rule ids it implements, by the engine's own declaration. */
export type ActMap = ReadonlyMap<string, ReadonlySet<string>>;

/** Merges declarations (axe's `actIds`, an engine's `ACT_RULES` export) into one map. */
export function buildActMap(...sources: ReadonlyArray<Iterable<readonly [string, readonly string[]]>>): Map<string, Set<string>> {
  const map = new Map<string, Set<string>>();
  for (const source of sources) {
    for (const [ruleId, actIds] of source) {
      const set = map.get(ruleId) ?? new Set<string>();
      for (const id of actIds) set.add(id);
      if (set.size) map.set(ruleId, set);
    }
  }
  return map;
}

/**
 * Whether `f` is about the ACT rule: one of its WCAG criteria (the primary or a further one) is
 * the rule's, or an engine rule declared to implement it.
 */
export function belongs(f: Finding, actRuleId: string, criteria: ReadonlySet<string>, actMap: ActMap): boolean {
  if (criteria.has(f.criterion)) return true;
  if (f.criteria?.some((c) => criteria.has(c))) return true;
  if (actMap.get(f.ruleId)?.has(actRuleId)) return true;
  return (f.also ?? []).some((r) => actMap.get(r)?.has(actRuleId) ?? false);
}

/**
 * Whether a finding on a passing case of `actRuleId` is a failure of some other ACT rule: its
 * engine rule declares ACT rules, and this one is not among them.
 */
export function explainedElsewhere(f: Finding, actRuleId: string, actMap: ActMap): boolean {
  const declared = actMap.get(f.ruleId);
  return !!declared && declared.size > 0 && !declared.has(actRuleId);
}

/** The strongest outcome among the findings that belong to the case's rule, and those findings. */
export function caseVerdict(
  findings: readonly Finding[],
  actRuleId: string,
  criteria: ReadonlySet<string>,
  actMap: ActMap,
): { outcome: Outcome | null; hits: Finding[] } {
  const hits = findings.filter((f) => belongs(f, actRuleId, criteria, actMap));
  const outcome = hits.some((f) => f.type === 'confirmed') ? 'confirmed' : hits.length ? 'needs_review' : null;
  return { outcome, hits };
}

// ---- ACT scoring --------------------------------------------------------------------------------

export interface ActRuleInfo {
  id: string;
  name: string;
  criteria: readonly string[];
  source: CriteriaSource;
}

/** One scanned test case, with the findings of each view ("service", "axe-core", "engine:<id>"). */
export interface ActCaseResult {
  ruleId: string;
  expected: Expected;
  path: string;
  title?: string;
  /** Why the page gave no scan (page error, timeout); such a case is scored with no findings. */
  error?: string;
  views: Readonly<Record<string, readonly Finding[]>>;
}

export interface ActRuleScore {
  ruleId: string;
  failed: number;
  /** Passed plus inapplicable cases. */
  passing: number;
  confirmed: number;
  needsReview: number;
  missed: number;
  /** Passing cases with a confirmed finding that belongs. */
  falsePositives: number;
  /** Passing cases whose strongest belonging finding is needs_review. */
  nrOnPassing: number;
  /**
   * False positives where every confirmed finding that belongs comes from an engine rule that
   * declares other ACT rules, not this one (a real failure of another rule under the same
   * criterion, e.g. a focusable `aria-hidden` link on a link-name case).
   */
  explainedFalsePositives: number;
}

export interface ActViewScore {
  view: string;
  rules: ActRuleScore[];
  totals: ActRuleScore & { flagged: number; nrOnPassingPct: number };
  /** Every confirmed finding that belongs to a passing case's rule. */
  falsePositiveList: Array<{
    actRuleId: string;
    path: string;
    expected: Expected;
    ruleId: string;
    criterion: string;
    selector: string;
    engine?: string;
    /** The ACT rules the finding's engine rule declares (empty: none). */
    declares: string[];
  }>;
  /** Rule ids behind needs_review on passing cases (counted per case and rule id). */
  nrOnPassingByRule: Record<string, number>;
}

function emptyScore(ruleId: string): ActRuleScore {
  return { ruleId, failed: 0, passing: 0, confirmed: 0, needsReview: 0, missed: 0, falsePositives: 0, nrOnPassing: 0, explainedFalsePositives: 0 };
}

/** Scores one view over all cases. Rules appear in the order of `rules`. */
export function scoreActView(view: string, cases: readonly ActCaseResult[], rules: ReadonlyMap<string, ActRuleInfo>, actMap: ActMap): ActViewScore {
  const perRule = new Map<string, ActRuleScore>();
  for (const id of rules.keys()) perRule.set(id, emptyScore(id));
  const falsePositiveList: ActViewScore['falsePositiveList'] = [];
  const nrOnPassingByRule: Record<string, number> = {};
  for (const c of cases) {
    const rule = rules.get(c.ruleId);
    if (!rule) continue;
    const score = perRule.get(c.ruleId)!;
    const { outcome, hits } = caseVerdict(c.views[view] ?? [], c.ruleId, new Set(rule.criteria), actMap);
    if (c.expected === 'failed') {
      score.failed++;
      if (outcome === 'confirmed') score.confirmed++;
      else if (outcome === 'needs_review') score.needsReview++;
      else score.missed++;
      continue;
    }
    score.passing++;
    if (outcome === 'confirmed') {
      score.falsePositives++;
      const confirmed = hits.filter((h) => h.type === 'confirmed');
      if (confirmed.every((h) => explainedElsewhere(h, c.ruleId, actMap))) score.explainedFalsePositives++;
      for (const f of confirmed) {
        const declares = [...new Set([f.ruleId, ...(f.also ?? [])].flatMap((r) => [...(actMap.get(r) ?? [])]))];
        falsePositiveList.push({ actRuleId: c.ruleId, path: c.path, expected: c.expected, ruleId: f.ruleId, criterion: f.criterion, selector: f.selector, engine: f.engine, declares });
      }
    } else if (outcome === 'needs_review') {
      score.nrOnPassing++;
      for (const id of new Set(hits.map((h) => h.ruleId))) nrOnPassingByRule[id] = (nrOnPassingByRule[id] ?? 0) + 1;
    }
  }
  const list = [...perRule.values()];
  const totals = list.reduce((t, r) => {
    t.failed += r.failed;
    t.passing += r.passing;
    t.confirmed += r.confirmed;
    t.needsReview += r.needsReview;
    t.missed += r.missed;
    t.falsePositives += r.falsePositives;
    t.nrOnPassing += r.nrOnPassing;
    t.explainedFalsePositives += r.explainedFalsePositives;
    return t;
  }, emptyScore('total'));
  return {
    view,
    rules: list,
    totals: { ...totals, flagged: totals.confirmed + totals.needsReview, nrOnPassingPct: pct(totals.nrOnPassing, totals.passing) },
    falsePositiveList,
    nrOnPassingByRule,
  };
}

// ---- per criterion --------------------------------------------------------------------------------

/** What one view finds under one WCAG criterion: `flagged` (confirmed or needs_review), of which `confirmed`. */
export interface CriterionCount {
  flagged: number;
  confirmed: number;
}

/** ACT, per criterion: the failed cases of the rules that map to it, and how many each view flags (as the rule scoring does). */
export interface ActCriterionRow {
  criterion: string;
  failed: number;
  views: Record<string, CriterionCount>;
}

export function actByCriterion(cases: readonly ActCaseResult[], rules: ReadonlyMap<string, ActRuleInfo>, actMap: ActMap, viewNames: readonly string[]): ActCriterionRow[] {
  const rows = new Map<string, ActCriterionRow>();
  for (const c of cases) {
    const rule = rules.get(c.ruleId);
    if (!rule || c.expected !== 'failed') continue;
    const crit = new Set(rule.criteria);
    for (const criterion of rule.criteria) {
      const row = rows.get(criterion) ?? { criterion, failed: 0, views: Object.fromEntries(viewNames.map((v) => [v, { flagged: 0, confirmed: 0 }])) };
      rows.set(criterion, row);
      row.failed++;
      for (const v of viewNames) {
        const { outcome } = caseVerdict(c.views[v] ?? [], c.ruleId, crit, actMap);
        if (outcome) row.views[v]!.flagged++;
        if (outcome === 'confirmed') row.views[v]!.confirmed++;
      }
    }
  }
  return [...rows.values()].sort((a, b) => byNumber(a.criterion, b.criterion));
}

/** GDS, per criterion: the barriers each view found with a finding under it (a barrier found under two criteria counts under both). */
export function gdsByCriterion(verdicts: Readonly<Record<string, readonly BarrierVerdict[]>>): Array<{ criterion: string; views: Record<string, CriterionCount> }> {
  const rows = new Map<string, Record<string, CriterionCount>>();
  for (const [view, list] of Object.entries(verdicts)) {
    for (const b of list) {
      for (const [criterion, confirmed] of Object.entries(b.criteria)) {
        const row = rows.get(criterion) ?? Object.fromEntries(Object.keys(verdicts).map((v) => [v, { flagged: 0, confirmed: 0 }]));
        rows.set(criterion, row);
        row[view]!.flagged++;
        if (confirmed) row[view]!.confirmed++;
      }
    }
  }
  return [...rows.entries()].map(([criterion, views]) => ({ criterion, views })).sort((a, b) => byNumber(a.criterion, b.criterion));
}

export function pct(n: number, of: number): number {
  return of ? Math.round((1000 * n) / of) / 10 : 0;
}

export interface Goal {
  name: string;
  value: string;
  target: string;
  /** null: not measurable in this run (e.g. the rule was filtered out). */
  pass: boolean | null;
}

/** Link-purpose rules the issue sets a recall goal for. */
export const LINK_PURPOSE_RULES = ['5effbb', 'fd3a94'] as const;

/** The ACT goals of issue 13, on one view's totals. */
export function actGoals(s: ActViewScore): Goal[] {
  const t = s.totals;
  const goals: Goal[] = [
    { name: 'failed cases flagged (confirmed + needs_review)', value: `${t.flagged} of ${t.failed}`, target: '> 258', pass: t.flagged > 258 },
    { name: 'failed cases confirmed', value: String(t.confirmed), target: '>= 222', pass: t.confirmed >= 222 },
    { name: 'confirmed false positives (passed + inapplicable cases)', value: String(t.falsePositives), target: '== 0', pass: t.falsePositives === 0 },
    {
      name: '  same, less those from a rule declaring another ACT rule',
      value: String(t.falsePositives - t.explainedFalsePositives),
      target: '== 0',
      pass: t.falsePositives - t.explainedFalsePositives === 0,
    },
    { name: 'needs_review on passed + inapplicable cases', value: `${t.nrOnPassing} of ${t.passing} (${t.nrOnPassingPct}%)`, target: '<= 10%', pass: t.nrOnPassingPct <= 10 },
  ];
  for (const id of LINK_PURPOSE_RULES) {
    const r = s.rules.find((x) => x.ruleId === id);
    if (!r || r.failed === 0) {
      goals.push({ name: `${id} failed cases flagged`, value: 'not run', target: '>= 80%', pass: null });
      continue;
    }
    const p = pct(r.confirmed + r.needsReview, r.failed);
    goals.push({ name: `${id} failed cases flagged`, value: `${r.confirmed + r.needsReview} of ${r.failed} (${p}%)`, target: '>= 80%', pass: p >= 80 });
  }
  return goals;
}

// ---- GDS: barrier found beyond the template -------------------------------------------------------

const fullKey = (f: Finding) => `${f.ruleId}\u0000${f.criterion}\u0000${f.selector}`;
const ruleKey = (f: Finding) => `${f.ruleId}\u0000${f.criterion}`;

/**
 * The A/AA findings of a page that the template page does not have: by rule + criterion +
 * selector, or (strict) by rule + criterion only.
 */
export function beyondTemplate(page: readonly Finding[], template: readonly Finding[], strict: boolean): Finding[] {
  const key = strict ? ruleKey : fullKey;
  const known = new Set(template.map(key));
  return page.filter((f) => isAA(f.criterion) && !known.has(key(f)));
}

export interface BarrierVerdict {
  outcome: Outcome | null;
  /** Distinct rule ids (with criterion) of the findings that found it, confirmed first. */
  rules: string[];
  /** Every criterion of those findings (primary and further), true where a confirmed one is under it. */
  criteria: Record<string, boolean>;
}

/** A barrier is found when its page, or one of its linked example pages, has a finding the template lacks. */
export function barrierVerdict(pages: ReadonlyArray<readonly Finding[]>, template: readonly Finding[], strict: boolean): BarrierVerdict {
  const extra = pages.flatMap((p) => beyondTemplate(p, template, strict));
  const outcome = extra.some((f) => f.type === 'confirmed') ? 'confirmed' : extra.length ? 'needs_review' : null;
  const sorted = [...extra].sort((a, b) => (a.type === b.type ? 0 : a.type === 'confirmed' ? -1 : 1));
  const criteria: Record<string, boolean> = {};
  for (const f of extra) for (const c of f.criteria ?? [f.criterion]) criteria[c] = criteria[c] === true || f.type === 'confirmed';
  return { outcome, rules: [...new Set(sorted.map((f) => `${f.ruleId} ${f.criterion}${f.type === 'confirmed' ? '' : ' (NR)'}`))], criteria };
}

// ---- ipython: contrast before (axe alone) and after (service) ------------------------------------

export interface ContrastPage {
  url: string;
  /** axe-core's own `color-contrast` findings, from the axe engine run. */
  axe: readonly Finding[];
  /** The service's merged findings under 1.4.3. */
  service: readonly Finding[];
}

export interface ContrastTally {
  pages: number;
  before: { needsReview: number; confirmed: number };
  after: { needsReview: number; confirmed: number };
  /** Reduction of needs_review contrast findings, in % of before. */
  nrReductionPct: number;
  /** What became of axe's needs_review findings, matched by selector on the same page. */
  axeNr: { becameConfirmed: number; dropped: number; stayNeedsReview: number };
  /** Which engine decided the axe needs_review findings that became confirmed. */
  becameConfirmedBy: Record<string, number>;
  /** axe confirmed findings that the service does not report as confirmed. */
  confirmedLost: Array<{ url: string; selector: string; now: Outcome | 'gone' }>;
  /** Service findings on elements axe did not report at all. */
  newInService: { needsReview: number; confirmed: number };
}

export function tallyContrast(pages: readonly ContrastPage[]): ContrastTally {
  const t: ContrastTally = {
    pages: pages.length,
    before: { needsReview: 0, confirmed: 0 },
    after: { needsReview: 0, confirmed: 0 },
    nrReductionPct: 0,
    axeNr: { becameConfirmed: 0, dropped: 0, stayNeedsReview: 0 },
    becameConfirmedBy: {},
    confirmedLost: [],
    newInService: { needsReview: 0, confirmed: 0 },
  };
  for (const p of pages) {
    const service = new Map<string, Finding>();
    for (const f of p.service) {
      const had = service.get(f.selector);
      if (!had || (had.type !== 'confirmed' && f.type === 'confirmed')) service.set(f.selector, f);
    }
    const axeSelectors = new Set(p.axe.map((f) => f.selector));
    for (const f of p.axe) {
      if (f.type === 'confirmed') t.before.confirmed++;
      else t.before.needsReview++;
      const now = service.get(f.selector);
      if (f.type === 'needs_review') {
        if (!now) t.axeNr.dropped++;
        else if (now.type === 'confirmed') {
          t.axeNr.becameConfirmed++;
          const by = now.engine ?? '?';
          t.becameConfirmedBy[by] = (t.becameConfirmedBy[by] ?? 0) + 1;
        } else t.axeNr.stayNeedsReview++;
      } else if (now?.type !== 'confirmed') {
        t.confirmedLost.push({ url: p.url, selector: f.selector, now: now ? now.type : 'gone' });
      }
    }
    for (const f of service.values()) {
      if (f.type === 'confirmed') t.after.confirmed++;
      else t.after.needsReview++;
      if (!axeSelectors.has(f.selector)) t.newInService[f.type === 'confirmed' ? 'confirmed' : 'needsReview']++;
    }
  }
  t.nrReductionPct = t.before.needsReview ? Math.round((1000 * (t.before.needsReview - t.after.needsReview)) / t.before.needsReview) / 10 : 0;
  return t;
}

// ---- timing ------------------------------------------------------------------------------------

export function meanMedian(values: readonly number[]): { n: number; mean: number; median: number; p95: number; max: number } {
  if (!values.length) return { n: 0, mean: 0, median: 0, p95: 0, max: 0 };
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  const median = s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
  return {
    n: s.length,
    mean: Math.round(s.reduce((a, b) => a + b, 0) / s.length),
    median: Math.round(median),
    p95: s[Math.min(s.length - 1, Math.ceil(0.95 * s.length) - 1)]!,
    max: s.at(-1)!,
  };
}
