import type { CDPSession, Page } from 'playwright';
import type { FindingDraft } from '../../../shared/findings.ts';
import { ensureInPage } from '../../session/in-page.ts';
import { withNavigation } from '../../session/page-session.ts';
import { focusVerdict, type FocusLook } from './focus-visible.ts';
import { analyseWalk, judgeProbe, keyHints, mentionsKeys, trailingCycle, trapOutcome, type Cycle, type FocusPos } from './focus-walk.ts';
import { ownFinding, understandingUrl, type EngineResult, type PageSession, type ScanEngine } from '../engine.ts';
import { KEYBOARD_RULES } from '../../../shared/rules/keyboard.ts';

/**
 * Keyboard checks with real key presses (Chromium's input pipeline, as Playwright's keyboard):
 *
 * - `keyboard-trap` (2.1.2): Tab is pressed through the page from the top while an in-page probe
 *   records where focus lands, which `focus()` calls the page's own scripts make and whether
 *   they cancel Tab. Only when something is odd (focus comes back to an element, a script moves
 *   focus, Tab is cancelled) is each suspect element tried slowly: Tab, Shift+Tab, Escape then
 *   Tab, and the keys the page names, waiting after each press for the page's scripts.
 * - `focus-visible` (2.4.7): the first elements reached by Tab are focused and blurred again;
 *   their styles (and their parent's) are compared, and where nothing differs, screenshots of
 *   their box and of the viewport.
 * - `interactive-not-focusable` (2.1.1, needs review): elements that look clickable (click
 *   listeners, `onclick`, a button or link role, a pointer cursor) that Tab cannot reach.
 *
 * Caps: at most 200 Tab presses (2 × the tabbable elements + 10), 40 elements checked for focus
 * visibility (8 of them by screenshots), 4 suspect elements tried for traps, 20 elements reported
 * under 2.1.1. Focus, scroll position and the page's `focus` method are put back afterwards;
 * what the page's own scripts did in response to the keys (a dialog closed by Escape) is not.
 */

const MAX_PRESSES = 200;
const BATCH = 20;
const FOCUS_CHECK_CAP = 40;
const PIXEL_CAP = 8;
const SUSPECT_CAP = 4;
const PROBE_PRESSES = 14;
const SLOW_PRESSES = 60;
const PROBE_BUDGET_MS = 6000;
const FAKE_CAP = 20;
const BOX_MARGIN = 8;
const debug = process.env.KBD_DEBUG ? (...a: unknown[]) => console.error('[kbd]', ...a) : () => {};


/** ACT rules each rule of this engine implements (for the accuracy harness). */
export const ACT_RULES: Record<string, string[]> = {
  [KEYBOARD_RULES.trap]: ['80af7b', 'a1b64e', 'ebe86a'],
  [KEYBOARD_RULES.focusVisible]: ['oj04fd'],
};

// ---- in the page ---------------------------------------------------------------------------------

interface ProbeApi {
  take(from: number): FocusPos[];
  here(): FocusPos;
  tabbable(): number[];
  /** Elements the page's scripts focused; `late`: how many of those calls came from a timer or promise, not from an event handler. */
  state(): { scripted: number[]; late: number; prevented: FocusPos[] };
  /** Waits until focus has not moved for `quietMs` (true), or `maxMs` passed (false). */
  settle(quietMs: number, maxMs: number): Promise<boolean>;
  focus(id: number, scroll: boolean): FocusPos;
  blur(): void;
  el(id: number): Element | undefined;
  idFor(el: Element): number;
  /**
   * Shift+Tab on this element (the first of the tab order) leaves the page in a real browser,
   * while headless Chromium wraps round to the last element: from now on, unless the page's own
   * handlers cancel that key press, the probe cancels it and takes focus away from the element,
   * as the browser's controls would. `null` turns this off.
   */
  edge(first: number | null): void;
  restore(x: number, y: number): void;
}

/**
 * The in-page probe, `window.__a11yKbd`. Runs in the page: uses nothing from this module.
 * Returns the scroll position to put back.
 */
