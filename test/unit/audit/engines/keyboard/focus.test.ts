import { describe, expect, it } from 'vitest';
import { focusVerdict, type FocusLook } from '../../../../../src/audit/engines/keyboard/focus-visible.ts';
import { analyseWalk, EXIT_CONTROL_NAME, judgeProbe, keyHints, MAX_LOOP, mentionsKeys, SAME_ELEMENT_PRESSES, trailingCycle, trapOutcome, type FocusPos } from '../../../../../src/audit/engines/keyboard/focus-walk.ts';

const times = <T>(n: number, x: T): T[] => Array.from({ length: n }, () => x);

describe('trailingCycle', () => {
  it('finds focus staying on one element only after many presses (parts of a date field are not a loop)', () => {
    expect(trailingCycle([1, 1, 1])).toBeNull();
    expect(trailingCycle(times(SAME_ELEMENT_PRESSES, 4))).toEqual({ period: 1, members: [4] });
  });

  it('finds a loop of a few elements going round three times', () => {
    expect(trailingCycle([0, 1, 2, 1, 2, 1, 2])).toEqual({ period: 2, members: [1, 2] });
    expect(trailingCycle([3, 5, 7, 3, 5, 7, 3, 5, 7])).toEqual({ period: 3, members: [3, 5, 7] });
    expect(trailingCycle([1, 2, 1, 2])).toBeNull();
  });

  it('finds a loop of up to MAX_LOOP elements going round twice (a form whose last field sends focus back to its first)', () => {
    const round = [10, 11, 12, 13, 14, 15];
    expect(trailingCycle([0, ...round, ...round])).toEqual({ period: 6, members: round });
    expect(trailingCycle([0, ...round, 10, 11])).toBeNull();
    const long = Array.from({ length: MAX_LOOP }, (_, i) => i + 1);
    expect(trailingCycle([...long, ...long])?.period).toBe(MAX_LOOP);
    const tooLong = Array.from({ length: MAX_LOOP + 1 }, (_, i) => i + 1);
    expect(trailingCycle([...tooLong, ...tooLong])).toBeNull();
  });

  it('never loops through the page or an opaque frame', () => {
    expect(trailingCycle([1, 'page', 1, 'page', 1, 'page'])).toBeNull();
    expect(trailingCycle(times(10, 'opaque' as FocusPos))).toBeNull();
  });
});

describe('analyseWalk', () => {
  it('reads a normal round: every element once, then the page', () => {
    expect(analyseWalk([0, 1, 2, 'page', 0])).toEqual({ order: [0, 1, 2], completed: true, revisited: [], stuck: false });
  });

  it('flags elements focus comes back to before the round is over', () => {
    const a = analyseWalk([0, 1, 2, 1, 2, 1, 2]);
    expect(a.completed).toBe(false);
    expect(a.revisited).toEqual([1, 2]);
    expect(a.stuck).toBe(true);
  });

  it('lets an element keep focus for a few presses (a date field) but not for many', () => {
    expect(analyseWalk([0, 5, 5, 5, 6, 'page']).revisited).toEqual([]);
    const held = analyseWalk([0, ...times(SAME_ELEMENT_PRESSES, 5)]);
    expect(held.revisited).toEqual([5]);
    expect(held.stuck).toBe(true);
  });

  it('skips presses inside frames it cannot see and the page before the first element', () => {
    expect(analyseWalk(['page', 0, 'opaque', 'opaque', 1, 'page'])).toEqual({ order: [0, 1], completed: true, revisited: [], stuck: false });
  });
});

describe('judgeProbe', () => {
  const all = new Set([0, 1, 2, 3]);
  it('escapes when focus reaches the page or keeps moving', () => {
    expect(judgeProbe([2, 3, 'page'], all).escaped).toBe(true);
    expect(judgeProbe([1, 2, 3], all).escaped).toBe(true);
  });

  it('is trapped in a loop that leaves out other elements', () => {
    expect(judgeProbe([1, 2, 1, 2, 1, 2], all)).toEqual({ escaped: false, cycle: { period: 2, members: [1, 2] } });
    expect(judgeProbe(times(SAME_ELEMENT_PRESSES, 1), all).escaped).toBe(false);
  });

  it('is not trapped when the loop is the whole page (Shift+Tab going round a small page)', () => {
    expect(judgeProbe([1, 0, 1, 0, 1, 0], new Set([0, 1])).escaped).toBe(true);
  });
});

