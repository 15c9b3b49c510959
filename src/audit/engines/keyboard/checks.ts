import type { FindingDraft } from '../../../shared/findings.ts';
import { KEYBOARD_RULES } from '../../../shared/rules/keyboard.ts';
import { ownFinding, understandingUrl } from '../engine.ts';
import { focusVerdict, type FocusVerdict } from './focus-visible.ts';
import { mentionsKeys, trapOutcome } from './focus-walk.ts';
import type { FakeControl, FocusMeasure, LoopFacts } from './page-facts.ts';
import type { Effects } from './effects.ts';
import type { DialogProbe } from './dialogs.ts';
import type { Activation, ChoiceChange } from './operate.ts';
import type { HoverOnly } from './hover.ts';

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
  const type = trapOutcome({ members: members.length, textEntry: facts.textEntry, keyListeners, mentionsKeys: mentions, inDialog: facts.inDialog, exitControl: facts.exitControl, cutsOff: facts.cutsOff });
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

/**
 * The finding for an element that looks clickable and that Tab cannot reach: `confirmed` for a
 * mouse-only control (`sole`: its own click listener and a pointer cursor, text no keyboard-reachable
 * link or button bears; F42, F54), else needs review. Inside a dialog always needs review: Escape
 * may do what its close "×" does.
 */
export function notFocusableFinding(f: FakeControl, inDialog = false): FindingDraft {
  const decided = !!f.sole && !inDialog;
  return ownFinding({
    ruleId: KEYBOARD_RULES.notFocusable,
    type: decided ? 'confirmed' : 'needs_review',
    severity: 'serious',
    criterion: '2.1.1',
    selector: f.selector,
    html: f.html,
    help: 'Make controls reachable with the keyboard',
    description: 'Everything that can be done with a mouse must be possible with the keyboard; a clickable element that Tab never reaches cannot be used without a mouse.',
    failureSummary:
      `This element${f.text ? ` ("${f.text}")` : ''} looks clickable (${f.evidence.join(', ')}) but keyboard focus cannot reach it: it is not a link, button or form field and has no tabindex.` +
      (inDialog ? ' It is inside a dialog the page opens (a close button that only the mouse can use?).' : '') +
      (decided
        ? ' A script listens to its clicks and it shows a pointer, and no link or button Tab reaches says the same: only a mouse can use it. Make it a <button> (or a link, if it goes somewhere).'
        : ' Check whether it does something when clicked.'),
    helpUrl: understandingUrl('keyboard'),
    data: { evidence: f.evidence, ...(inDialog ? { inDialog: true } : {}) },
  });
}

/**
 * An element in the tab order that says nothing of what it is (4.1.2): `confirmed` when a script
 * listens to its clicks, a control made of a div or span without a role (F59); else needs review
 * (focus lands on it, and nothing tells what it is or does).
 */
export function focusableNoRoleFinding(f: FakeControl): FindingDraft {
  const listens = !!f.roleless?.listens;
  return ownFinding({
    ruleId: KEYBOARD_RULES.focusableNoRole,
    type: listens ? 'confirmed' : 'needs_review',
    severity: listens ? 'serious' : 'moderate',
    criterion: '4.1.2',
    selector: f.selector,
    html: f.html,
    help: 'Give focusable controls a role',
    description: 'An element in the tab order is announced by its role; a div or span made focusable has none, so nobody can tell it is a control or what it does (F59).',
    failureSummary:
      `This element${f.text ? ` ("${f.text}")` : ''} is in the tab order (${f.evidence.join(', ')}) but has no role.` +
      (listens
        ? ' A script listens to its clicks, so it is a control: make it a <button> (or a link), or give it role="button".'
        : ' Check what it is for: give a control a role (or use a <button>), or remove the tabindex from what is not one.'),
    helpUrl: understandingUrl('name-role-value'),
    data: { evidence: f.evidence, ...(listens ? {} : { review: { reason: 'Focusable with no role and no click listener found: it may be a control whose script listens elsewhere, or need no focus at all.' } }) },
  });
}

// ---- operating controls (2.1.1, 2.4.3, 3.2.2) ----------------------------------------------------

/** How an element is named in a finding (`describeIds`' answer). */
export type Described = { selector: string; html: string };

/** What a click, a key or a change did, in words. */
export function effectWords(e: Effects): string[] {
  const out: string[] = [];
  if (e.navigations > 0) out.push('the page tried to load another page');
  if (e.submitted) out.push('a form was sent');
  if (e.opened > 0) out.push('a new window was opened');
  if (e.dialogs > 0) out.push('a message box was shown');
  if (e.addressChanged) out.push('the address changed');
  if (e.clicked) out.push('its click handler ran');
  if (e.mutations > 0) out.push('the page changed');
  if (e.focusMoved) out.push('focus moved');
  return out;
}

