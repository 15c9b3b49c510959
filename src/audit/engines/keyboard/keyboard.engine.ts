import type { CDPSession, Page } from 'playwright';
import type { FindingDraft } from '../../../shared/findings.ts';
import { ensureInPage } from '../../session/in-page.ts';
import { reloadPage, withRequestsHeld } from '../../session/held-requests.ts';
import { analyseWalk, EXIT_CONTROL_NAME, keyHints } from './focus-walk.ts';
import type { EngineResult, PageSession, ScanEngine } from '../engine.ts';
import { KEYBOARD_RULES } from '../../../shared/rules/keyboard.ts';
import { debug, installProbe, probe } from './probe.ts';
import { freedByHints, slowWalk, tabWalk, trappedAt } from './presses.ts';
import { clickListenerIds, compareStyles, type Listeners, describeIds, findFakeControls, FOCUS_GUARD_EVENTS, focusMeasures, hasKeyListeners, HOVER_EVENTS, KEY_EVENTS, keyListenersOf, listenerIds, POINTER_MOVE_EVENTS, POINTER_EVENTS, trapFacts } from './page-facts.ts';
import { visualOrderFinding, activationFinding, changeOnInputFinding, dialogEscapeFinding, dialogFocusFinding, dialogTriggerFinding, focusFailures, focusVisibleFindings, hoverOnlyFinding, focusableNoRoleFinding, notFocusableFinding, trapFinding, type Described } from './checks.ts';
import { hoverCandidates, tryHover } from './hover.ts';
import { placeAll, visualOrderBreak } from './visual-order.ts';
import { contextChanged, EffectsRecorder, somethingHappened } from './effects.ts';
import { dialogTriggers, probeDialogs } from './dialogs.ts';
import { activationCandidates, choiceCandidates, tryActivation, tryChoices } from './operate.ts';

/**
 * Keyboard checks with real key presses (Chromium's input pipeline, as Playwright's keyboard):
 *
 * - `keyboard-trap` (2.1.2): Tab goes through the page from the top while an in-page probe
 *   records where focus lands, which `focus()` calls the page's own scripts make and whether
 *   they cancel Tab. The walk is priced per element (`tabWalk`): the probe moves focus along the
 *   order the platform's rules give, firing the focus events a press fires, and a real key is
 *   pressed only from an element where a script listens to keys (on it or an ancestor); a page
 *   whose window or document listens to keys, or whose order is not computed (shadow trees,
 *   frames, image maps, media controls), is walked with real presses. Only when something is odd
 *   (focus comes back to an element, a script moves focus, Tab is cancelled) is each suspect
 *   element tried slowly with real presses: Tab, Shift+Tab, Escape then Tab, and the keys the
 *   page names, waiting after each press for the page's scripts.
 * - `focus-visible` (2.4.7): the first elements reached by Tab are focused and blurred again;
 *   their styles (and their parent's) are compared, and where nothing differs, screenshots of
 *   their box and of the viewport.
 * - `focusable-no-role` (4.1.2): a div, span or the like in the tab order with no role; confirmed
 *   when a script listens to its clicks (F59), else needs review.
 * - `interactive-not-focusable` (2.1.1): elements that look clickable (click listeners,
 *   `onclick`, a button or link role, a pointer cursor) that Tab cannot reach; confirmed for a
 *   mouse-only control (its own listener, a pointer cursor, text no reachable control bears; F42).
 *
 * - Operating the page with keys, each watched by a recorder of what happened
 *   (effects.ts): select lists, radio buttons and check boxes changed by their key, whose change
 *   navigates, sends a form or opens a window (`change-on-input`, 3.2.2, needs review; all held);
 *   content a `:hover` style or a mouseover script shows and focus does not (`hover-only`, 2.1.1,
 *   needs review; hover.ts); custom buttons and links Enter and Space do not activate
 *   (`keyboard-activation`, 2.1.1; operate.ts); dialogs opened with Enter: focus moved in, kept
 *   in while modal (`dialog-focus`, 2.4.3), Escape closing them (`dialog-escape`, 2.1.1), and
 *   what looks clickable inside but Tab cannot reach (dialogs.ts).
 *
 * Caps: at most 200 Tab presses (2 × the tabbable elements + 10; past them, unreached elements
 * that listen to blur, focusout or keydown are trap suspects), 40 elements checked for focus
 * visibility (8 of them by screenshots), 4 suspect elements tried for traps, 20 elements reported
 * under 2.1.1; operating: 6 s in all (2.5 s of it hovering), 6 choices, 4 hovered elements, 6
 * custom controls, 3 dialogs. Focus, scroll position and the page's `focus` method are put back
 * afterwards; where operating changed the page (a menu opened, a dialog left open), the page is
 * loaded again for the engines after this one.
 *
 * This file runs the checks in order; probe.ts is the probe in the page, presses.ts the key presses,
 * page-facts.ts what is measured in the page, checks.ts (with focus-walk.ts and focus-visible.ts)
 * the decisions and findings.
 */

