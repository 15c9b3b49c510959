/**
 * Pure parts of the keyboard check (WCAG 2.1.2 No Keyboard Trap): reading the positions keyboard
 * focus took after each key press, finding where it goes round in circles, and the keys a page
 * tells its users to press. No browser here: the engine records, these functions decide.
 */

/**
 * Where keyboard focus was after one key press, once the page's scripts had reacted: an
 * element (the engine's number for it), `'page'` when no element had focus (the document itself:
 * in a real browser, Tab past the last element moves on to the browser's own controls), or
 * `'opaque'` when focus was inside a frame the scanner cannot look into.
 */
export type FocusPos = number | 'page' | 'opaque';

export interface Cycle {
  /** How many presses one round takes. */
  period: number;
  /** The elements focus goes round, in the order it visits them. */
  members: number[];
}

/**
 * Presses in a row focus may stay on one element without anything being wrong: Tab moves
 * between the parts of a date and time field or of a video's controls while the element keeps
 * focus (a datetime field has six parts).
 */
export const SAME_ELEMENT_PRESSES = 8;

/**
 * The most elements a loop focus cannot leave may have. A script that sends focus from the last
 * field of a form back to its first makes a loop as long as the form: loops were once looked for
 * up to four elements only, and such a trap went unseen.
 */
export const MAX_LOOP = 16;
/** Loops longer than this need two rounds to count, not three (a round of many elements repeated is no chance). */
const SHORT_LOOP = 4;

/**
 * The loop focus ends in, if the last presses repeat with a period of at most `maxPeriod`
 * elements, at least `minRounds` times over for a short loop (so `[a, b, a, b, a, b]` is a loop
 * of two) and twice for a loop of more than four; focus staying on one element counts after
 * `sameElement` presses. Never a loop through the page itself or an opaque frame.
 */
export function trailingCycle(positions: readonly FocusPos[], opts: { maxPeriod?: number; minRounds?: number; sameElement?: number } = {}): Cycle | null {
  const maxPeriod = opts.maxPeriod ?? MAX_LOOP;
  const minRounds = opts.minRounds ?? 3;
  const sameElement = opts.sameElement ?? SAME_ELEMENT_PRESSES;
  for (let period = 1; period <= maxPeriod; period++) {
    const need = period === 1 ? sameElement : period * (period > SHORT_LOOP ? Math.min(2, minRounds) : minRounds);
    if (positions.length < need) continue;
    const tail = positions.slice(positions.length - need);
    if (tail.some((p) => typeof p !== 'number')) continue;
    let periodic = true;
    for (let i = period; i < tail.length; i++) {
      if (tail[i] !== tail[i - period]) {
        periodic = false;
        break;
      }
    }
    if (!periodic) continue;
    const members = tail.slice(tail.length - period) as number[];
    // The smallest period is found first, so the members of one round are all different.
    if (new Set(members).size !== members.length) continue;
    return { period, members };
  }
  return null;
}

export interface WalkAnalysis {
  /** Elements in the order Tab first reached them (up to the end of the first round). */
  order: number[];
  /** Tab went past the last element to the page itself: one full round of the page. */
  completed: boolean;
  /** Elements focus came back to before the round was over, or stayed on for many presses. */
  revisited: number[];
  /** The walk is stuck going round a few elements (or on one) and can stop. */
  stuck: boolean;
}

/**
 * Reads the positions of a fast Tab walk that started from the top of the page. An element
 * focus returns to before the round is over, or stays on for `longRun` presses in a row, is
 * suspect (an element like a date field keeps focus for a few presses while Tab moves between
 * its parts, so short runs are normal).
 */
export function analyseWalk(positions: readonly FocusPos[], opts: { longRun?: number } = {}): WalkAnalysis {
  const longRun = opts.longRun ?? SAME_ELEMENT_PRESSES - 1;
  const order: number[] = [];
  const seen = new Set<number>();
  const revisited = new Set<number>();
  let completed = false;
  let run = 0;
  for (let i = 0; i < positions.length; i++) {
    const p = positions[i]!;
    if (p === 'page') {
      if (order.length > 0) {
        completed = true;
        break;
      }
      continue;
    }
    if (p === 'opaque') {
      run = 0;
      continue;
    }
    const prev = positions[i - 1];
    run = prev === p ? run + 1 : 1;
    if (!seen.has(p)) {
      seen.add(p);
      order.push(p);
    } else if (prev !== p || run >= longRun) {
      revisited.add(p);
    }
  }
  const cycle = completed ? null : trailingCycle(positions);
  const stuck = !completed && (cycle !== null || run >= longRun + 1);
  return { order, completed, revisited: [...revisited], stuck };
}

export interface ProbeResult {
  /** Focus reached the page itself (the browser UI) or kept moving to new elements. */
  escaped: boolean;
  /** When not escaped: the elements focus went round. */
  cycle: Cycle | null;
}

/**
 * Decides one escape attempt: the positions after each press of the same key from a suspect
 * element. Focus is trapped when it never reaches the page itself and ends going round a loop
 * that leaves out other elements of the page's tab order (`tabbable`): a whole small page going
 * round with Shift+Tab is not a trap.
 */
export function judgeProbe(positions: readonly FocusPos[], tabbable: ReadonlySet<number>): ProbeResult {
  if (positions.some((p) => p === 'page' || p === 'opaque')) return { escaped: true, cycle: null };
  const cycle = trailingCycle(positions);
  if (!cycle) return { escaped: true, cycle: null };
  const inLoop = new Set(cycle.members);
  const leftOut = [...tabbable].some((id) => !inLoop.has(id));
  return leftOut ? { escaped: false, cycle } : { escaped: true, cycle: null };
}