function installProbe(): { x: number; y: number } {
  const w = window as unknown as { __a11yKbd?: ProbeApi };
  const at = { x: window.scrollX, y: window.scrollY };
  if (w.__a11yKbd) return at;
  const ids = new WeakMap<Element, number>();
  const refs: Array<WeakRef<Element>> = [];
  const idOf = (el: Element): number => {
    let id = ids.get(el);
    if (id === undefined) {
      id = refs.length;
      refs.push(new WeakRef(el));
      ids.set(el, id);
    }
    return id;
  };
  const deepEl = (): Element | 'page' | 'opaque' => {
    let a: Element | null = document.activeElement;
    for (let i = 0; i < 20 && a; i++) {
      const sr = (a as Element).shadowRoot;
      if (sr && sr.activeElement) {
        a = sr.activeElement;
        continue;
      }
      if (a.tagName === 'IFRAME' || a.tagName === 'FRAME') {
        let doc: Document | null = null;
        try {
          doc = (a as HTMLIFrameElement).contentDocument;
        } catch {
          doc = null;
        }
        if (!doc) return 'opaque';
        const inner = doc.activeElement;
        if (!inner || inner === doc.body || inner === doc.documentElement) break;
        a = inner;
        continue;
      }
      break;
    }
    if (!a || a === document.body || a === document.documentElement) return 'page';
    return a;
  };
  const here = (): FocusPos => {
    const d = deepEl();
    return typeof d === 'string' ? d : idOf(d);
  };
  const st = { log: [] as FocusPos[], changes: 0, lastChange: 0, scripted: [] as number[], late: 0, prevented: [] as FocusPos[], ours: false, lastDown: null as KeyboardEvent | null, first: null as number | null };
  const onDown = (e: Event) => {
    st.lastDown = e as KeyboardEvent;
  };
  const onUp = () => {
    const d = st.lastDown;
    st.lastDown = null;
    const p = here();
    if (d && d.key === 'Tab' && d.defaultPrevented) st.prevented.push(p);
    st.log.push(p);
  };
  // Runs after the page's own handlers (window, bubbling phase): sees whether they cancelled the key.
  const onDownLast = (e: Event) => {
    const ke = e as KeyboardEvent;
    if (st.first === null || ke.key !== 'Tab' || !ke.shiftKey || ke.defaultPrevented) return;
    const d = deepEl();
    if (typeof d === 'string' || ids.get(d) !== st.first) return;
    ke.preventDefault();
    (d as HTMLElement).blur?.();
  };
  const onChange = () => {
    st.changes++;
    st.lastChange = performance.now();
  };
  const wins: Window[] = [];
  const attach = (win: Window) => {
    try {
      win.addEventListener('keydown', onDown, true);
      win.addEventListener('keyup', onUp, true);
      win.addEventListener('keydown', onDownLast, false);
      win.addEventListener('focusin', onChange, true);
      win.addEventListener('focusout', onChange, true);
      wins.push(win);
    } catch {
      // a frame that went away
    }
  };
  attach(window);
  for (const f of Array.from(document.querySelectorAll('iframe, frame')).slice(0, 20)) {
    try {
      const cw = (f as HTMLIFrameElement).contentWindow;
      if (cw && cw.document) attach(cw);
    } catch {
      // cross-origin: its keys are not seen (positions there are "opaque")
    }
  }
  // Focus moved by the page's own scripts: every call of focus() not made by the probe.
  const patched: Array<[object, PropertyDescriptor]> = [];
  const mathml = (globalThis as unknown as { MathMLElement?: { prototype: object } }).MathMLElement;
  for (const proto of [HTMLElement.prototype, SVGElement.prototype, mathml?.prototype]) {
    if (!proto) continue;
    const d = Object.getOwnPropertyDescriptor(proto, 'focus');
    if (!d || typeof d.value !== 'function') continue;
    const orig = d.value as (this: Element, ...a: unknown[]) => unknown;
    patched.push([proto, d]);
    Object.defineProperty(proto, 'focus', {
      ...d,
      value: function (this: Element, ...args: unknown[]) {
        if (!st.ours) {
          st.scripted.push(idOf(this));
          // Outside any event handler: a timer, which can race with key presses sent quickly.
          if ((window as unknown as { event?: Event }).event === undefined) st.late++;
          onChange();
        }
        return orig.apply(this, args);
      },
    });
  }
  const visible = (el: Element): boolean => {
    const e = el as Element & { checkVisibility?: (o: object) => boolean };
    if (e.checkVisibility && !e.checkVisibility({ checkVisibilityCSS: true })) return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 || r.height > 0;
  };
  const api: ProbeApi = {
    take: (from) => st.log.slice(from),
    here,
    tabbable() {
      const sel = 'a[href], area[href], button, input, select, textarea, iframe, summary, audio[controls], video[controls], [tabindex], [contenteditable]';
      const out: number[] = [];
      for (const el of Array.from(document.querySelectorAll(sel)).slice(0, 3000)) {
        const h = el as HTMLElement & { disabled?: boolean };
        if (h.tabIndex < 0 || h.disabled || (el.tagName === 'INPUT' && (el as HTMLInputElement).type === 'hidden')) continue;
        if (el.closest('[inert]') || !visible(el)) continue;
        out.push(idOf(el));
      }
      return out;
    },
    state: () => ({ scripted: st.scripted.slice(0, 200), late: st.late, prevented: st.prevented.slice(0, 50) }),
    settle(quietMs, maxMs) {
      const start = performance.now();
      return new Promise<boolean>((resolve) => {
        const tick = () => {
          const now = performance.now();
          if (now - start >= quietMs && now - st.lastChange >= quietMs) resolve(true);
          else if (now - start >= maxMs) resolve(false);
          else setTimeout(tick, 10);
        };
        setTimeout(tick, 10);
      });
    },
    focus(id, scroll) {
      const el = refs[id]?.deref() as HTMLElement | undefined;
      if (!el || !el.isConnected) return here();
      st.ours = true;
      try {
        if (scroll) el.scrollIntoView({ block: 'center', inline: 'nearest' });
        el.focus({ preventScroll: true });
      } finally {
        st.ours = false;
      }
      return here();
    },
    blur() {
      st.ours = true;
      try {
        const d = deepEl();
        if (typeof d !== 'string') (d as HTMLElement).blur?.();
        (document.activeElement as HTMLElement | null)?.blur?.();
      } finally {
        st.ours = false;
      }
    },
    el: (id) => refs[id]?.deref(),
    idFor: idOf,
    edge(first) {
      st.first = first;
    },
    restore(x, y) {
      api.blur();
      for (const win of wins) {
        try {
          win.removeEventListener('keydown', onDown, true);
          win.removeEventListener('keyup', onUp, true);
          win.removeEventListener('keydown', onDownLast, false);
          win.removeEventListener('focusin', onChange, true);
          win.removeEventListener('focusout', onChange, true);
        } catch {
          // gone
        }
      }
      for (const [proto, d] of patched) Object.defineProperty(proto, 'focus', d);
      window.scrollTo(x, y);
      delete w.__a11yKbd;
    },
  };
  w.__a11yKbd = api;
  return at;
}

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

