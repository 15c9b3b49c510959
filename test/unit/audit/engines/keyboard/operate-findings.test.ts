import { describe, expect, it } from 'vitest';
import { activationFinding, changeOnInputFinding, dialogEscapeFinding, dialogFocusFinding, dialogTriggerFinding, effectWords, hoverOnlyFinding } from '../../../../../src/audit/engines/keyboard/checks.ts';
import type { DialogProbe } from '../../../../../src/audit/engines/keyboard/dialogs.ts';
import { contextChanged, somethingHappened, type Effects } from '../../../../../src/audit/engines/keyboard/effects.ts';

const none: Effects = { mutations: 0, clicked: false, submitted: false, opened: 0, addressChanged: false, focusMoved: false, navigations: 0, dialogs: 0 };
const d = { selector: '#x', html: '<div id="x">' };

describe('effects', () => {
  it('tells a change of context from any change', () => {
    expect(somethingHappened(none)).toBe(false);
    expect(somethingHappened({ ...none, mutations: 3 })).toBe(true);
    expect(contextChanged({ ...none, mutations: 3, focusMoved: true })).toBe(false);
    expect(contextChanged({ ...none, navigations: 1 })).toBe(true);
    expect(contextChanged({ ...none, submitted: true })).toBe(true);
    expect(contextChanged({ ...none, opened: 1 })).toBe(true);
    expect(effectWords({ ...none, submitted: true, mutations: 1 })).toEqual(['a form was sent', 'the page changed']);
  });
});

describe('keyboard-activation', () => {
  it('confirms a control no key activates while a click does something', () => {
    const f = activationFinding({ id: 1, role: 'button', space: false, enter: false, click: { ...none, mutations: 2 } }, d);
    expect(f).toMatchObject({ ruleId: 'keyboard-activation', type: 'confirmed', wcagCriterion: '2.1.1' });
    expect(activationFinding({ id: 1, role: 'link', space: null, enter: false, click: { ...none, navigations: 1 } }, d)).toMatchObject({ type: 'confirmed' });
  });

  it('asks for review of a button Enter activates and Space does not', () => {
    expect(activationFinding({ id: 1, role: 'button', space: false, enter: true, click: null }, d)).toMatchObject({ type: 'needs_review', data: { review: { reason: expect.any(String) } } });
  });

  it('says nothing when a key works, when a click does nothing either, or for a link without Space', () => {
    expect(activationFinding({ id: 1, role: 'button', space: true, enter: false, click: null }, d)).toBeNull();
    expect(activationFinding({ id: 1, role: 'button', space: false, enter: false, click: none }, d)).toBeNull();
    expect(activationFinding({ id: 1, role: 'link', space: null, enter: true, click: null }, d)).toBeNull();
    expect(activationFinding({ id: 1, role: 'button', space: false, enter: false, click: { ...none, mutations: 1 } }, null)).toBeNull();
  });
});

describe('dialog findings', () => {
  const base: DialogProbe = { trigger: 1, dialog: 2, modal: true, openedBy: 'Enter', focusAfterOpen: 'inside', tabReaches: null, tabLeaves: false, escapeCloses: true, leftOpen: false };

  it('passes a dialog focus moves into, stays in and Escape closes', () => {
    expect(dialogFocusFinding(base, d)).toBeNull();
    expect(dialogEscapeFinding(base, d, 0)).toBeNull();
    expect(dialogTriggerFinding(base, d)).toBeNull();
  });

  it('passes a dialog focus did not move into but that Tab reaches next (F85: adjacent in the focus order)', () => {
    expect(dialogFocusFinding({ ...base, focusAfterOpen: 'outside', tabReaches: true }, d)).toBeNull();
  });

  it('asks for review when focus stays outside, or Tab leaves a modal dialog', () => {
    expect(dialogFocusFinding({ ...base, focusAfterOpen: 'outside', tabReaches: false }, d)).toMatchObject({ ruleId: 'dialog-focus', type: 'needs_review', wcagCriterion: '2.4.3' });
    expect(dialogFocusFinding({ ...base, tabLeaves: true }, d)).toMatchObject({ data: { tabLeaves: true } });
  });

  it('asks for review of a modal dialog Escape does not close, not of a non-modal one', () => {
    expect(dialogEscapeFinding({ ...base, escapeCloses: false }, d, 1)).toMatchObject({ ruleId: 'dialog-escape', type: 'needs_review', data: { unreachableInside: 1 } });
    expect(dialogEscapeFinding({ ...base, modal: false, escapeCloses: false }, d, 0)).toBeNull();
  });

  it('confirms a trigger that opens its dialog on a click only', () => {
    expect(dialogTriggerFinding({ ...base, openedBy: 'click' }, d)).toMatchObject({ ruleId: 'keyboard-activation', type: 'confirmed' });
  });
});

describe('hover-only and change-on-input', () => {
  it('always asks for review, saying what appeared', () => {
    expect(hoverOnlyFinding({ id: 1, source: 'li:hover > ul', controls: true, text: 'Phones', focusable: true }, d)).toMatchObject({ ruleId: 'hover-only', type: 'needs_review', wcagCriterion: '2.1.1', failureSummary: expect.stringContaining('links or controls') });
    expect(hoverOnlyFinding({ id: 1, source: 'a mouseover listener', controls: false, text: 'VAT', focusable: false }, d)?.failureSummary).toContain('keyboard focus cannot reach');
    const c = changeOnInputFinding({ id: 1, kind: 'select', key: 'ArrowDown', effects: { ...none, navigations: 1, mutations: 4 } }, d);
    expect(c).toMatchObject({ ruleId: 'change-on-input', type: 'needs_review', wcagCriterion: '3.2.2', data: { effects: ['the page tried to load another page'] } });
  });
});