// ---- keys the page tells its users to press ------------------------------------------------------

const MODIFIER: Record<string, string> = {
  ctrl: 'Control',
  control: 'Control',
  strg: 'Control',
  alt: 'Alt',
  option: 'Alt',
  shift: 'Shift',
  cmd: 'Meta',
  command: 'Meta',
  meta: 'Meta',
};

function keyName(raw: string): string | null {
  const k = raw.toLowerCase();
  if (/^[a-z]$/.test(k)) return `Key${k.toUpperCase()}`;
  if (/^[0-9]$/.test(k)) return `Digit${k}`;
  if (/^f([1-9]|1[0-2])$/.test(k)) return k.toUpperCase();
  if (k === 'esc' || k === 'escape') return 'Escape';
  if (k === 'enter' || k === 'return') return 'Enter';
  if (k === 'space' || k === 'spacebar') return 'Space';
  if (k === 'home') return 'Home';
  if (k === 'end') return 'End';
  return null;
}

/** Words that say a text is about keys to press. */
const KEY_WORDS = /\b(press(?:es|ing)?|hit|keys?|keystrokes?|shortcuts?|hot ?keys?|ctrl|control\s*[+-]|alt\s*[+-]|cmd\s*[+-]|esc|escape|f[1-9]|f1[0-2])\b/i;

/** Whether a text tells the reader to press some key (in English). */
export function mentionsKeys(text: string): boolean {
  return KEY_WORDS.test(text);
}

/**
 * The key combinations a text names, as Playwright key strings (`Control+KeyM`, `Escape`, `KeyM`),
 * e.g. from "Press Ctrl+M to exit" or "press the M-key". Tab and Shift+Tab are left out (the
 * standard keys are tried anyway); at most `max`.
 */
export function keyHints(text: string, max = 6): string[] {
  const out: string[] = [];
  const add = (k: string | null) => {
    if (k && !out.includes(k) && k !== 'Tab' && k !== 'Shift+Tab') out.push(k);
  };
  const mods = 'ctrl|control|strg|alt|option|shift|cmd|command|meta';
  const combo = new RegExp(`\\b(${mods})\\s*[+-]\\s*(?:(${mods})\\s*[+-]\\s*)?([a-z0-9]|f[1-9]|f1[0-2]|esc|escape|enter|return|space|home|end)\\b`, 'gi');
  for (const m of text.matchAll(combo)) {
    const key = keyName(m[3]!);
    if (!key) continue;
    const ms = [m[1], m[2]].filter(Boolean).map((x) => MODIFIER[x!.toLowerCase()]!);
    add([...new Set(ms), key].join('+'));
  }
  for (const m of text.matchAll(/\b(?:the\s+)?["'\u201c\u2018]?([a-z0-9])["'\u201d\u2019]?[- ]key\b/gi)) add(keyName(m[1]!));
  for (const m of text.matchAll(/\bpress(?:ing)?\s+(?:the\s+)?["'\u201c\u2018]?([a-z0-9]|f[1-9]|f1[0-2]|esc|escape|enter|return|space|home|end)["'\u201d\u2019]?(?=[\s.,;:!)]|$)/gi)) {
    add(keyName(m[1]!));
  }
  if (/\b(esc|escape)\b/i.test(text)) add('Escape');
  return out.slice(0, max);
}

// ---- outcome -----------------------------------------------------------------------------------

export interface TrapFacts {
  /** Elements in the loop focus cannot leave (1: focus stays on one element). */
  members: number;
  /** The trapped element takes text (a text field, a text area, an editable region, an editor). */
  textEntry: boolean;
  /** The element, an ancestor, the document or the window listens to key events. */
  keyListeners: boolean;
  /** The page (or the element's own label and description) tells users about keys to press. */
  mentionsKeys: boolean;
  /** An element of the loop is inside a dialog (`role=dialog|alertdialog`, `aria-modal`, `<dialog>`). */
  inDialog?: boolean;
  /** An element of the loop is a way out or to help by its name: Close, Exit, Help, "How to…". */
  exitControl?: boolean;
  /** Tabbable elements both before and after the loop, which focus never reaches. */
  cutsOff?: boolean;
}

/** Names of controls that may lead out of a loop or say how: close, exit, help, instructions. */
export const EXIT_CONTROL_NAME = /\b(close|exit|leave|quit|dismiss|cancel|done|back|skip|help|how|instructions?)\b|^\s*[x\u00d7\u2715\u2716]\s*$/i;

/**
 * `confirmed` only when nothing can make it right: focus cannot leave whatever standard key is
 * pressed, no element of the loop is an editor (editors take Tab on purpose and name a way out),
 * and no other key can free it (no key listener at all), or the page names no key to try (keys it
 * names were tried and failed). A loop of several elements is `needs_review` when it may be a
 * modal dialog or offers a control that may lead out (Close, Help, "How to…"): WCAG allows a
 * dialog to keep focus while a keyboard way to close it exists. A loop outside any dialog that
 * keeps focus from elements both before and after it is the trap of failure F10; one at the
 * page's start or end may let focus out to the browser's own controls: `needs_review`.
 */
export function trapOutcome(f: TrapFacts): 'confirmed' | 'needs_review' {
  if (f.textEntry || (f.keyListeners && f.mentionsKeys)) return 'needs_review';
  if (f.members === 1) return 'confirmed';
  return f.inDialog === false && f.exitControl === false && f.cutsOff === true ? 'confirmed' : 'needs_review';
}
