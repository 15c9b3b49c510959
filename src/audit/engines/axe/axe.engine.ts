import { AXE_WCAG_TAGS } from '../../../shared/wcag.ts';
import { findingsFromAxe, passedRules, type AxeRuleResult } from '../../findings/findings.ts';
import type { FindingDraft, ReviewFacts } from '../../../shared/findings.ts';
import { withoutBrokenImages } from '../pixel-contrast/background-images.ts';
import { runAxe } from '../../session/in-page.ts';
import type { EngineResult, PageSession, ScanEngine } from '../engine.ts';

/**
 * axe rules whose results the service trusts differently from axe's own verdict (each is also
 * switched on, which the experimental ones need).
 * - `css-orientation-lock` (1.3.4): its violations had no false positive on the ACT cases; its
 *   "needs review" results are only noise, so they are dropped.
 * - `label-content-name-mismatch` (2.5.3): its violations gave axe's only label-in-name false
 *   positives on ACT, so they are reported as `needs_review`.
 */
export interface AxeTrust {
  violations: 'confirmed' | 'needs_review';
  incomplete: 'needs_review' | 'drop';
}

export const AXE_EXPERIMENTAL: Readonly<Record<string, AxeTrust>> = {
  'css-orientation-lock': { violations: 'confirmed', incomplete: 'drop' },
  'label-content-name-mismatch': { violations: 'needs_review', incomplete: 'needs_review' },
};

/**
 * axe's best-practice rules with a documented WCAG failure (their criteria and W3C
 * sources are in src/shared/rules/axe-also-fails.ts), switched on by id. axe tags them best
 * practices: their ACT rule (ffd0e9 for `empty-heading`) or the failure technique beside them maps
 * to no WCAG criterion, or ties a failure only to some of what the rule flags. So none of them is
 * ever `confirmed` under a criterion: each violation is `needs_review` under the
 * criterion it most likely affects, with the reason (`BEST_PRACTICE_REASON`) and axe's message.
 * - `empty-heading` (1.3.1, 2.4.6): an empty heading is heading markup with nothing under it
 *   to describe; whether that misstates the structure (F43) is for a person.
 * - `aria-treeitem-name`, `aria-text`, `aria-dialog-name` (4.1.2); `tabindex` (2.4.3, F44: only
 *   where the order loses meaning); `heading-order`, `empty-table-header`, `scope-attr-valid`
 *   (1.3.1: a skipped level, a corner header, a simple table's scope are often right).
 * axe's own "needs review" results of these rules are dropped: noise on ACT's passing cases.
 */
export const AXE_BEST_PRACTICE: Readonly<Record<string, AxeTrust>> = {
  'empty-heading': { violations: 'needs_review', incomplete: 'drop' },
  'aria-treeitem-name': { violations: 'needs_review', incomplete: 'drop' },
  'aria-text': { violations: 'needs_review', incomplete: 'drop' },
  tabindex: { violations: 'needs_review', incomplete: 'drop' },
  'heading-order': { violations: 'needs_review', incomplete: 'drop' },
  'empty-table-header': { violations: 'needs_review', incomplete: 'drop' },
  'scope-attr-valid': { violations: 'needs_review', incomplete: 'drop' },
  'aria-dialog-name': { violations: 'needs_review', incomplete: 'drop' },
};

/** Why a best-practice rule's finding needs a person, before what the rule saw. */
export const BEST_PRACTICE_REASON =
  'axe-core counts this a best practice: no ACT rule or W3C failure technique makes it a WCAG failure in every case, so a person decides whether it fails the criterion named.';

/** What each best-practice rule saw, and what decides whether it fails the criterion it most likely affects. */
const BEST_PRACTICE_WHY: Readonly<Record<string, string>> = {
  'empty-heading': 'Heading markup with no text: it fails 1.3.1 where it is meant as a heading and names no section (F43), not where it is an empty leftover that structures nothing.',
  'aria-treeitem-name': 'A tree item with no accessible name: it fails 4.1.2 where it is an item people operate.',
  'aria-text': 'A focusable element inside role="text" loses its role: it fails 4.1.2 where people must operate it.',
  tabindex: 'A positive tabindex reorders the keyboard path: it fails 2.4.3 only where the order it makes loses meaning or operability (F44).',
  'heading-order': 'A heading level is skipped: it fails 1.3.1 only where the levels misstate how the sections nest.',
  'empty-table-header': 'A table header cell has no text: it fails 1.3.1 where it heads cells (a corner cell heads nothing).',
  'scope-attr-valid': 'A scope attribute is invalid or misplaced: it fails 1.3.1 only where the table needs it to tie headers to cells (F91).',
  'aria-dialog-name': 'A dialog has no accessible name: it fails 4.1.2 where the dialog is announced to people as a control.',
};

