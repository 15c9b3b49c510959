import type { FindingDraft } from '../../../shared/findings.ts';
import { KEYBOARD_RULES } from '../../../shared/rules/keyboard.ts';
import { ownFinding, understandingUrl } from '../engine.ts';
import { focusVerdict, type FocusVerdict } from './focus-visible.ts';
import { mentionsKeys, trapOutcome } from './focus-walk.ts';
import type { FakeControl, FocusMeasure, LoopFacts } from './page-facts.ts';

/**
 * The keyboard engine's findings, from what the probe saw: no browser here. Whether focus is
 * visible is decided by focus-visible.ts, whether a trap is certain by focus-walk.ts; these put
 * the verdicts into findings with the facts that explain them.
 */

// ---- 2.1.2 ---------------------------------------------------------------------------------------

/** A loop focus could not leave with any key tried. */
export interface Trap {
  /** The elements of the loop, in ascending order of their ids. */
  members: number[];
  /** The standard keys tried (Tab, Shift+Tab, Escape then Tab). */
  tried: string[];
  /** The keys the page names, all tried too. */
  hints: string[];
  /** The element, an ancestor, the document or the window listens to key events. */
  keyListeners: boolean;
}

/** The finding for a loop focus cannot leave; null when its elements are gone. */
export function trapFinding(trap: Trap, facts: LoopFacts): FindingDraft | null {
  const { members, keyListeners } = trap;
  const mentions = mentionsKeys(facts.text);
  const type = trapOutcome({ members: members.length, textEntry: facts.textEntry, keyListeners, mentionsKeys: mentions });
  const d = facts.described[facts.firstIndex] ?? facts.described[0];
  if (!d) return null;
  const others = facts.described.filter((x) => x !== d).map((x) => x.selector);
  const tried = [...trap.tried, ...trap.hints.map((h) => `${h} (named on the page)`)];
  return ownFinding({
    ruleId: KEYBOARD_RULES.trap,
    type,
    severity: 'critical',
    criterion: '2.1.2',
    selector: d.selector,
    html: d.html,
    help: 'Let keyboard focus move away from every element',
    description: 'Keyboard focus that reaches an element must be able to leave it with the keyboard: Tab or Shift+Tab, or another key the page tells users about.',
    failureSummary:
      members.length === 1
        ? `Focus stays on this element: after pressing ${tried.join(', ')}, focus came back to it each time.`
        : `Focus goes round ${members.length} elements (this one and ${others.slice(0, 3).join(', ')}) and never reaches the rest of the page: tried ${tried.join(', ')}.` +
          ' A modal dialog may keep focus inside while it is open; check that it can be closed from the keyboard.',
    helpUrl: understandingUrl('no-keyboard-trap'),
    data: {
      loop: members.length,
      others: others.slice(0, 5),
      keysTried: tried,
      keyListeners,
      ...(mentions ? { pageMentionsKeys: true } : {}),
      ...(facts.textEntry ? { textEntry: true } : {}),
    },
  });
}

// ---- 2.4.7 ---------------------------------------------------------------------------------------

export type FocusFailure = FocusMeasure & { verdict: Exclude<FocusVerdict, 'visible'> };

/** The measured elements whose focus cannot be seen (or could not be shown to be). */
export function focusFailures(measured: readonly FocusMeasure[]): FocusFailure[] {
  return measured.map((o) => ({ ...o, verdict: focusVerdict(o.look) })).filter((o): o is FocusFailure => o.verdict !== 'visible');
}

/**
 * One finding per failure that is still described (`described[i]` for `failing[i]`); `pixelCap`:
 * how many elements were compared in screenshots.
 */
export function focusVisibleFindings(failing: readonly FocusFailure[], described: ReadonlyArray<{ selector: string; html: string } | null>, pixelCap: number): FindingDraft[] {
  const findings: FindingDraft[] = [];
  failing.forEach((f, i) => {
    const d = described[i];
    if (!d) return;
    const L = f.look;
    const why =
      f.verdict === 'confirmed'
        ? 'Nothing on screen changes when this element receives keyboard focus: its styles are the same, and screenshots of its box and of the whole viewport are identical focused and not focused.'
        : L.boxChanged === null || L.viewportChanged === null
          ? `This element's styles (and its parent's) are the same focused and not focused; it was not compared in screenshots (only the first ${pixelCap} such elements are).`
          : !L.onScreen
            ? 'This element is not visible on screen when it has keyboard focus (off screen, transparent or without size), and nothing else changes.'
            : L.textEntry
              ? 'Nothing changes when this field receives focus apart from the text cursor, which may be the only sign of focus.'
              : 'Nothing changes around this element when it receives focus; the page animates by itself, so a change elsewhere could not be ruled out.';
    findings.push(
      ownFinding({
        ruleId: KEYBOARD_RULES.focusVisible,
        type: f.verdict === 'confirmed' ? 'confirmed' : 'needs_review',
        severity: 'serious',
        criterion: '2.4.7',
        selector: d.selector,
        html: d.html,
        help: 'Show where keyboard focus is',
        description: 'Every element that keyboard focus reaches must show a visible focus indicator (an outline, border, underline, colour or other visible change).',
        failureSummary: why,
        helpUrl: understandingUrl('focus-visible'),
        data: { ...(f.rect ? { width: f.rect.w, height: f.rect.h } : {}), pixelChecked: L.viewportChanged !== null || L.boxChanged !== null, ...(L.pageAnimates ? { pageAnimates: true } : {}) },
      }),
    );
  });
  return findings;
}

// ---- 2.1.1 ---------------------------------------------------------------------------------------

/** The finding for an element that looks clickable and that Tab cannot reach (always needs review). */
export function notFocusableFinding(f: FakeControl): FindingDraft {
  return ownFinding({
    ruleId: KEYBOARD_RULES.notFocusable,
    type: 'needs_review',
    severity: 'serious',
    criterion: '2.1.1',
    selector: f.selector,
    html: f.html,
    help: 'Make controls reachable with the keyboard',
    description: 'Everything that can be done with a mouse must be possible with the keyboard; a clickable element that Tab never reaches cannot be used without a mouse.',
    failureSummary: `This element${f.text ? ` ("${f.text}")` : ''} looks clickable (${f.evidence.join(', ')}) but keyboard focus cannot reach it: it is not a link, button or form field and has no tabindex. Check whether it does something when clicked.`,
    helpUrl: understandingUrl('keyboard'),
    data: { evidence: f.evidence },
  });
}