/**
 * A custom button or link the keys do not activate: `confirmed` when neither key did anything
 * while a click did (the control cannot be used from the keyboard); `needs_review` for a button
 * that takes Enter but not Space (ARIA's button takes both; Enter alone may be judged enough
 * for 2.1.1). Null when it works.
 */
export function activationFinding(a: Activation, d: Described | null): FindingDraft | null {
  if (!d) return null;
  const clickDid = a.click ? effectWords(a.click) : [];
  const name = a.role === 'button' ? 'button' : 'link';
  let type: 'confirmed' | 'needs_review';
  let why: string;
  if (!a.enter && clickDid.length > 0) {
    type = 'confirmed';
    why = `A click on this ${name} does something (${clickDid.join(', ')}), but ${a.role === 'button' ? 'neither Enter nor Space does' : 'Enter does not'} when it has keyboard focus: nothing changed on the page.`;
  } else if (a.role === 'button' && a.space === false && a.enter) {
    type = 'needs_review';
    why = 'Enter activates this button, Space does nothing: people using a keyboard expect Space to press a button too (and screen readers announce it as one).';
  } else {
    return null;
  }
  return ownFinding({
    ruleId: KEYBOARD_RULES.activation,
    type,
    severity: 'serious',
    criterion: '2.1.1',
    selector: d.selector,
    html: d.html,
    help: a.role === 'button' ? 'Let Enter and Space press custom buttons' : 'Let Enter follow custom links',
    description: 'A control made from another element with role="button" or role="link" must respond to the keys its role promises: Enter and Space for a button, Enter for a link.',
    failureSummary: why,
    helpUrl: understandingUrl('keyboard'),
    data: { role: a.role, space: a.space, enter: a.enter, ...(a.click ? { click: clickDid } : {}), ...(type === 'needs_review' ? { review: { reason: 'Space does nothing on a custom button that Enter activates' } } : {}) },
  });
}

/** A trigger that opens its dialog on a click only (Enter does nothing). */
export function dialogTriggerFinding(p: DialogProbe, d: Described | null): FindingDraft | null {
  if (!d || p.openedBy !== 'click') return null;
  return ownFinding({
    ruleId: KEYBOARD_RULES.activation,
    type: 'confirmed',
    severity: 'serious',
    criterion: '2.1.1',
    selector: d.selector,
    html: d.html,
    help: 'Let Enter open what a click opens',
    description: 'Everything that can be done with a mouse must be possible with the keyboard.',
    failureSummary: 'A click on this control opens a dialog; Enter, with keyboard focus on it, does nothing.',
    helpUrl: understandingUrl('keyboard'),
    data: { opens: 'dialog' },
  });
}

/** Focus not moved into a dialog (and Tab not reaching it next), or Tab leaving a modal one. */
export function dialogFocusFinding(p: DialogProbe, d: Described | null): FindingDraft | null {
  if (!d) return null;
  const reasons: string[] = [];
  if (p.focusAfterOpen !== 'inside' && p.tabReaches === false) reasons.push('When it opened, keyboard focus stayed outside it, and Tab does not move into it next (F85).');
  if (p.tabLeaves) reasons.push('While it is open, Tab moves focus out of it to the page behind it, which a modal dialog covers.');
  if (reasons.length === 0) return null;
  return ownFinding({
    ruleId: KEYBOARD_RULES.dialogFocus,
    type: 'needs_review',
    severity: 'serious',
    criterion: '2.4.3',
    selector: d.selector,
    html: d.html,
    help: 'Move focus into a dialog when it opens, and keep it inside while it is modal',
    description: 'When a dialog opens, keyboard focus must move into it (or reach it next), and a modal dialog must keep focus inside until it closes, so that the focus order follows what is on screen.',
    failureSummary: reasons.join(' '),
    helpUrl: understandingUrl('focus-order'),
    data: { modal: p.modal, openedBy: p.openedBy, focusAfterOpen: p.focusAfterOpen, ...(p.tabLeaves ? { tabLeaves: true } : {}), review: { reason: p.tabLeaves ? 'Tab leaves an open modal dialog' : 'focus not moved into a dialog that opened' } },
  });
}

