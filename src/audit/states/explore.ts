import type { JSHandle, Page } from 'playwright';
import type { InteractionState } from '../../shared/contracts.ts';
import type { FindingDraft } from '../../shared/findings.ts';
import { boundedSelector } from '../../shared/limits.ts';
import { mergeFindings } from '../findings/findings.ts';
import { ensureInPage } from '../session/in-page.ts';
import { checkRevealed } from './check-revealed.ts';
import { findTriggers, interleaveByKind } from './find-triggers.ts';
import { createProbe, handleIn, inPage, type Probe, type RestoredCheck, type TriggerInfo } from './probe.ts';

/** How far a page's states are explored (SCAN_STATES_MAX, SCAN_STATES_BUDGET_MS); either 0 turns it off. */
export interface StateExplorationOptions {
  /** States opened at most per page. */
  maxStates: number;
  /** Time per page for finding, opening, checking and closing states; the state under way is finished and put back. */
  budgetMs: number;
}

export interface ExploreContext {
  /** The page in its default state, already checked by the engines. */
  page: Page;
  signal?: AbortSignal;
  /** Every finding of the default state (before merging): a state never repeats one (same rule and element). */
  known: readonly FindingDraft[];
  /** `performance.now()` of the scan's hard limit: exploring stops early enough to leave the page as it was. */
  deadlineAt?: number;
  /** Loads the page afresh in its tab; resolves to the page, or null when it did not load. */
  reload: () => Promise<Page | null>;
}

export interface ExploreResult {
  /** Findings only a state revealed, each with the `state` that revealed it. */
  findings: FindingDraft[];
  ms: number;
  /** Triggers found, and states opened. */
  triggers: number;
  opened: number;
  /** Reloads needed because a state could not be closed. */
  reloads: number;
  /** The triggers (as in `state.target`) whose state was opened and checked: only their issues can be found fixed. */
  checked: string[];
  /** Why exploring stopped early or went wrong (the findings so far stand). */
  error?: string;
}

/** Elements the probe looks at, at most. */
const MAX_ELEMENTS = 50_000;
const TRIGGER_LIMITS = { maxTriggers: 100, maxExamined: 2000, maxLabel: 120 };
/** A click waits this long at most for its control to be actionable (covered, moving, detached: skipped). */
const CLICK_MS = 1500;
/** After a click: a quiet spell without DOM changes or finite animations, within a bound. */
const OPEN_QUIET_MS = 120;
const OPEN_SETTLE_MS = 1000;
const CLOSE_SETTLE_MS = 500;
/** Revealed subtrees checked per state, at most; a changed element with more descendants than this is not re-checked itself. */
const MAX_ROOTS = 50;
const MAX_CHANGED_SUBTREE = 200;
/** One in-page call past this is a page that does not answer: exploring stops. */
const STEP_MS = 10_000;
/** Left before the scan's deadline: room to load the page again when a state could not be closed. */
const DEADLINE_RESERVE_MS = 10_000;
/** Exploring is cut off this long before the scan's deadline, whatever it is waiting for. */
const HARD_STOP_MS = 2000;

class StateStepTimeout extends Error {}

/**
 * Opens the page's states one at a time (see find-triggers.ts for which), in kinds taken in turn,
 * until `maxStates` are opened or the budget is spent. For each: the visible elements are noted,
 * the trigger is clicked (a `<details>` is opened), the page settles, and axe checks only what
 * appeared or changed; then the state is closed again (the original tab selected, the details
 * closed, Escape, the trigger clicked again, new dialogs and popovers closed) and the page is
 * compared with how it was. A page that is not back, or whose address changed, is loaded again
 * and exploring goes on with the triggers not yet opened. The tab holds the page's requests once
 * it loaded (request-hold.ts), so a click can neither leave the page, nor send a form, a beacon,
 * a POST or a DELETE to the server, nor open a window.
 * Never throws but for cancellation: a page whose states fail keeps its default-state results.
 */