type Probe = ProbeApi;
/**
 * Runs `fn(probe, arg)` in the page. `fn` is sent as source (it may use nothing from this
 * module) and evaluated through DevTools, so a page's Content-Security-Policy does not block it.
 */
const probe = <A, T>(page: Page, fn: (k: Probe, arg: A) => T, arg?: A): Promise<Awaited<T>> =>
  page.evaluate(
    `(() => { const k = window.__a11yKbd; if (!k) throw new Error('keyboard probe is gone (the page navigated)'); return (${fn.toString()})(k, ${JSON.stringify(arg ?? null)}); })()`,
  ) as Promise<Awaited<T>>;

// ---- the engine ----------------------------------------------------------------------------------

export const keyboardEngine: ScanEngine = {
  id: 'keyboard',
  stage: 'CustomChecks',
  async run(session: PageSession): Promise<EngineResult> {
    const { page } = session;
    await ensureInPage(page);
    const startUrl = page.url();
    const popups = (p: Page) => void p.close().catch(() => {});
    page.context().on('page', popups);
    let cdp: CDPSession | null = null;
    try {
      cdp = await page.context().newCDPSession(page);
    } catch {
      cdp = null;
    }
    const at = await page.evaluate(installProbe);
    const findings: FindingDraft[] = [];
    let t0 = performance.now();
    const lap = (what: string) => {
      const now = performance.now();
      debug(what, Math.round(now - t0), 'ms');
      t0 = now;
    };
    try {
      await probe(page, (k) => k.blur());
      let tabbable = await probe(page, (k) => k.tabbable());
      const cap = Math.min(MAX_PRESSES, 2 * tabbable.length + 10);

      // 1. The fast walk: presses queued ten at a time, positions read from the probe's log.
      let positions = await fastWalk(page, cdp, cap, session.signal);
      let walk = analyseWalk(positions);
      let state = await probe(page, (k) => k.state());
      lap(`fast walk (${positions.length} presses)`);
      debug('walk', JSON.stringify(positions), walk, state, { tabbable });
      // Scripts that move focus from a timer race with quickly sent keys (two such timers can
      // bounce focus between elements for ever): walk again at a human pace, from a fresh page.
      const paced = state.late > 0;
      if (paced) {
        await withNavigation(page, () => page.reload({ waitUntil: 'load', timeout: 15_000 }));
        await ensureInPage(page);
        await page.evaluate(installProbe);
        await probe(page, (k) => k.blur());
        await probe(page, (k) => k.settle(40, 300));
        tabbable = await probe(page, (k) => k.tabbable());
        positions = await slowWalk(page, Math.min(SLOW_PRESSES, 3 * tabbable.length + 10), session.signal);
        walk = analyseWalk(positions);
        state = await probe(page, (k) => k.state());
        debug('slow walk', JSON.stringify(positions), walk, state, { tabbable });
      }
      const suspects = [...new Set([...walk.revisited, ...state.prevented.filter((p): p is number => typeof p === 'number'), ...state.scripted])].slice(0, SUSPECT_CAP);

      // 2. Focus visible, on the elements Tab reached (not where scripts bounce focus: focusing
      // and blurring there would set them off).
      if (!paced) {
        const ids = walk.order.filter((id) => !suspects.includes(id)).slice(0, FOCUS_CHECK_CAP);
        findings.push(...(await checkFocusVisible(page, ids)));
        lap('focus visible');
      }

      // 3. Traps, only where the walk saw something odd.
      if (suspects.length > 0 && page.url() === startUrl) {
        const all = new Set([...tabbable, ...walk.order]);
        findings.push(...(await checkTraps(page, cdp, suspects, all, walk.order[0], session.signal)));
      }

      // 4. Things that look clickable but Tab cannot reach.
      findings.push(...(await checkNotFocusable(page, cdp)));
      lap('not focusable');
      return { findings };
    } finally {
      page.context().off('page', popups);
      await probe(page, (k, a: { x: number; y: number }) => k.restore(a.x, a.y), at).catch(() => {});
      await cdp?.detach().catch(() => {});
    }
  },
};