const MAX_PRESSES = 200;
const FOCUS_CHECK_CAP = 40;
const PIXEL_CAP = 8;
const SUSPECT_CAP = 4;
const SLOW_PRESSES = 60;
const PROBE_BUDGET_MS = 6000;
const FAKE_CAP = 20;
/** Elements of the tab order compared with where they are shown. */
const ORDER_CAP = 200;
/** Operating with keys: time for all of it, and elements tried of each kind. */
const OPERATE_BUDGET_MS = 6000;
const HOVER_BUDGET_MS = 2500;
const DIALOG_CAP = 3;
const ACTIVATION_CAP = 6;
const CHOICE_CAP = 6;
const HOVER_CAP = 4;

/** ACT rules each rule of this engine implements (for the accuracy harness). */
export const ACT_RULES: Record<string, string[]> = {
  [KEYBOARD_RULES.trap]: ['80af7b', 'a1b64e', 'ebe86a'],
  [KEYBOARD_RULES.focusVisible]: ['oj04fd'],
};

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
    // Which elements listen to what, asked of DevTools once (after any reload below).
    let listening: Promise<Listening> | null = null;
    const listeners = () => (listening ??= listenerIds(page, cdp, { click: POINTER_EVENTS, hover: HOVER_EVENTS, guard: FOCUS_GUARD_EVENTS, keys: KEY_EVENTS }, { pointer: POINTER_MOVE_EVENTS }));
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

      // 1. The walk: focus moved along the computed order, real presses where scripts listen to keys.
      const fast = await tabWalk(page, cdp, cap, keyListenersOf(await listeners()), session.signal);
      let positions = fast.positions;
      let walk = analyseWalk(positions);
      let state = await probe(page, (k) => k.state());
      lap(`walk (${positions.length} steps, ${fast.pressed} pressed${fast.why ? `: ${fast.why}` : ''})`);
      debug('walk', JSON.stringify(positions), walk, state, { tabbable });
      // Scripts that move focus from a timer race with quickly sent keys (two such timers can
      // bounce focus between elements for ever): walk again at a human pace, from a fresh page.
      // Not on a flow's end state: it cannot be loaded again without running the flow (and sending its forms) again.
      const paced = state.late > 0 && !session.fromFlow;
      if (paced) {
        await reloadPage(page, startUrl, 15_000);
        listening = null;
        await page.evaluate(installProbe);
        await probe(page, (k) => k.blur());
        await probe(page, (k) => k.settle(40, 300));
        tabbable = await probe(page, (k) => k.tabbable());
        positions = await slowWalk(page, Math.min(SLOW_PRESSES, 3 * tabbable.length + 10), session.signal);
        walk = analyseWalk(positions);
        state = await probe(page, (k) => k.state());
        debug('slow walk', JSON.stringify(positions), walk, state, { tabbable });
      }
      // A walk cut off by its cap (a page with hundreds of links) never reached the rest of the
      // page: elements there that listen to blur, focusout or keydown are tried as suspects too.
      const unreached = !walk.completed && !walk.stuck && positions.length >= cap ? unreachedGuards(tabbable, walk.order, (await listeners()).ids.guard ?? []) : [];
      const suspects = [...new Set([...walk.revisited, ...state.prevented.filter((p): p is number => typeof p === 'number'), ...state.scripted, ...unreached])].slice(0, SUSPECT_CAP);

      // 2. Focus visible, on the elements Tab reached (not where scripts bounce focus: focusing
      // and blurring there would set them off).
      if (!paced) {
        const ids = walk.order.filter((id) => !suspects.includes(id)).slice(0, FOCUS_CHECK_CAP);
        findings.push(...(await checkFocusVisible(page, ids)));
        lap('focus visible');
      }

      // 2b. The focus order against the order things are shown in (one finding per page at most).
      findings.push(...(await checkVisualOrder(page, walk.order.filter((id) => !suspects.includes(id)))));
      lap('visual order');

      // 3. Traps, only where the walk saw something odd.
      if (suspects.length > 0 && page.url() === startUrl) {
        const all = new Set([...tabbable, ...walk.order]);
        findings.push(...(await checkTraps(page, cdp, suspects, all, walk.order[0], session.signal)));
      }

      // 4. Things that look clickable but Tab cannot reach.
      findings.push(...(await checkNotFocusable(page, (await listeners()).ids.click ?? [])));
      lap('not focusable');

      // 5. Operating things with keys: dialogs, custom buttons, choices that change the context.
      // Operating the page may change it for good; a flow's end state could not be put back.
      if (page.url() === startUrl && !session.fromFlow && !session.signal?.aborted) {
        // Every request but what renders the page is refused while keys and clicks operate it (a
        // custom "Delete" button must not reach the site), and the page is then put back as it
        // loaded, by its address (a GET), before the network opens again.
        // Only pointing at things and focusing them (the hover check alone, when it pressed no
        // key and the page changed nothing in its DOM): nothing was operated, nothing to put back.
        let tried = false;
        const op = await withRequestsHeld(
          page,
          async () => {
            const l = await listeners();
            const r = await checkOperation(page, cdp, l.ids.hover ?? [], !!l.nowhere?.has('pointer'));
            tried = r.tried || r.changed;
            return r;
          },
          () => (tried ? startUrl : null),
        );
        findings.push(...op.findings);
        lap('operation');
      }
      return { findings };
    } finally {
      page.context().off('page', popups);
      await probe(page, (k, a: { x: number; y: number }) => k.restore(a.x, a.y), at).catch(() => {});
      await cdp?.detach().catch(() => {});
    }
  },
};