/** How far the service trusts an axe rule's verdicts: the experimental and best-practice ones. */
export const AXE_TRUST: Readonly<Record<string, AxeTrust>> = { ...AXE_EXPERIMENTAL, ...AXE_BEST_PRACTICE };

/** The axe options that select the service's rules: the WCAG tags, plus the rules switched on by id. */
export function axeRuleSelection(): { runOnly: { type: 'tag'; values: string[] }; rules: Record<string, { enabled: true }> } {
  return {
    runOnly: { type: 'tag', values: [...AXE_WCAG_TAGS] },
    rules: Object.fromEntries(Object.keys(AXE_TRUST).map((id) => [id, { enabled: true as const }])),
  };
}

/**
 * One axe run's violations and "needs review" results as drafts, each rule as far as the service
 * trusts it (`AXE_TRUST`; axe's own verdict for the rest).
 */
export function axeDrafts(violations: readonly AxeRuleResult[], incomplete: readonly AxeRuleResult[]): FindingDraft[] {
  return [
    ...findingsFromAxe(violations.filter((r) => (AXE_TRUST[r.id]?.violations ?? 'confirmed') === 'confirmed'), 'confirmed'),
    ...findingsFromAxe(violations.filter((r) => AXE_TRUST[r.id]?.violations === 'needs_review'), 'needs_review'),
    ...findingsFromAxe(incomplete.filter((r) => AXE_TRUST[r.id]?.incomplete !== 'drop'), 'needs_review'),
  ].map((d) => (AXE_BEST_PRACTICE[d.ruleId] ? withBestPracticeReason(d) : d));
}

/** A best-practice finding's review reason: why a person decides, then axe's message. */
function withBestPracticeReason(d: FindingDraft): FindingDraft {
  const review = (d.data.review ?? {}) as ReviewFacts;
  const saw = BEST_PRACTICE_WHY[d.ruleId] ?? review.reason;
  const reason = saw ? `${saw} ${BEST_PRACTICE_REASON}` : BEST_PRACTICE_REASON;
  return { ...d, data: { ...d.data, review: { ...review, reason } } };
}

/**
 * Rules about reaching or operating an element with the keyboard. An element made inert (by the
 * `inert` attribute, or by a modal `<dialog>` open outside it) cannot be reached at all while it
 * is inert, so these rules do not apply to it; axe does not know inertness (ACT akn7bn's
 * inapplicable cases: a frame behind an open modal dialog).
 */
const KEYBOARD_REACH_RULES = new Set(['frame-focusable-content', 'scrollable-region-focusable']);

/** Drops the nodes of keyboard-reach violations that are inert on the page as it is now. */
async function withoutInert(page: PageSession['page'], rules: AxeRuleResult[]): Promise<AxeRuleResult[]> {
  // A node inside a frame (target [frame, inner]) is inert when its frame element is.
  const top = (t: unknown[]) => (typeof t[0] === 'string' ? t[0] : undefined);
  const selectors = rules
    .filter((r) => KEYBOARD_REACH_RULES.has(r.id))
    .flatMap((r) => r.nodes.map((n) => top(n.target)))
    .filter((sel): sel is string => !!sel);
  if (selectors.length === 0) return rules;
  const inert = new Set(
    await page
      .evaluate((sels: string[]) => {
        const modal = document.querySelector('dialog:modal');
        return sels.filter((sel) => {
          let el: Element | null = null;
          try {
            el = document.querySelector(sel);
          } catch {
            return false;
          }
          if (!el) return false;
          return !!el.closest('[inert]') || (!!modal && !modal.contains(el));
        });
      }, selectors)
      .catch(() => [] as string[]),
  );
  if (inert.size === 0) return rules;
  return rules
    .map((r) => (KEYBOARD_REACH_RULES.has(r.id) ? { ...r, nodes: r.nodes.filter((n) => !inert.has(top(n.target) ?? '')) } : r))
    .filter((r) => r.nodes.length > 0);
}

/**
 * Only the first `<meta http-equiv="refresh">` with a valid value acts (HTML's shared declarative
 * refresh steps run once per document; ACT bc659a/bisz58 apply to that one alone): axe's
 * `meta-refresh` nodes that are any other meta refresh of the page refresh nothing and are dropped.
 * A value is valid as HTML parses it: after white space, digits or full stops, then its end, `;`,
 * `,` or white space (`0: https://…` is not, so a later `5; https://…` is the one that acts).
 */