async function fastWalk(page: Page, cdp: CDPSession | null, cap: number, signal?: AbortSignal): Promise<FocusPos[]> {
  const positions: FocusPos[] = [];
  let logged = 0;
  while (positions.length < cap && !signal?.aborted) {
    const n = Math.min(BATCH, cap - positions.length);
    await pressTabs(page, cdp, n);
    const { got, late } = await probe(page, (k, from: number) => ({ got: k.take(from), late: k.state().late }), logged);
    logged += got.length;
    positions.push(...got.slice(0, n));
    // Presses inside a frame the probe cannot see leave no record.
    for (let i = got.length; i < n; i++) positions.push('opaque');
    const a = analyseWalk(positions);
    if (a.completed || a.stuck) break;
    // Nothing to reach at all.
    if (positions.length >= 3 && positions.every((p) => p === 'page')) break;
    if (late > 0) break;
  }
  return positions;
}

/** One press at a time, each followed by a wait until focus comes to rest. */
async function slowWalk(page: Page, cap: number, signal?: AbortSignal): Promise<FocusPos[]> {
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

// ---- 2.1.2 ---------------------------------------------------------------------------------------

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
    // Focus keeps moving to elements it had not been on: not going round a few.
    if (new Set(out).size > 6) break;
  }
  return out;
}

async function startAt(page: Page, id: number): Promise<void> {
  await probe(page, (k, i: number) => k.focus(i, true), id);
  await probe(page, (k) => k.settle(40, 300));
}