// ---- 2.1.2 ---------------------------------------------------------------------------------------

async function checkTraps(page: Page, cdp: CDPSession | null, suspects: number[], tabbable: ReadonlySet<number>, first: number | undefined, signal?: AbortSignal): Promise<FindingDraft[]> {
  const started = performance.now();
  await probe(page, (k, f: number | null) => k.edge(f), first ?? null);
  const out: FindingDraft[] = [];
  const seen = new Set<string>();
  const inLoops = new Set<number>();
  for (const id of suspects) {
    if (signal?.aborted || performance.now() - started > PROBE_BUDGET_MS) break;
    // One loop is tried once, from whichever of its elements comes first.
    if (inLoops.has(id)) continue;
    try {
      const trap = await trappedAt(page, id, tabbable);
      if (!trap) continue;
      for (const m of trap.cycle.members) inLoops.add(m);
      const members = [...trap.cycle.members].sort((a, b) => a - b);
      const key = members.join(',');
      if (seen.has(key)) continue;
      seen.add(key);
      const facts = await probe(page, trapFacts, { ids: members, exitSource: EXIT_CONTROL_NAME.source });
      const hints = keyHints(facts.text);
      // Keys the page names: does one of them let focus out?
      const freedBy = await freedByHints(page, hints, facts.firstId ?? members[0]!, members, trap.cycle.period, tabbable);
      if (freedBy) continue;
      const keyListeners = await hasKeyListeners(page, cdp, facts.firstId ?? members[0]!);
      const finding = trapFinding({ members, tried: trap.tried, hints, keyListeners }, facts);
      if (finding) out.push(finding);
    } catch {
      // a suspect that went away, a page that navigated: nothing to say about it
    }
  }
  return out;
}

type Listening = Listeners<'click' | 'hover' | 'guard' | 'keys', 'pointer'>;

/** Tabbable elements the walk did not reach that listen to blur, focusout or keydown themselves, in tab order. */
function unreachedGuards(tabbable: readonly number[], reached: readonly number[], guardIds: readonly number[]): number[] {
  const guards = new Set(guardIds);
  const seen = new Set(reached);
  return tabbable.filter((id) => guards.has(id) && !seen.has(id)).slice(0, SUSPECT_CAP);
}

// ---- 2.4.3 ---------------------------------------------------------------------------------------

async function checkVisualOrder(page: Page, order: number[]): Promise<FindingDraft[]> {
  try {
    const placed = await probe(page, placeAll, { ids: order, cap: ORDER_CAP });
    const found = visualOrderBreak(placed);
    if (!found) return [];
    const f = visualOrderFinding(found.kind, await probe(page, describeIds, found.ids));
    return f ? [f] : [];
  } catch {
    return [];
  }
}

// ---- 2.4.7 ---------------------------------------------------------------------------------------

async function checkFocusVisible(page: Page, ids: number[]): Promise<FindingDraft[]> {
  if (ids.length === 0) return [];
  const styles = await probe(page, compareStyles, ids);
  const plain = styles.filter((s) => !s.changed && !s.animates);
  if (plain.length === 0) return [];
  const failing = focusFailures(await focusMeasures(page, plain, PIXEL_CAP));
  if (failing.length === 0) return [];
  const described = await probe(page, describeIds, failing.map((f) => f.id));
  return focusVisibleFindings(failing, described, PIXEL_CAP);
}

// ---- 2.1.1 ---------------------------------------------------------------------------------------