/** A modal dialog Escape does not close. */
export function dialogEscapeFinding(p: DialogProbe, d: Described | null, unreachable: number): FindingDraft | null {
  if (!d || !p.modal || p.escapeCloses !== false) return null;
  return ownFinding({
    ruleId: KEYBOARD_RULES.dialogEscape,
    type: 'needs_review',
    severity: 'serious',
    criterion: '2.1.1',
    selector: d.selector,
    html: d.html,
    help: 'Close dialogs with Escape',
    description: 'A modal dialog must be possible to close from the keyboard; Escape is the key people expect to do it.',
    failureSummary:
      'Escape, pressed with focus inside this open dialog, did not close it.' +
      (unreachable > 0 ? ` It also holds ${unreachable} clickable element${unreachable > 1 ? 's' : ''} Tab cannot reach (a close button?).` : ' Check that a close button inside it can be reached and used with the keyboard.'),
    helpUrl: understandingUrl('keyboard'),
    data: { openedBy: p.openedBy, unreachableInside: unreachable, review: { reason: 'Escape does not close a modal dialog' } },
  });
}

/** A choice whose change by the keyboard sent a form, navigated or opened a window. */
export function changeOnInputFinding(c: ChoiceChange, d: Described | null): FindingDraft | null {
  if (!d) return null;
  const what = effectWords({ ...c.effects, mutations: 0, focusMoved: false, clicked: false });
  const kind = c.kind === 'select' ? 'select list' : c.kind === 'radio' ? 'radio button' : 'check box';
  return ownFinding({
    ruleId: KEYBOARD_RULES.changeOnInput,
    type: 'needs_review',
    severity: 'serious',
    criterion: '3.2.2',
    selector: d.selector,
    html: d.html,
    help: 'Do not change the context when a field changes',
    description: 'Changing the value of a field must not send a form, load another page or open a window, unless the user has been told before (F36, F37).',
    failureSummary: `Pressing ${c.key === 'Space' ? 'Space' : c.key} on this ${kind} changed its value, and then ${what.join(' and ')} (the scanner held the page where it was). Check whether the page says beforehand that this happens.`,
    helpUrl: understandingUrl('on-input'),
    data: { key: c.key, kind: c.kind, effects: what, review: { reason: 'a change of value changes the context; whether users are told beforehand needs a person' } },
  });
}

/** Content the mouse pointer shows and keyboard focus does not (F54). */
export function hoverOnlyFinding(h: HoverOnly, d: Described | null): FindingDraft | null {
  if (!d) return null;
  const shows = h.text ? ` ("${h.text}")` : '';
  const why = h.controls
    ? `Moving the mouse over this element shows links or controls${shows} that do not appear when it${h.focusable ? ' (or the first link or control inside it) receives keyboard focus, nor on Enter' : ' receives keyboard focus: it cannot receive it'}.`
    : h.focusable
      ? `Moving the mouse over this element shows text${shows} that does not appear when it receives keyboard focus.`
      : `Moving the mouse over this element shows text${shows} (a tooltip?), and keyboard focus cannot reach the element to show it.`;
  return ownFinding({
    ruleId: KEYBOARD_RULES.hoverOnly,
    type: 'needs_review',
    severity: 'serious',
    criterion: '2.1.1',
    selector: d.selector,
    html: d.html,
    help: 'Show with keyboard focus what the mouse pointer shows',
    description: 'Content and controls that appear when the mouse pointer is over an element must also be available from the keyboard (F54: functionality only on mouseover).',
    failureSummary: `${why} Check whether the same is reachable another way with the keyboard.`,
    helpUrl: understandingUrl('keyboard'),
    data: { source: h.source, controls: h.controls, focusable: h.focusable, review: { reason: h.controls ? 'a sub-menu or controls shown only on hover' : 'text shown only on hover' } },
  });
}

/** Tab order that jumps back and forth across what is shown (F1, F44). */
export function visualOrderFinding(kind: 'jump' | 'reversed', d: ReadonlyArray<Described | null>): FindingDraft | null {
  const [a, b, c] = d;
  if (!a || !b || !c) return null;
  return ownFinding({
    ruleId: KEYBOARD_RULES.visualOrder,
    type: 'needs_review',
    severity: 'moderate',
    criterion: '2.4.3',
    selector: b.selector,
    html: b.html,
    help: 'Make the focus order follow the order things are shown in',
    description: 'Keyboard focus must move through the page in an order that keeps its meaning and use: positioning with CSS that shows elements in another order than the source makes Tab jump across the page (F1, F44).',
    failureSummary:
      kind === 'jump'
        ? `Tab goes from ${a.selector} to this element and then to ${c.selector}, but this element is shown ${'before the first or after the last of them'}: focus jumps back and forth across what is on screen.`
        : `Tab goes from ${a.selector} to this element and then to ${c.selector}, which are shown in the reverse order, right to left.`,
    helpUrl: understandingUrl('focus-order'),
    data: { kind, before: a.selector, after: c.selector, review: { reason: 'the focus order differs from the visual order' } },
  });
}
