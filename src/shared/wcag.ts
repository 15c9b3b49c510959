import type { WcagLevel } from './contracts.ts';

export interface SuccessCriterion {
  readonly id: string;
  readonly title: string;
  readonly level: WcagLevel;
}

/**
 * The WCAG 2.2 success criteria of levels A and AA. 4.1.1 Parsing is absent on purpose:
 * WCAG 2.2 removed it, so rules tagged only with it are not reported.
 */
export const WCAG22_A_AA: readonly SuccessCriterion[] = [
  ['1.1.1', 'Non-text Content', 'A'],
  ['1.2.1', 'Audio-only and Video-only (Prerecorded)', 'A'],
  ['1.2.2', 'Captions (Prerecorded)', 'A'],
  ['1.2.3', 'Audio Description or Media Alternative (Prerecorded)', 'A'],
  ['1.2.4', 'Captions (Live)', 'AA'],
  ['1.2.5', 'Audio Description (Prerecorded)', 'AA'],
  ['1.3.1', 'Info and Relationships', 'A'],
  ['1.3.2', 'Meaningful Sequence', 'A'],
  ['1.3.3', 'Sensory Characteristics', 'A'],
  ['1.3.4', 'Orientation', 'AA'],
  ['1.3.5', 'Identify Input Purpose', 'AA'],
  ['1.4.1', 'Use of Color', 'A'],
  ['1.4.2', 'Audio Control', 'A'],
  ['1.4.3', 'Contrast (Minimum)', 'AA'],
  ['1.4.4', 'Resize Text', 'AA'],
  ['1.4.5', 'Images of Text', 'AA'],
  ['1.4.10', 'Reflow', 'AA'],
  ['1.4.11', 'Non-text Contrast', 'AA'],
  ['1.4.12', 'Text Spacing', 'AA'],
  ['1.4.13', 'Content on Hover or Focus', 'AA'],
  ['2.1.1', 'Keyboard', 'A'],
  ['2.1.2', 'No Keyboard Trap', 'A'],
  ['2.1.4', 'Character Key Shortcuts', 'A'],
  ['2.2.1', 'Timing Adjustable', 'A'],
  ['2.2.2', 'Pause, Stop, Hide', 'A'],
  ['2.3.1', 'Three Flashes or Below Threshold', 'A'],
  ['2.4.1', 'Bypass Blocks', 'A'],
  ['2.4.2', 'Page Titled', 'A'],
  ['2.4.3', 'Focus Order', 'A'],
  ['2.4.4', 'Link Purpose (In Context)', 'A'],
  ['2.4.5', 'Multiple Ways', 'AA'],
  ['2.4.6', 'Headings and Labels', 'AA'],
  ['2.4.7', 'Focus Visible', 'AA'],
  ['2.4.11', 'Focus Not Obscured (Minimum)', 'AA'],
  ['2.5.1', 'Pointer Gestures', 'A'],
  ['2.5.2', 'Pointer Cancellation', 'A'],
  ['2.5.3', 'Label in Name', 'A'],
  ['2.5.4', 'Motion Actuation', 'A'],
  ['2.5.7', 'Dragging Movements', 'AA'],
  ['2.5.8', 'Target Size (Minimum)', 'AA'],
  ['3.1.1', 'Language of Page', 'A'],
  ['3.1.2', 'Language of Parts', 'AA'],
  ['3.2.1', 'On Focus', 'A'],
  ['3.2.2', 'On Input', 'A'],
  ['3.2.3', 'Consistent Navigation', 'AA'],
  ['3.2.4', 'Consistent Identification', 'AA'],
  ['3.2.6', 'Consistent Help', 'A'],
  ['3.3.1', 'Error Identification', 'A'],
  ['3.3.2', 'Labels or Instructions', 'A'],
  ['3.3.3', 'Error Suggestion', 'AA'],
  ['3.3.4', 'Error Prevention (Legal, Financial, Data)', 'AA'],
  ['3.3.7', 'Redundant Entry', 'A'],
  ['3.3.8', 'Accessible Authentication (Minimum)', 'AA'],
  ['4.1.2', 'Name, Role, Value', 'A'],
  ['4.1.3', 'Status Messages', 'AA'],
].map(([id, title, level]) => Object.freeze({ id, title, level }) as SuccessCriterion);

const byId = new Map(WCAG22_A_AA.map((sc) => [sc.id, sc]));

export function successCriterion(id: string): SuccessCriterion | undefined {
  return byId.get(id);
}

/** axe tags that select every rule mapped to a WCAG 2.0, 2.1 or 2.2 A or AA criterion. */
export const AXE_WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'] as const;

/**
 * Turns an axe criterion tag into a criterion number: `wcag111` -> `1.1.1`, `wcag1411` -> `1.4.11`.
 * Principles and guidelines have one digit each, so the rest is the criterion's own number.
 */
export function criterionFromTag(tag: string): string | undefined {
  const m = /^wcag(\d)(\d)(\d{1,2})$/.exec(tag);
  return m ? `${m[1]}.${m[2]}.${Number(m[3])}` : undefined;
}

/** Every WCAG 2.2 A/AA criterion of a rule's tags, in the rule's own order, each once. */
export function criteriaForTags(tags: readonly string[]): string[] {
  return wcagCriteria(tags.map((t) => criterionFromTag(t)).filter((c): c is string => c !== undefined));
}

/**
 * A finding's criteria: the given ones in order, each once, WCAG 2.2 A/AA only (AAA
 * criteria and 4.1.1 Parsing drop out). The first is the primary, the one it is reported under.
 */
export function wcagCriteria(ids: Iterable<string>): string[] {
  const out: string[] = [];
  for (const id of ids) if (byId.has(id) && !out.includes(id)) out.push(id);
  return out;
}

/** The lowest level among criteria: `A` if any is an A criterion, else `AA` (undefined for none). */
export function lowestLevel(ids: Iterable<string>): WcagLevel | undefined {
  let level: WcagLevel | undefined;
  for (const id of ids) {
    const sc = byId.get(id);
    if (sc?.level === 'A') return 'A';
    if (sc) level = sc.level;
  }
  return level;
}

/** The criteria of a level, for the `wcagLevel` filter: an issue matches when any of its criteria is one. */
export function criteriaOfLevel(level: WcagLevel): string[] {
  return WCAG22_A_AA.filter((sc) => sc.level === level).map((sc) => sc.id);
}

/**
 * The WCAG 2.2 A/AA criterion a rule is reported under: the first criterion tag, in the rule's
 * own order, that names an A or AA criterion of WCAG 2.2. Undefined means: not an issue.
 */
export function criterionForTags(tags: readonly string[]): SuccessCriterion | undefined {
  for (const tag of tags) {
    const id = criterionFromTag(tag);
    const sc = id ? byId.get(id) : undefined;
    if (sc) return sc;
  }
  return undefined;
}