export async function exploreStates(ctx: ExploreContext, opts: StateExplorationOptions): Promise<ExploreResult> {
  const t0 = performance.now();
  const deadlineAt = ctx.deadlineAt ?? Number.POSITIVE_INFINITY;
  const endAt = Math.min(t0 + opts.budgetMs, deadlineAt - DEADLINE_RESERVE_MS);
  const canReload = () => deadlineAt - performance.now() > DEADLINE_RESERVE_MS;
  const seen = new Set(ctx.known.map(findingKey));
  const result: ExploreResult = { findings: [], ms: 0, triggers: 0, opened: 0, reloads: 0, checked: [] };
  const done = new Set<string>();
  let page = ctx.page;
  let probe: JSHandle<Probe> | undefined;
  /** Whether the page may be in a state other than its default one. */
  let dirty = false;

  const discover = async (): Promise<TriggerInfo[]> => {
    await probe?.dispose().catch(() => {});
    probe = undefined;
    await within(ensureInPage(page), 'setting up');
    probe = (await within(page.evaluateHandle(createProbe, MAX_ELEMENTS), 'setting up')) as unknown as JSHandle<Probe>;
    const found = await within(findTriggers(page, probe, TRIGGER_LIMITS), 'finding triggers');
    return interleaveByKind(found).filter((t) => !done.has(triggerKey(t)));
  };

  const explore = async () => {
    let pending = await discover();
    result.triggers = pending.length;
    while (pending.length > 0 && result.opened < opts.maxStates && !stopped) {
      ctx.signal?.throwIfAborted();
      if (performance.now() >= endAt) {
        result.error = `time budget spent after ${result.opened} of ${Math.min(result.triggers, opts.maxStates)} states`;
        break;
      }
      const trigger = pending.shift()!;
      done.add(triggerKey(trigger));
      result.opened++;
      dirty = true;
      const out = await openState(page, probe!, trigger, endAt);
      if (stopped) break;
      const state: InteractionState = { action: 'click', target: boundedSelector(trigger.selector), label: trigger.label };
      const fresh = out.findings.filter((f) => !seen.has(findingKey(f)));
      for (const f of fresh) seen.add(findingKey(f));
      result.findings.push(...mergeFindings(fresh).map((f) => ({ ...f, data: { ...f.data, engine: 'axe' }, state })));
      if (out.checked) result.checked.push(state.target);
      if (out.restored.same) {
        dirty = false;
        continue;
      }
      // Not back as it was: load the page again and go on with the triggers not opened yet.
      if (!canReload()) {
        result.error = `the page was not put back after "${trigger.label}" (${out.restored.why}), and the scan's time is nearly up`;
        break;
      }
      result.reloads++;
      const again = await ctx.reload();
      if (!again) {
        result.error = `the page was not put back after "${trigger.label}" (${out.restored.why}) and did not load again`;
        dirty = false;
        break;
      }
      page = again;
      dirty = false;
      pending = performance.now() < endAt ? await discover() : [];
    }
  };

  // Whatever a step waits for, exploring ends before the scan's deadline, so that the page's
  // default-state results are kept rather than lost to the deadline.
  let stopped = false;
  let stopTimer: ReturnType<typeof setTimeout> | undefined;
  const hardStop = new Promise<never>((_, reject) => {
    const left = deadlineAt - HARD_STOP_MS - performance.now();
    if (Number.isFinite(left)) stopTimer = setTimeout(() => reject(new StateStepTimeout("the scan's deadline is near")), Math.max(0, left));
  });
  hardStop.catch(() => {});
  try {
    // Already past the end: say which bound it was (the budget itself, or the scan's deadline).
    if (performance.now() >= endAt) result.error = t0 + opts.budgetMs <= deadlineAt - DEADLINE_RESERVE_MS ? 'time budget spent before any state was opened' : "no time left before the scan's deadline";
    else await Promise.race([explore(), hardStop]);
  } catch (err) {
    stopped = true;
    ctx.signal?.throwIfAborted();
    result.error = `exploring states stopped: ${String((err as Error)?.message ?? err).split('\n')[0]!.slice(0, 200)}`;
    // A page that stopped answering is left to the scan's deadline; one that answers is put back.
    if (dirty && !(err instanceof StateStepTimeout) && canReload()) {
      result.reloads++;
      await Promise.race([ctx.reload().catch(() => null), hardStop.catch(() => null)]);
    }
  } finally {
    stopped = true;
    clearTimeout(stopTimer);
    await probe?.dispose().catch(() => {});
  }
  result.ms = Math.round(performance.now() - t0);
  // A copy: a step still under way when the hard stop came must not change what was returned.
  return { ...result, findings: [...result.findings] };
}