/** Tries to leave a suspect element with the standard keys and Escape; the loop focus stays in, or null. */
async function trappedAt(page: Page, id: number, tabbable: ReadonlySet<number>): Promise<{ cycle: Cycle; tried: string[] } | null> {
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

async function checkTraps(page: Page, cdp: CDPSession | null, suspects: number[], tabbable: ReadonlySet<number>, first: number | undefined, signal?: AbortSignal): Promise<FindingDraft[]> {
  const started = performance.now();
  await probe(page, (k, f: number | null) => k.edge(f), first ?? null);
  const out: FindingDraft[] = [];
  const seen = new Set<string>();
  for (const id of suspects) {
    if (signal?.aborted || performance.now() - started > PROBE_BUDGET_MS) break;
    try {
      const trap = await trappedAt(page, id, tabbable);
      if (!trap) continue;
      const members = [...trap.cycle.members].sort((a, b) => a - b);
      const key = members.join(',');
      if (seen.has(key)) continue;
      seen.add(key);
      const facts = await probe(
        page,
        (k, ids: number[]) => {
          const els = ids.map((i) => k.el(i)).filter((e): e is Element => !!e);
          const first = els.slice().sort((a, b) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1))[0];
          const textEntry = els.some((e) => {
            const t = e.tagName;
            if (t === 'TEXTAREA' || (e as HTMLElement).isContentEditable) return true;
            if (t === 'INPUT') return !/^(button|submit|reset|checkbox|radio|image|file|range|color)$/i.test((e as HTMLInputElement).type);
            return /^(textbox|application|searchbox|combobox)$/.test(e.getAttribute('role') || '');
          });
          const own = els
            .flatMap((e) => ['aria-label', 'aria-description', 'title', 'placeholder'].map((a) => e.getAttribute(a) || ''))
            .concat(
              els.flatMap((e) =>
                (e.getAttribute('aria-describedby') || '')
                  .split(/\s+/)
                  .filter(Boolean)
                  .map((r) => document.getElementById(r)?.textContent || ''),
              ),
            )
            .join(' ');
          const text = `${(document.body?.innerText || '').slice(0, 20000)} ${own}`;
          const A = (window as unknown as { __a11yAudit: { withTree<T>(f: () => T): T; describe(e: Element): { selector: string; html: string } } }).__a11yAudit;
          const described = A.withTree(() => els.map((e) => A.describe(e)));
          return { firstIndex: first ? els.indexOf(first) : 0, textEntry, text, described, firstId: first ? ids[els.indexOf(first)] : ids[0] };
        },
        members,
      );
      const hints = keyHints(facts.text);
      const mentions = mentionsKeys(facts.text);
      // Keys the page names: does one of them let focus out?
      let freedBy: string | null = null;
      for (const hint of hints) {
        await startAt(page, facts.firstId ?? members[0]!);
        await page.keyboard.press(hint);
        await probe(page, (k) => k.settle(40, 300));
        const pos0 = await probe(page, (k) => k.here());
        if (typeof pos0 !== 'number' || !members.includes(pos0)) {
          freedBy = hint;
          break;
        }
        const after = await positionsAfter(page, 'Tab', trap.cycle.period * 3 + 2, tabbable);
        if (judgeProbe(after, tabbable).escaped) {
          freedBy = `${hint} then Tab`;
          break;
        }
      }
      if (freedBy) continue;
      const keyListeners = await hasKeyListeners(page, cdp, facts.firstId ?? members[0]!);
      const type = trapOutcome({ members: members.length, textEntry: facts.textEntry, keyListeners, mentionsKeys: mentions });
      const d = facts.described[facts.firstIndex] ?? facts.described[0];
      if (!d) continue;
      const others = facts.described.filter((x) => x !== d).map((x) => x.selector);
      const tried = [...trap.tried, ...hints.map((h) => `${h} (named on the page)`)];
      out.push(
        ownFinding({
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
        }),
      );
    } catch {
      // a suspect that went away, a page that navigated: nothing to say about it
    }
  }
  return out;
}

/** Whether the element, an ancestor (through shadow roots), the document or the window listens to key events. */
async function hasKeyListeners(page: Page, cdp: CDPSession | null, id: number): Promise<boolean> {
  if (!cdp) return true;
  try {
    const { result } = await cdp.send('Runtime.evaluate', {
      expression: `(() => { const k = window.__a11yKbd; const out = []; let n = k && k.el(${Number(id)}); while (n) { out.push(n); n = n.parentNode || n.host || null; } out.push(window); return out; })()`,
    });
    if (!result.objectId) return true;
    const props = await cdp.send('Runtime.getProperties', { objectId: result.objectId, ownProperties: true });
    const objs = props.result.filter((p) => /^\d+$/.test(p.name) && p.value?.objectId).map((p) => p.value!.objectId!);
    for (const objectId of objs.slice(0, 60)) {
      const l = await cdp.send('DOMDebugger.getEventListeners', { objectId });
      if (l.listeners.some((x) => x.type === 'keydown' || x.type === 'keyup' || x.type === 'keypress')) return true;
    }
    return false;
  } catch {
    return true;
  }
}

// ---- 2.4.7 ---------------------------------------------------------------------------------------

interface StyleCheck {
  id: number;
  changed: boolean;
  animates: boolean;
  textEntry: boolean;
}