describe('keys a page names', () => {
  it('reads modifier combinations, single keys and Escape', () => {
    expect(keyHints('Press Ctrl+M to exit')).toEqual(['Control+KeyM']);
    expect(keyHints('Press the M-key to Exit')).toEqual(['KeyM']);
    expect(keyHints('Use Ctrl + Shift + F to leave, or press Esc.')).toEqual(['Control+Shift+KeyF', 'Escape']);
    expect(keyHints('Press Alt-F1 for help')).toEqual(['Alt+F1']);
    expect(keyHints('Go to the next element')).toEqual([]);
  });

  it('tells text about keys from text that is not', () => {
    expect(mentionsKeys('Press Ctrl+M to Exit')).toBe(true);
    expect(mentionsKeys('If you are using a keyboard you will not get to the second link. The keydown event opens a window.')).toBe(false);
    expect(mentionsKeys('Go to the next element')).toBe(false);
  });
});

describe('trapOutcome', () => {
  const base = { members: 1, textEntry: false, keyListeners: false, mentionsKeys: false };
  it('confirms focus held on one element with no other key that could free it', () => {
    expect(trapOutcome(base)).toBe('confirmed');
    expect(trapOutcome({ ...base, keyListeners: true })).toBe('confirmed');
    expect(trapOutcome({ ...base, mentionsKeys: true })).toBe('confirmed');
  });

  it('asks for review where a named key, an editor or a dialog may explain it', () => {
    expect(trapOutcome({ ...base, keyListeners: true, mentionsKeys: true })).toBe('needs_review');
    expect(trapOutcome({ ...base, textEntry: true })).toBe('needs_review');
    expect(trapOutcome({ ...base, members: 2 })).toBe('needs_review');
    expect(trapOutcome({ ...base, members: 2, inDialog: true, exitControl: false, cutsOff: true })).toBe('needs_review');
    expect(trapOutcome({ ...base, members: 3, inDialog: false, exitControl: true, cutsOff: true })).toBe('needs_review');
    expect(trapOutcome({ ...base, members: 2, inDialog: false, exitControl: false, cutsOff: true, keyListeners: true, mentionsKeys: true })).toBe('needs_review');
  });

  it('confirms a loop of several elements outside any dialog with no control that may lead out (F10)', () => {
    const loop = { ...base, members: 2, inDialog: false, exitControl: false, cutsOff: true };
    expect(trapOutcome(loop)).toBe('confirmed');
    expect(trapOutcome({ ...loop, keyListeners: true })).toBe('confirmed');
    expect(trapOutcome({ ...loop, cutsOff: false })).toBe('needs_review');
  });
});

describe('EXIT_CONTROL_NAME', () => {
  it('recognises names of controls that may lead out of a loop or say how', () => {
    for (const name of ['Close', 'Exit the gallery', 'How to go the next element', 'Help', '\u00d7', 'Cancel']) expect(EXIT_CONTROL_NAME.test(name), name).toBe(true);
    for (const name of ['Button 1', 'Link 2', 'Next photo', 'Extra']) expect(EXIT_CONTROL_NAME.test(name), name).toBe(false);
  });
});

describe('focusVerdict', () => {
  const nothing: FocusLook = { styleChanged: false, animates: false, boxChanged: false, viewportChanged: false, pageAnimates: false, onScreen: true, textEntry: false };
  it('is visible when styles, the box or the viewport change', () => {
    expect(focusVerdict({ ...nothing, styleChanged: true })).toBe('visible');
    expect(focusVerdict({ ...nothing, animates: true })).toBe('visible');
    expect(focusVerdict({ ...nothing, boxChanged: true })).toBe('visible');
    expect(focusVerdict({ ...nothing, viewportChanged: true })).toBe('visible');
  });

  it('confirms only when nothing changes for an element on screen', () => {
    expect(focusVerdict(nothing)).toBe('confirmed');
    expect(focusVerdict({ ...nothing, onScreen: false })).toBe('needs_review');
    expect(focusVerdict({ ...nothing, textEntry: true })).toBe('needs_review');
    expect(focusVerdict({ ...nothing, boxChanged: null, viewportChanged: null })).toBe('needs_review');
    expect(focusVerdict({ ...nothing, viewportChanged: true, pageAnimates: true })).toBe('needs_review');
  });
});
