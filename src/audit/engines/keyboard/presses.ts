import type { CDPSession, Page } from 'playwright';
import { analyseWalk, judgeProbe, MAX_LOOP, trailingCycle, type Cycle, type FocusPos } from './focus-walk.ts';
import { debug, probe } from './probe.ts';

/**
 * The keyboard engine's key presses: the Tab walks through the page (real presses, or the probe's
 * computed steps where no script listens to keys) and the attempts to leave a suspect element.
 * What the positions mean is decided in focus-walk.ts; the probe they read is in probe.ts.
 */

const BATCH = 20;
/** Presses per attempt to leave a suspect: two rounds of the longest loop looked for. */
const PROBE_PRESSES = 2 * MAX_LOOP + 2;

// ---- key presses ---------------------------------------------------------------------------------

const TAB = { key: 'Tab', code: 'Tab', windowsVirtualKeyCode: 9, nativeVirtualKeyCode: 9 };

/**
 * Presses Tab `n` times without waiting between presses (the key events are queued in order:
 * each still goes through the renderer's input handling and its default action moves focus).
 */
async function pressTabs(page: Page, cdp: CDPSession | null, n: number): Promise<void> {
  if (!cdp) {
    for (let i = 0; i < n; i++) await page.keyboard.press('Tab');
    return;
  }
  const sent: Promise<unknown>[] = [];
  for (let i = 0; i < n; i++) {
    sent.push(cdp.send('Input.dispatchKeyEvent', { type: 'rawKeyDown', ...TAB }));
    sent.push(cdp.send('Input.dispatchKeyEvent', { type: 'keyUp', ...TAB }));
  }
  await Promise.all(sent);
}

// ---- the Tab walk --------------------------------------------------------------------------------

/**
 * Real Tab presses, queued `BATCH` at a time, until the walk (`before` it included) has gone
 * round the page, is stuck, or `cap` presses were made; positions are read from the probe's log.
 */
export async function fastWalk(page: Page, cdp: CDPSession | null, cap: number, signal?: AbortSignal, before: readonly FocusPos[] = []): Promise<FocusPos[]> {
  const positions: FocusPos[] = [];
  let logged = await probe(page, (k) => k.logged());
  while (positions.length < cap && !signal?.aborted) {
    const n = Math.min(BATCH, cap - positions.length);
    await pressTabs(page, cdp, n);
    const { got, late } = await probe(page, (k, from: number) => ({ got: k.take(from), late: k.state().late }), logged);
    logged += got.length;
    positions.push(...got.slice(0, n));
    // Presses inside a frame the probe cannot see leave no record; so do presses whose keyup never
    // reached the page (a keydown handler that opens a window, as a trap may): where focus is on
    // an element of this document, that is where those presses left it.
    const now = got.length < n ? await probe(page, (k) => k.here()) : 'opaque';
    for (let i = got.length; i < n; i++) positions.push(now === 'page' ? 'opaque' : now);
    const a = analyseWalk([...before, ...positions]);
    if (a.completed || a.stuck) break;
    // Nothing to reach at all.
    if (positions.length >= 3 && positions.every((p) => p === 'page')) break;
    if (late > 0) break;
  }
  return positions;
}

/** Key listeners of the page, for `tabWalk`: the elements that have one, or `everywhere` (the window, the document, or too many elements to list). */
export interface KeyListeners {
  ids: readonly number[];
  everywhere: boolean;
}

export interface TabWalk {
  positions: FocusPos[];
  /** Tab presses sent through the browser's input pipeline. */
  pressed: number;
  /** Why real presses took over the rest of the walk, if they did. */
  why?: string;
}

/**
 * The Tab walk priced per element. A Tab press moves focus to the next element of the sequential
 * focus order; the page sees that as blur, focusout, focus and focusin events, plus the key
 * events. Where no script listens to the keys, the probe moves focus itself along the order the
 * platform's rules give (`stepWalk`), firing the same focus events, so scripts that answer them
 * (send focus back, open a menu, add content) act as they would; a real press is sent only from
 * an element where a key listener (on it or an ancestor) could cancel or redirect the key, and
 * real presses do the rest of the walk once focus is somewhere the computed order does not cover.
 * A page whose window or document listens to keys is walked with real presses throughout.
 */