/** Focuses each element (keyboard modality is on after the walk, so `:focus-visible` applies) and compares styles focused and blurred. */
function compareStyles(k: Probe, ids: number[]): StyleCheck[] {
  const props = [
    'outline-style', 'outline-width', 'outline-color', 'outline-offset', 'box-shadow',
    'border-top-style', 'border-top-width', 'border-top-color', 'border-right-style', 'border-right-width', 'border-right-color',
    'border-bottom-style', 'border-bottom-width', 'border-bottom-color', 'border-left-style', 'border-left-width', 'border-left-color',
    'background-color', 'background-image', 'color', 'text-decoration-line', 'text-decoration-color', 'text-decoration-style',
    'text-decoration-thickness', 'text-underline-offset', 'opacity', 'transform', 'filter', 'font-weight', 'font-style',
    'text-shadow', 'visibility', 'display', 'width', 'height', 'content', 'clip-path',
  ];
  const sig1 = (el: Element, pseudo: string | null): string => {
    const cs = getComputedStyle(el, pseudo);
    if (pseudo && (cs.content === 'none' || cs.content === 'normal')) return '';
    const v: Record<string, string> = {};
    for (const p of props) v[p] = cs.getPropertyValue(p);
    // A line that is not drawn has no colour.
    if (v['outline-style'] === 'none' || parseFloat(v['outline-width']!) === 0) v['outline-style'] = v['outline-width'] = v['outline-color'] = v['outline-offset'] = 'none';
    for (const side of ['top', 'right', 'bottom', 'left']) {
      const s = v[`border-${side}-style`];
      if (s === 'none' || s === 'hidden' || parseFloat(v[`border-${side}-width`]!) === 0) v[`border-${side}-style`] = v[`border-${side}-width`] = v[`border-${side}-color`] = 'none';
    }
    if (v['text-decoration-line'] === 'none') v['text-decoration-color'] = v['text-decoration-style'] = v['text-decoration-thickness'] = v['text-underline-offset'] = 'none';
    return JSON.stringify(v);
  };
  const sig = (el: Element) => [sig1(el, null), sig1(el, '::before'), sig1(el, '::after'), el.parentElement ? sig1(el.parentElement, null) : ''].join('|');
  const out: StyleCheck[] = [];
  for (const id of ids) {
    try {
      const el = k.el(id);
      if (!el || !el.isConnected || el.ownerDocument !== document) continue;
      const before = new Set(el.getAnimations?.({ subtree: true }) ?? []);
      const unfocused0 = sig(el);
      if (k.focus(id, false) !== id) continue; // focus went elsewhere (a script): not measurable
      const focused = sig(el);
      const anims = (el.getAnimations?.({ subtree: true }) ?? []).filter((a) => !before.has(a) && a.playState === 'running');
      k.blur();
      const unfocused = sig(el);
      const t = el.tagName;
      const textEntry =
        t === 'TEXTAREA' ||
        (el as HTMLElement).isContentEditable ||
        (t === 'INPUT' && !/^(button|submit|reset|checkbox|radio|image|file|range|color)$/i.test((el as HTMLInputElement).type));
      out.push({ id, changed: focused !== unfocused || focused !== unfocused0, animates: anims.length > 0, textEntry });
    } catch {
      // detached, or a style that cannot be read
    }
  }
  return out;
}

async function shot(page: Page, clip?: { x: number; y: number; width: number; height: number }): Promise<Buffer | null> {
  try {
    return await page.screenshot({ clip, caret: 'hide', scale: 'css', timeout: 5000 });
  } catch {
    return null;
  }
}