/** Opens one state, checks what it revealed and closes it again; says whether the page is back. */
async function openState(
  page: Page,
  probe: JSHandle<Probe>,
  t: TriggerInfo,
  endAt: number,
): Promise<{ findings: FindingDraft[]; checked: boolean; restored: RestoredCheck }> {
  const url = page.url();
  await page.mouse.move(0, 0).catch(() => {});
  await within(inPage(page, (p: Probe) => p.snapshot(), probe), 'noting the page');
  if (t.kind === 'details') {
    await within(inPage(page, ([p, i]: [Probe, number]) => p.setDetails(i, true), [probe, t.index]), 'opening');
  } else {
    await clickIn(page, probe, 'trigger', t.index, Math.max(200, Math.min(CLICK_MS, endAt - performance.now())));
  }
  await within(inPage(page, ([p, q, m]: [Probe, number, number]) => p.settle(q, m), [probe, OPEN_QUIET_MS, OPEN_SETTLE_MS]), 'settling');
  if (page.url() !== url) return { findings: [], checked: false, restored: { same: false, why: 'the address changed' } };
  const roots = await within(inPage(page, ([p, r, c]: [Probe, number, number]) => p.revealed(r, c), [probe, MAX_ROOTS, MAX_CHANGED_SUBTREE]), 'finding what appeared');
  const findings = roots > 0 ? await within(checkRevealed(page, probe), 'checking what appeared') : [];
  return { findings, checked: true, restored: await closeState(page, probe, t) };
}

/**
 * Puts the page back: the way the state's kind closes first, then the general ways, and the web
 * storage the click may have written. A script's toggle (kind `script`) is clicked again only when
 * the page is not back already (a click that changed nothing is not repeated).
 */
async function closeState(page: Page, probe: JSHandle<Probe>, t: TriggerInfo): Promise<RestoredCheck> {
  const check = async () => {
    await page.mouse.move(0, 0).catch(() => {});
    await within(inPage(page, ([p, q, m]: [Probe, number, number]) => (p.blur(), p.settle(q, m)), [probe, OPEN_QUIET_MS, CLOSE_SETTLE_MS]), 'settling');
    return within(inPage(page, (p: Probe) => p.restored(), probe), 'comparing');
  };
  try {
    if (t.kind === 'details') {
      await within(inPage(page, (p: Probe) => p.restoreDetails(), probe), 'closing');
    } else if (t.kind === 'tab') {
      await clickIn(page, probe, 'selectedTab', t.index, CLICK_MS);
    } else {
      const modal = await within(inPage(page, (p: Probe) => p.modalOpen(), probe), 'closing');
      const expanded = await within(inPage(page, ([p, i]: [Probe, number]) => p.expanded(i), [probe, t.index]), 'closing');
      if (t.kind === 'script' && !modal) {
        const already = await within(inPage(page, (p: Probe) => p.restored(), probe), 'comparing');
        if (already.same) return already;
      }
      // A modal dialog keeps the trigger out of reach; a disclosure or a script's toggle closes as it opened.
      if (!modal && (expanded === 'true' || t.kind === 'script')) await clickIn(page, probe, 'trigger', t.index, CLICK_MS);
      else await page.keyboard.press('Escape').catch(() => {});
    }
    const first = await check();
    if (first.same) return first;
    // The general ways: Escape, then whatever dialog, popover or details the state left open.
    await page.keyboard.press('Escape').catch(() => {});
    await within(inPage(page, (p: Probe) => (p.closeNew(), p.restoreDetails()), probe), 'closing');
    return await check();
  } finally {
    await within(inPage(page, (p: Probe) => p.restoreStorage(), probe), 'putting storage back').catch(() => {});
  }
}

/** Clicks the trigger, or the tab selected before it (skipped when there is none, or it cannot be clicked in time). */
async function clickIn(page: Page, probe: JSHandle<Probe>, which: 'trigger' | 'selectedTab', index: number, timeout: number): Promise<boolean> {
  const handle = await within(
    handleIn(page, ([p, i, w]: [Probe, number, string]) => (w === 'trigger' ? p.triggers[i]?.el : p.triggers[i]?.selectedTab) ?? null, [probe, index, which]),
    'finding the control',
  );
  const el = handle.asElement();
  try {
    if (!el) return false;
    await el.click({ timeout });
    return true;
  } catch {
    return false;
  } finally {
    await handle.dispose().catch(() => {});
  }
}

/** Rejects when `promise` takes longer than STEP_MS (a page that stopped answering). */
async function within<T>(promise: Promise<T>, what: string): Promise<T> {
  promise.catch(() => {});
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([promise, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new StateStepTimeout(`the page did not answer while ${what}`)), STEP_MS)))]);
  } finally {
    clearTimeout(timer);
  }
}

function findingKey(f: Pick<FindingDraft, 'ruleId' | 'elementSelector'>): string {
  return `${f.ruleId}\u0000${f.elementSelector}`;
}

function triggerKey(t: TriggerInfo): string {
  return `${t.kind}\u0000${t.selector}`;
}