export async function tabWalk(page: Page, cdp: CDPSession | null, cap: number, keys: KeyListeners | null, signal?: AbortSignal): Promise<TabWalk> {
  if (!cdp || !keys || keys.everywhere) {
    const positions = await fastWalk(page, cdp, cap, signal);
    return { positions, pressed: positions.length, why: !keys || !cdp ? 'the page\'s key listeners are unknown' : 'the window or the document listens to keys' };
  }
  // The first press is a real one: where Tab starts from (the sequential focus navigation
  // starting point: an element focused and blurred, a fragment's target, a click) is the platform's.
  const positions: FocusPos[] = await fastWalk(page, cdp, 1, signal);
  let pressed = positions.length;
  while (positions.length < cap && !signal?.aborted) {
    const r = await probe(page, (k, a: { cap: number; ids: readonly number[] }) => k.stepWalk(a.cap, [...a.ids]), { cap: cap - positions.length, ids: keys.ids });
    positions.push(...r.positions);
    if (r.stop === 'end' || r.stop === 'cap' || r.stop === 'late') break;
    const a = analyseWalk(positions);
    if (a.completed || a.stuck) break;
    if (r.stop === 'unknown') {
      const rest = await fastWalk(page, cdp, cap - positions.length, signal, positions);
      return { positions: [...positions, ...rest], pressed: pressed + rest.length, why: r.why };
    }
    // Focus is where a script listens to keys: this press is a real one.
    const one = await fastWalk(page, cdp, 1, signal, positions);
    positions.push(...one);
    pressed += one.length;
    if (one.length === 0) break;
  }
  // A script answering focus from a timer acts once the walk is over: give it the time it would
  // have had between real presses (the engine then walks again at a human pace).
  if (pressed < positions.length) await probe(page, (k) => k.settle(30, 200));
  return { positions, pressed };
}

/** One press at a time, each followed by a wait until focus comes to rest. */
export async function slowWalk(page: Page, cap: number, signal?: AbortSignal): Promise<FocusPos[]> {
  const positions: FocusPos[] = [];
  while (positions.length < cap && !signal?.aborted) {
    await page.keyboard.press('Tab');
    await probe(page, (k) => k.settle(30, 300));
    positions.push(await probe(page, (k) => k.here()));
    const a = analyseWalk(positions);
    if (a.completed || a.stuck) break;
    if (positions.length >= 3 && positions.every((p) => p === 'page')) break;
  }
  return positions;
}

// ---- leaving a suspect element (2.1.2) ----------------------------------------------------------

/**
 * Presses `key` up to `presses` times from where focus is, waiting after each press for the
 * page's scripts, and returns where focus was each time.
 */
async function positionsAfter(page: Page, key: string, presses: number, tabbable: ReadonlySet<number>): Promise<FocusPos[]> {
  const out: FocusPos[] = [];
  for (let i = 0; i < presses; i++) {
    await page.keyboard.press(key);
    await probe(page, (k) => k.settle(40, 300));
    out.push(await probe(page, (k) => k.here()));
    if (out.at(-1) === 'page' || out.at(-1) === 'opaque') break;
    const c = trailingCycle(out);
    if (c && [...tabbable].some((id) => !c.members.includes(id))) break;
    // Focus keeps moving to elements it had not been on: not going round a loop.
    if (new Set(out).size > MAX_LOOP) break;
  }
  return out;
}

export async function startAt(page: Page, id: number): Promise<void> {
  await probe(page, (k, i: number) => k.focus(i, true), id);
  await probe(page, (k) => k.settle(40, 300));
}

/** Tries to leave a suspect element with the standard keys and Escape; the loop focus stays in, or null. */
export async function trappedAt(page: Page, id: number, tabbable: ReadonlySet<number>): Promise<{ cycle: Cycle; tried: string[] } | null> {
  const tried: string[] = [];
  let cycle: Cycle | null = null;
  for (const [pre, key] of [[null, 'Tab'], [null, 'Shift+Tab'], ['Escape', 'Tab']] as const) {
    await startAt(page, id);
    if (pre) {
      await page.keyboard.press(pre);
      await probe(page, (k) => k.settle(40, 300));
    }
    const pos = await positionsAfter(page, key, PROBE_PRESSES, tabbable);
    tried.push(pre ? `${pre} then ${key}` : key);
    const j = judgeProbe(pos, tabbable);
    debug('probe', id, pre, key, JSON.stringify(pos), j);
    if (j.escaped) return null;
    cycle ??= j.cycle;
  }
  return cycle ? { cycle, tried } : null;
}

/**
 * Tries the keys the page names (`hints`) from `start`, one after another: the first that lets
 * focus out of the loop (`members`, one round in `period` presses), alone or followed by Tab, or null.
 */
export async function freedByHints(page: Page, hints: readonly string[], start: number, members: readonly number[], period: number, tabbable: ReadonlySet<number>): Promise<string | null> {
  for (const hint of hints) {
    await startAt(page, start);
    await page.keyboard.press(hint);
    await probe(page, (k) => k.settle(40, 300));
    const pos0 = await probe(page, (k) => k.here());
    if (typeof pos0 !== 'number' || !members.includes(pos0)) return hint;
    const after = await positionsAfter(page, 'Tab', period * 3 + 2, tabbable);
    if (judgeProbe(after, tabbable).escaped) return `${hint} then Tab`;
  }
  return null;
}