async function withoutInertRefresh(page: PageSession['page'], rules: AxeRuleResult[]): Promise<AxeRuleResult[]> {
  const rule = rules.find((r) => r.id === 'meta-refresh');
  if (!rule) return rules;
  const selectors = rule.nodes.map((n) => (typeof n.target[0] === 'string' ? n.target[0] : ''));
  const acting = await page
    .evaluate((sels: string[]) => {
      const first = [...document.querySelectorAll('meta[http-equiv]')].find(
        (m) => m.getAttribute('http-equiv')!.trim().toLowerCase() === 'refresh' && /^[\t\n\f\r ]*[0-9.][0-9.]*(?:$|[;,\t\n\f\r ])/.test(m.getAttribute('content') ?? ''),
      );
      return sels.map((sel) => {
        try {
          return !first || !sel || document.querySelector(sel) === first;
        } catch {
          return true;
        }
      });
    }, selectors)
    .catch(() => selectors.map(() => true));
  const nodes = rule.nodes.filter((_, i) => acting[i]);
  return nodes.length ? rules.map((r) => (r === rule ? { ...r, nodes } : r)) : rules.filter((r) => r !== rule);
}

/**
 * axe's `th-has-data-cells` asks for review when a header cell has no data cell to head, since
 * cells may be empty on purpose. A table (or grid) with header cells and no data cell at all is
 * not that: every header heads nothing, the case ACT d0f69e ("Table header cell has assigned
 * cells", 1.3.1) fails. Those nodes become violations; the rest stay as axe said.
 */
export async function withHeadersOverNothing(
  page: PageSession['page'],
  results: { violations: AxeRuleResult[]; incomplete: AxeRuleResult[] },
): Promise<{ violations: AxeRuleResult[]; incomplete: AxeRuleResult[] }> {
  const rule = results.incomplete.find((r) => r.id === 'th-has-data-cells');
  if (!rule) return results;
  const selectors = rule.nodes.map((n) => (n.target.length === 1 && typeof n.target[0] === 'string' ? n.target[0] : ''));
  const empty = await page
    .evaluate((sels: string[]) => {
      const CELLS = 'td, [role="cell" i], [role="gridcell" i]';
      const TABLES = 'table, [role="table" i], [role="grid" i], [role="treegrid" i]';
      return sels.map((sel) => {
        if (!sel) return false;
        let el: Element | null = null;
        try {
          el = document.querySelector(sel);
        } catch {
          return false;
        }
        const table = el?.closest(TABLES);
        if (!table) return false;
        // Cells of a table nested in this one are not its cells, nor are they empty of it.
        return ![...table.querySelectorAll(CELLS)].some((c) => c.closest(TABLES) === table);
      });
    }, selectors)
    .catch(() => selectors.map(() => false));
  if (!empty.some(Boolean)) return results;
  const why = 'The table has header cells and no data cell at all: every header heads nothing, and its structure says there is data where there is none.';
  const moved = rule.nodes.filter((_, i) => empty[i]).map((n) => ({ ...n, failureSummary: why }));
  const kept = rule.nodes.filter((_, i) => !empty[i]);
  const own = results.violations.find((r) => r.id === rule.id);
  return {
    violations: own ? results.violations.map((r) => (r === own ? { ...r, nodes: [...r.nodes, ...moved] } : r)) : [...results.violations, { ...rule, nodes: moved }],
    incomplete: kept.length ? results.incomplete.map((r) => (r === rule ? { ...r, nodes: kept } : r)) : results.incomplete.filter((r) => r !== rule),
  };
}

/**
 * axe-core with WCAG 2.0/2.1/2.2 A/AA tags, the best-practice rules with a documented WCAG failure,
 * plus the service's rules registered into the same pass, run inside the page.
 */
export const axeEngine: ScanEngine = {
  id: 'axe',
  stage: 'AxeChecks',
  async run({ page }: PageSession): Promise<EngineResult> {
    // Background images that paint nothing (they fail to load) are away while axe runs: no pixel
    // changes, and axe no longer gives up on the contrast of every text they hold.
    const results = await withoutBrokenImages(page, () =>
      runAxe(page, {
        ...axeRuleSelection(),
        // Passes are only read for their rule ids: one node each is enough, and far less to copy.
        resultTypes: ['violations', 'incomplete'],
      }),
    );
    const judged = await withHeadersOverNothing(page, { violations: results.violations as AxeRuleResult[], incomplete: results.incomplete as AxeRuleResult[] });
    const violations = await withoutInertRefresh(page, await withoutInert(page, judged.violations));
    const findings = axeDrafts(violations, judged.incomplete);
    return { findings, passes: passedRules(results.passes as AxeRuleResult[], results.passCounts) };
  },
};