async function checkFocusVisible(page: Page, ids: number[]): Promise<FindingDraft[]> {
  if (ids.length === 0) return [];
  const styles = await probe(page, compareStyles, ids);
  const plain = styles.filter((s) => !s.changed && !s.animates);
  if (plain.length === 0) return [];
  const vp = page.viewportSize() ?? { width: 1280, height: 800 };
  // Does the viewport change by itself? Then a difference in it proves nothing.
  await probe(page, (k) => k.blur());
  const a = await shot(page);
  const b = await shot(page);
  const pageAnimates = !a || !b || !a.equals(b);
  const out: Array<{ id: number; look: FocusLook; rect: { w: number; h: number } | null }> = [];
  for (const [i, s] of plain.entries()) {
    const base: FocusLook = { styleChanged: false, animates: false, boxChanged: null, viewportChanged: null, pageAnimates, onScreen: true, textEntry: s.textEntry };
    if (i >= PIXEL_CAP) {
      out.push({ id: s.id, look: base, rect: null });
      continue;
    }
    try {
      const place = async () => {
        await probe(page, (k, id: number) => k.focus(id, true), s.id);
        return probe(
          page,
          (k, id: number) => {
            const el = k.el(id);
            if (!el) return null;
            const r = el.getBoundingClientRect();
            const cs = getComputedStyle(el);
            return { x: r.x, y: r.y, w: r.width, h: r.height, vw: innerWidth, vh: innerHeight, hidden: cs.opacity === '0' || cs.visibility !== 'visible' };
          },
          s.id,
        );
      };
      const r = await place();
      if (!r) continue;
      const onScreen = !r.hidden && r.w >= 1 && r.h >= 1 && r.x + r.w > 0 && r.y + r.h > 0 && r.x < r.vw && r.y < r.vh;
      const x0 = Math.max(0, Math.floor(r.x - BOX_MARGIN));
      const y0 = Math.max(0, Math.floor(r.y - BOX_MARGIN));
      const x1 = Math.min(vp.width, Math.ceil(r.x + r.w + BOX_MARGIN));
      const y1 = Math.min(vp.height, Math.ceil(r.y + r.h + BOX_MARGIN));
      const clip = x1 - x0 >= 1 && y1 - y0 >= 1 ? { x: x0, y: y0, width: x1 - x0, height: y1 - y0 } : undefined;
      let boxChanged: boolean | null = false;
      if (clip) {
        const f = await shot(page, clip);
        await probe(page, (k) => k.blur());
        const u = await shot(page, clip);
        boxChanged = f && u ? !f.equals(u) : null;
      }
      let viewportChanged: boolean | null = null;
      if (boxChanged === false || !clip) {
        await place();
        const f = await shot(page);
        await probe(page, (k) => k.blur());
        const u = await shot(page);
        viewportChanged = f && u ? !f.equals(u) : null;
        if (!clip) boxChanged = false;
      }
      await probe(page, (k) => k.blur());
      out.push({ id: s.id, look: { ...base, boxChanged, viewportChanged, onScreen }, rect: { w: Math.round(r.w), h: Math.round(r.h) } });
    } catch {
      // gone
    }
  }
  const failing = out.map((o) => ({ ...o, verdict: focusVerdict(o.look) })).filter((o) => o.verdict !== 'visible');
  if (failing.length === 0) return [];
  const described = await probe(
    page,
    (k, ids: number[]) => {
      const A = (window as unknown as { __a11yAudit: { withTree<T>(f: () => T): T; describe(e: Element): { selector: string; html: string } } }).__a11yAudit;
      return A.withTree(() => ids.map((id) => (k.el(id) ? A.describe(k.el(id)!) : null)));
    },
    failing.map((f) => f.id),
  );
  const findings: FindingDraft[] = [];
  failing.forEach((f, i) => {
    const d = described[i];
    if (!d) return;
    const L = f.look;
    const why =
      f.verdict === 'confirmed'
        ? 'Nothing on screen changes when this element receives keyboard focus: its styles are the same, and screenshots of its box and of the whole viewport are identical focused and not focused.'
        : L.boxChanged === null || L.viewportChanged === null
          ? `This element's styles (and its parent's) are the same focused and not focused; it was not compared in screenshots (only the first ${PIXEL_CAP} such elements are).`
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

const POINTER_EVENTS = new Set(['click', 'mousedown', 'mouseup', 'pointerdown', 'pointerup', 'touchstart', 'touchend', 'dblclick']);

/** Ids (in the probe) of elements with their own click-like listeners, via DevTools; capped. */
async function clickListenerIds(page: Page, cdp: CDPSession | null): Promise<number[]> {
  if (!cdp) return [];
  try {
    const { result } = await cdp.send('Runtime.evaluate', { expression: 'document' });
    if (!result.objectId) return [];
    const { listeners } = await cdp.send('DOMDebugger.getEventListeners', { objectId: result.objectId, depth: -1, pierce: true });
    const nodes = [...new Set(listeners.filter((l) => POINTER_EVENTS.has(l.type) && l.backendNodeId).map((l) => l.backendNodeId!))].slice(0, 80);
    const ids = await Promise.all(
      nodes.map(async (backendNodeId) => {
        try {
          const { object } = await cdp.send('DOM.resolveNode', { backendNodeId });
          if (!object.objectId) return -1;
          const r = await cdp.send('Runtime.callFunctionOn', {
            objectId: object.objectId,
            functionDeclaration: 'function () { const k = window.__a11yKbd; return k && this instanceof Element ? k.idFor(this) : -1; }',
            returnByValue: true,
          });
          return typeof r.result.value === 'number' ? r.result.value : -1;
        } catch {
          return -1;
        }
      }),
    );
    return ids.filter((i) => i >= 0);
  } catch {
    return [];
  }
}

interface FakeControl {
  selector: string;
  html: string;
  evidence: string[];
  text: string;
}

function findFakeControls(k: Probe, arg: { listenerIds: number[]; cap: number }): FakeControl[] {
  const interactiveSel =
    'a[href], area[href], button, input, select, textarea, summary, label, option, iframe, audio[controls], video[controls], [contenteditable]:not([contenteditable="false"]), [tabindex]';
  const composite = '[role="listbox"], [role="menu"], [role="menubar"], [role="tree"], [role="treegrid"], [role="grid"], [role="tablist"], [role="radiogroup"], [aria-activedescendant]';
  const controlRoles = /^(button|link|checkbox|switch|menuitem|menuitemcheckbox|menuitemradio|tab|option|radio|treeitem|slider|spinbutton)$/;
  const vw = innerWidth;
  const vh = innerHeight;
  const candidates = new Map<Element, Set<string>>();
  const add = (el: Element, why: string) => {
    if (!candidates.has(el)) candidates.set(el, new Set());
    candidates.get(el)!.add(why);
  };
  for (const id of arg.listenerIds) {
    const el = k.el(id);
    if (el) add(el, 'a click listener');
  }
  for (const el of Array.from(document.querySelectorAll('[onclick], [onmousedown], [role]')).slice(0, 3000)) {
    if (el.hasAttribute('onclick') || el.hasAttribute('onmousedown')) add(el, 'an onclick attribute');
    const role = (el.getAttribute('role') || '').trim().split(/\s+/)[0] || '';
    if (controlRoles.test(role)) add(el, `role="${role}"`);
  }
  const all = document.body ? Array.from(document.body.getElementsByTagName('*')).slice(0, 5000) : [];
  const cursors = new Map<Element, string>();
  const cursor = (e: Element) => {
    let c = cursors.get(e);
    if (c === undefined) {
      c = getComputedStyle(e).cursor;
      cursors.set(e, c);
    }
    return c;
  };
  for (const el of all) {
    const p = el.parentElement;
    // Where a pointer cursor starts (it is inherited by everything inside).
    if (p && cursor(el) === 'pointer' && cursor(p) !== 'pointer') add(el, 'a pointer cursor');
  }
  const out: FakeControl[] = [];
  const A = (window as unknown as { __a11yAudit: { withTree<T>(f: () => T): T; describe(e: Element): { selector: string; html: string } } }).__a11yAudit;
  const keep: Array<[Element, string[], string]> = [];
  for (const [el, why] of candidates) {
    if (keep.length >= arg.cap) break;
    try {
      if (el === document.body || el === document.documentElement || !(el instanceof HTMLElement || el instanceof SVGElement)) continue;
      const h = el as HTMLElement;
      if (el.hasAttribute('tabindex') || h.tabIndex >= 0 || el.matches(interactiveSel)) continue;
      if (el.closest('[aria-disabled="true"], [disabled], [inert]')) continue;
      // Inside something focusable or a widget that manages focus itself.
      let up: Element | null = el.parentElement;
      let inside = false;
      while (up && !inside) {
        if (up.matches(interactiveSel) && (up as HTMLElement).tabIndex >= 0) inside = true;
        else if (up.matches('label, [role="button"], [role="link"]')) inside = true;
        up = up.parentElement;
      }
      if (inside || el.closest(composite)) continue;
      // A wrapper of a real control (a card around a link) is reached through that control.
      if (Array.from(el.querySelectorAll(interactiveSel)).some((d) => (d as HTMLElement).tabIndex >= 0)) continue;
      const cs = getComputedStyle(el);
      if (cs.visibility !== 'visible' || cs.display === 'none' || parseFloat(cs.opacity) === 0) continue;
      const eh = el as Element & { checkVisibility?: (o: object) => boolean };
      if (eh.checkVisibility && !eh.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) continue;
      const r = el.getBoundingClientRect();
      if (r.width < 8 || r.height < 8) continue;
      // A big region with a listener is delegation, not a control.
      if (r.width * r.height > 0.25 * vw * vh) continue;
      const text = (h.innerText || el.textContent || '').replace(/\s+/g, ' ').trim();
      if (text.length > 150) continue;
      const reasons = [...why];
      // A pointer cursor alone says little when the element shows nothing: icons and text only.
      if (reasons.length === 1 && reasons[0] === 'a pointer cursor' && text === '' && !el.querySelector('img, svg')) continue;
      keep.push([el, reasons, text.slice(0, 80)]);
    } catch {
      // detached
    }
  }
  A.withTree(() => {
    for (const [el, evidence, text] of keep) {
      const d = A.describe(el);
      out.push({ selector: d.selector, html: d.html, evidence, text });
    }
  });
  return out;
}

async function checkNotFocusable(page: Page, cdp: CDPSession | null): Promise<FindingDraft[]> {
  try {
    const listenerIds = await clickListenerIds(page, cdp);
    const found = await probe(page, findFakeControls, { listenerIds, cap: FAKE_CAP });
    return found.map((f) =>
      ownFinding({
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
      }),
    );
  } catch {
    return [];
  }
}