async function checkNotFocusable(page: Page, listenerIds: number[]): Promise<FindingDraft[]> {
  try {
    const found = await probe(page, findFakeControls, { listenerIds, cap: FAKE_CAP });
    return found.map((f) => (f.roleless ? focusableNoRoleFinding(f) : notFocusableFinding(f)));
  } catch {
    return [];
  }
}

// ---- 2.1.1, 2.4.3, 3.2.2: operating with keys ----------------------------------------------------

/**
 * `tried`: something was pressed, clicked or changed, or the page's DOM changed while it was
 * pointed at (the page is then put back, whatever it showed).
 */
async function checkOperation(page: Page, cdp: CDPSession | null, hoverIds: number[], noPointerScripts: boolean): Promise<{ findings: FindingDraft[]; changed: boolean; tried: boolean }> {
  const endAt = performance.now() + OPERATE_BUDGET_MS;
  const fx = new EffectsRecorder(page);
  const out: FindingDraft[] = [];
  let changed = false;
  // Whether anything was operated (or may have been): what decides that the page is put back.
  let touched = false;
  const describe = async (ids: number[]): Promise<Array<Described | null>> => (ids.length ? probe(page, describeIds, ids) : []);
  try {
    const t0 = performance.now();
    const [dialogs, buttons, choices, hovers] = await Promise.all([
      probe(page, dialogTriggers, DIALOG_CAP),
      probe(page, activationCandidates, ACTIVATION_CAP),
      probe(page, choiceCandidates, CHOICE_CAP),
      probe(page, hoverCandidates, { listenerIds: hoverIds, cap: HOVER_CAP }),
    ]);
    debug('operate', { dialogs, buttons, choices, hovers, noPointerScripts });
    if (dialogs.length + buttons.length + choices.length + hovers.length === 0) return { findings: [], changed: false, tried: false };
    await fx.install();
    // A page that changes by itself (a clock, a carousel) makes every key look as if it did something.
    await fx.start(null);
    const restless = somethingHappened(await fx.read(150));
    debug('restless', restless, Math.round(performance.now() - t0), 'ms');

    // Choices first: they are put back, the others may leave the page changed.
    if (choices.length > 0) {
      touched = true;
      const r = await tryChoices(page, fx, choices, endAt);
      changed ||= r.changed;
      const ds = await describe(r.results.map((c) => c.id));
      r.results.forEach((c, i) => {
        const f = changeOnInputFinding(c, ds[i] ?? null);
        if (f) out.push(f);
      });
    }
    // Hovering changes nothing for good: before the checks that may leave the page changed.
    if (hovers.length > 0 && !restless) {
      await fx.start(null);
      const { found, pressed } = await tryHover(page, hovers, Math.min(endAt, performance.now() + HOVER_BUDGET_MS), noPointerScripts);
      const after = await fx.read(0);
      touched ||= pressed || after.mutations > 0 || contextChanged(after) || after.addressChanged || after.dialogs > 0;
      debug('hover', Math.round(performance.now() - t0), 'ms', { pressed, mutations: after.mutations });
      const ds = await describe(found.map((h) => h.id));
      found.forEach((h, i) => {
        const f = hoverOnlyFinding(h, ds[i] ?? null);
        if (f) out.push(f);
      });
    }
    if (buttons.length > 0 && !restless) {
      touched = true;
      const r = await tryActivation(page, fx, buttons, endAt);
      changed ||= r.changed;
      const ds = await describe(r.results.map((a) => a.id));
      r.results.forEach((a, i) => {
        const f = activationFinding(a, ds[i] ?? null);
        if (f) out.push(f);
      });
    }
    if (dialogs.length > 0 && performance.now() < endAt) {
      touched = true;
      const unreachable = new Map<number, number>();
      const r = await probeDialogs(page, fx, dialogs, endAt, async ({ dialog }) => {
        const listenerIds = await clickListenerIds(page, cdp);
        const fakes = await probe(page, findFakeControls, { listenerIds, cap: 5, within: dialog });
        unreachable.set(dialog, fakes.length);
        out.push(...fakes.map((f) => notFocusableFinding(f, true)));
      });
      changed ||= r.changed || r.results.length > 0;
      for (const p of r.results) {
        const [dd, td] = await describe([p.dialog, p.trigger]);
        for (const f of [dialogFocusFinding(p, dd ?? null), dialogEscapeFinding(p, dd ?? null, unreachable.get(p.dialog) ?? 0), dialogTriggerFinding(p, td ?? null)]) if (f) out.push(f);
      }
    }
  } catch (err) {
    touched = true;
    debug('operate failed', err);
  } finally {
    await fx.remove();
  }
  return { findings: out, changed, tried: touched };
}
