import type { Browser, Page } from 'playwright';
import { unfinishedEngines, type PageError, type ScanStage, type ViewportName } from '../shared/contracts.ts';
import type { ViewportSetup } from '../shared/viewports.ts';
import type { TargetPolicy } from '../security/target-policy.ts';
import { mergeFindings } from './findings/findings.ts';
import type { FindingDraft, PassedRule } from '../shared/findings.ts';
import type { BlockedRequest } from './session/egress-proxy.ts';
import { DEFAULT_ENGINES, type PageSession, type ScanEngine } from './engines/index.ts';
import { openTab, type Tab, type Throttle } from './session/page-session.ts';
import type { FlowRunResult } from './session/flow-runner.ts';
import { screenshotFindings, type FindingScreenshot, type ScreenshotHook } from './screenshots/capture.ts';
import { collectRenderedView, splitView } from './links/collect-links.ts';
import type { RenderedView } from './links/rendered-view.ts';
import { exploreStates, type StateExplorationOptions } from './states/explore.ts';
import { collectJudgementCandidates } from './judgement/collect.ts';
import type { PageCandidates } from '../shared/judgement.ts';
import { buildManifest, type ResourceManifest } from './reuse/manifest.ts';
import { mentionsAny, scrubberFor, scrubDeep, withoutFieldValues } from '../shared/typed-values.ts';

export interface ScanUrlOptions {
  /** The slot's tab to load the page in (kept open for the next page unless it broke or hung). */
  tab?: Tab;
  /** Without `tab`: a tab of its own is opened in this browser and closed afterwards. */
  browser?: Browser;
  policy: TargetPolicy;
  pageLoadTimeoutMs: number;
  /** Called as each stage starts, so callers can report progress and heartbeat. */
  onStage?: (stage: ScanStage) => Promise<void> | void;
  /** Aborting closes the tab, which ends whatever the page is doing. */
  signal?: AbortSignal;
  /** The engines to run, in order; the production set unless a test or the harness picks others. */
  engines?: readonly ScanEngine[];
  /**
   * The whole scan's hard limit (load, settle, every engine): past it the tab is closed, whatever
   * it is doing (a script that never yields included), and the page ends in a `timeout` error.
   */
  deadlineMs?: number;
  /**
   * A site's scripted flow (its page stands for the flow's end state): the tab loads `startUrl`
   * instead of `url`, `run` acts on the loaded page, and the engines check where it ended.
   */
  flow?: {
    startUrl: string;
    run: (page: Page, signal?: AbortSignal) => Promise<FlowRunResult>;
    /** Called once the flow's steps are done, before anything is checked: what it sent is sent, and it must never run again for this page. */
    onRan?: () => Promise<void>;
    /** What its steps type and pick: scrubbed from everything the scan returns. */
    typed?: readonly string[];
  };
  /**
   * With `flow`: the crawl's other viewports, each with its engines. The flow's end state is checked
   * at each in the same tab, its window changed, rather than running the flow again per viewport.
   */
  laterViewports?: ReadonlyArray<{ viewport: ViewportName; setup: ViewportSetup; engines: readonly ScanEngine[] }>;
  /** Pictures of (some of) the default state's findings, taken right after the engines ran; unset: none. */
  screenshots?: ScreenshotHook;
  /** Read the rendered page's links and view (crawl pages: rendered discovery) after it settled, before the engines run. */
  collectLinks?: boolean;
  /** The states a click opens (menus, details, tabs, dialogs), checked after the default state; unset or 0: none. */
  states?: StateExplorationOptions;
  /** Collect the candidates of AI-assisted judgement from the default state (only when a model is configured). */
  judgementCandidates?: boolean;
  /** Record what the page loaded for its audit (crawl pages: page reuse's manifest). */
  recordResources?: boolean;
}

export const DEFAULT_SCAN_DEADLINE_MS = 120_000;

/**
 * The part of the scan's deadline kept free of the engines after axe, for what comes after them
 * (pictures, closing a tab whose engine was cut off, storing): at most 15 s, a fifth of a short
 * deadline. An engine still running when only this much is left is stopped where it is and the
 * page keeps the findings of the engines that finished (`EngineRun.unfinished`).
 */
export function enginesEndAt(deadlineAt: number, deadlineMs: number): number {
  return deadlineAt - Math.min(15_000, deadlineMs / 5);
}

/** What one engine found on the page before merging (superseded findings included), and how long it took. */
export interface EngineRun {
  engine: string;
  ms: number;
  findings: FindingDraft[];
  /** Set when the engine threw: the others still ran. */
  error?: string;
  /**
   * The engine did not finish on this page, so the page's scan is incomplete for its rules:
   * `out_of_time` (stopped at the engines' share of the deadline, or never started because it
   * had passed) or `failed` (it threw). Its findings are missing, not absent.
   */
  unfinished?: 'out_of_time' | 'failed';
}

/** A flow's end state checked at one more viewport (see `ScanUrlOptions.laterViewports`). */
export interface LaterViewportRun {
  viewport: ViewportName;
  findings: FindingDraft[];
  engines: EngineRun[];
  passes: PassedRule[];
}

export type ScanUrlResult =
  | {
      kind: 'scanned';
      pageTitle: string | null;
      finalUrl: string;
      httpStatus: number | null;
      findings: FindingDraft[];
      passes: PassedRule[];
      blocked: BlockedRequest[];
      engines: EngineRun[];
      /** The pictures taken (see `ScanUrlOptions.screenshots`), by rule and element. */
      screenshots?: FindingScreenshot[];
      /** With `collectLinks`: the rendered page's links (absolute, deduplicated, bounded); absent without. */
      links?: string[];
      /** The triggers (`state.target`) whose states were opened and checked; empty without states. */
      statesChecked: string[];
      /** With `collectLinks`: the rendered view's facts, null when they could not be read. */
      view?: Omit<RenderedView, 'links'> | null;
      /** With `judgementCandidates`: what the model is to judge; absent without, or when the page would not tell. */
      candidates?: PageCandidates;
      /** With `flow` and `laterViewports`: the end state's findings at each later viewport. */
      laterViewports?: LaterViewportRun[];
      /** With `recordResources`: what the page loaded for its audit, and whether a later crawl can check it again. */
      manifest?: ResourceManifest;
      /** An engine was stopped mid-way at the engines' share of the deadline: the tab was closed after it (nothing after the engines ran). */
      cutOff?: boolean;
      /** Set when the URL is a document (a PDF) audited by the document engine, not a page loaded in the browser. */
      document?: { mediaType: string; bytes: number; pages: number };
    }
  /** `throttle`: the site answered 429 or 503 to the page or to what it needs to render (see page-session.ts). */
  | { kind: 'page-error'; error: PageError; finalUrl: string | null; httpStatus: number | null; throttle?: Throttle };

/**
 * Loads one URL in the slot's tab (or a tab of its own), runs every engine on it in turn and
 * merges their findings: one per element and criterion. axe's findings are needed; an own check
 * that throws on a page is logged in `engines` and the scan goes on without it. A renderer crash
 * is thrown, with `tab.crashed` set, for the caller to retry in a new tab.
 */
export async function scanUrl(url: string, opts: ScanUrlOptions): Promise<ScanUrlResult> {
  const deadlineMs = opts.deadlineMs ?? DEFAULT_SCAN_DEADLINE_MS;
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), deadlineMs);
  const deadlineAt = performance.now() + deadlineMs;
  const signal = opts.signal ? AbortSignal.any([opts.signal, deadline.signal]) : deadline.signal;
  const runOpts: RunOptions = { ...opts, signal, deadlineAt, enginesEndAt: enginesEndAt(deadlineAt, deadlineMs) };
  // Settles when the deadline passes, even if closing the tab does not end a pending call.
  const expired = new Promise<'expired'>((resolve) => deadline.signal.addEventListener('abort', () => resolve('expired'), { once: true }));
  if (!opts.tab && !opts.browser) throw new Error('scanUrl needs a tab or a browser');
  const tab = opts.tab ?? (await openTab({ browser: opts.browser!, policy: opts.policy, pageLoadTimeoutMs: opts.pageLoadTimeoutMs }));
  // Cancelled or past the deadline: closing the tab ends whatever the page is doing.
  const onAbort = () => void tab.close();
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    // A page that loaded is checked whatever it does next: a document that went away under the
    // checks (a navigation of its own that slipped through before it was held still) is loaded
    // once more. A flow is never run twice (it would send its forms again).
    const scan = () =>
      recorded(url, opts, tab, () =>
        runScan(url, runOpts, tab).catch((err: unknown) => {
          if (opts.flow || signal.aborted || tab.broken || !DOCUMENT_GONE.test(String(err))) throw err;
          return runScan(url, runOpts, tab);
        }),
      );
    const outcome = await Promise.race([scan(), expired]).catch((err: unknown) => {
      if (deadline.signal.aborted && !opts.signal?.aborted && !tab.crashed) return 'expired' as const;
      throw err;
    });
    if (outcome !== 'expired') {
      // The engine that was cut off may still be running in the page: the slot gets a fresh tab.
      if (outcome.kind === 'scanned' && outcome.cutOff) await Promise.race([tab.close(), new Promise((r) => setTimeout(r, 5000))]);
      return outcome;
    }
    opts.signal?.throwIfAborted();
    return {
      kind: 'page-error',
      error: { code: 'timeout', message: `the page was still not checked after ${Math.round(deadlineMs / 1000)} s (a page that never settles or a script that never yields); the scan stopped it` },
      finalUrl: null,
      httpStatus: null,
    };
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
    // Closing a context whose renderer is stuck may itself take a while: never wait long for it.
    if (!opts.tab || signal.aborted) await Promise.race([tab.close(), new Promise((r) => setTimeout(r, 5000))]);
  }
}

/**
 * Runs the scan while the tab records what the page loads, and adds the manifest to a scanned
 * result: everything the audit fetched, from the page's load to its last check (states, reloads).
 * A flow's end state is never reused (its flow sends forms), so it records nothing.
 */
async function recorded(url: string, opts: ScanUrlOptions, tab: Tab, run: () => Promise<ScanUrlResult>): Promise<ScanUrlResult> {
  if (!opts.recordResources || opts.flow) return run();
  const recording = tab.recordResources();
  let result: ScanUrlResult | undefined;
  try {
    result = await run();
  } finally {
    const seen = await recording.stop();
    if (result?.kind === 'scanned') {
      // An audit some engine did not finish is not one to stand for a later crawl's.
      const [unfinished] = unfinishedEngines(result.engines);
      result.manifest = unfinished
        ? { usable: false, reason: `the ${unfinished.engine} engine did not finish (${unfinished.reason})` }
        : buildManifest(url, seen, { refusedByProxy: result.blocked.length });
    }
  }
  return result;
}

/** What a check throws when the document it was looking at went away (the page navigated). */
const DOCUMENT_GONE = /Execution context was destroyed|most likely because of a navigation|frame was detached|Cannot find context with specified id/i;

type RunOptions = ScanUrlOptions & { deadlineAt?: number; enginesEndAt?: number };

/** The engines' share of the deadline has passed (see `enginesEndAt`). */
const pastEngines = (opts: RunOptions) => opts.enginesEndAt !== undefined && performance.now() >= opts.enginesEndAt;

async function runScan(url: string, opts: RunOptions, tab: Tab): Promise<ScanUrlResult> {
  const engines = opts.engines ?? DEFAULT_ENGINES;
  let loaded = await tab.load(opts.flow?.startUrl ?? url, { signal: opts.signal, onLoading: () => opts.onStage?.('Loading') });
  if (loaded.kind === 'page-error') return loaded;
  if (opts.flow) {
    const ran = await opts.flow.run(loaded.page, opts.signal);
    if (ran.kind === 'page-error') return ran;
    // From here on the flow has sent what it sends: it is never run again for this page.
    await opts.flow.onRan?.();
    loaded = { ...loaded, ...ran.end, httpStatus: ran.end.httpStatus ?? loaded.httpStatus };
  }
  // The DOM the engines are about to see, before any of them touches it.
  const rendered = opts.collectLinks ? await collectRenderedView(loaded.page) : undefined;
  // What the site's login and the flow typed (and the set-up's other secrets) must not be stored:
  // scrubbed from the results below, and no picture is taken of a page that shows one.
  const secrets = [...tab.secrets(), ...(opts.flow?.typed ?? [])];
  const showsSecret = secrets.length > 0 && (await pageMentions(loaded.page, secrets));
  const session = { page: loaded.page, url, finalUrl: loaded.finalUrl, pageTitle: loaded.pageTitle, signal: opts.signal, fromFlow: !!opts.flow, earlier: [] as FindingDraft[], engineIds: engines.map((e) => e.id), layouts: {} };
  const { findings, all, runs, passes, cutOff } = await runEngines(session, engines, opts, tab);
  // An engine stopped mid-way may have left the page changed (its viewport, styles, focus) or busy
  // in a script: nothing more is read from it, and the tab is closed (scanUrl) for a fresh one.
  /** The page's result: what every scan has, and what this one got beyond it (states, pictures, ...). */
  const scanned = (more: Partial<Extract<ScanUrlResult, { kind: 'scanned' }>>): ScanUrlResult =>
    scrubbed(secrets, !!opts.flow, {
      kind: 'scanned',
      pageTitle: loaded.pageTitle,
      finalUrl: loaded.finalUrl,
      httpStatus: loaded.httpStatus,
      findings,
      passes,
      blocked: [...loaded.blocked],
      engines: runs,
      statesChecked: [],
      ...(rendered !== undefined ? splitView(rendered) : {}),
      ...more,
    });
  if (cutOff) return scanned({ cutOff: true });
  // While the page is still in the state its findings were found in; bounded, never fails the scan.
  const screenshots = opts.screenshots && !showsSecret ? await screenshotFindings(loaded.page, findings, opts.screenshots, opts.signal) : undefined;
  // Bounded and never failing the scan, like the pictures; nothing at all without a model.
  const candidates = opts.judgementCandidates ? await collectJudgementCandidates(loaded.page, findings) : undefined;
  // Then the states a click opens: only what each reveals is checked, and the page is put back.
  let statesChecked: string[] = [];
  if (opts.states && opts.states.maxStates > 0 && opts.states.budgetMs > 0 && !pastEngines(opts)) {
    // A state that could not be closed: the page is loaded again. A flow's end state is not
    // reached again (that would send its forms once more): exploring stops there instead.
    const reload = async () => {
      if (opts.flow) return null;
      const again = await tab.load(url, { signal: opts.signal });
      return again.kind === 'loaded' ? again.page : null;
    };
    const s = await exploreStates({ page: loaded.page, signal: opts.signal, known: all, deadlineAt: opts.deadlineAt, reload }, opts.states);
    runs.push({ engine: 'states', ms: s.ms, findings: s.findings, ...(s.error ? { error: s.error } : {}) });
    findings.push(...s.findings);
    statesChecked = s.checked;
  }
  // A flow's end state at the crawl's other viewports: the same page, its window changed, so the
  // flow is run once however many viewports the crawl has.
  const laterViewports: LaterViewportRun[] = [];
  for (const later of opts.flow ? (opts.laterViewports ?? []) : []) {
    if (opts.signal?.aborted || tab.broken || pastEngines(opts)) break;
    const out = await atViewport(loaded.page, later.setup, () => runEngines({ ...session, engineIds: later.engines.map((e) => e.id), layouts: {} }, later.engines, opts, tab));
    laterViewports.push({ viewport: later.viewport, findings: out.findings, engines: out.runs, passes: out.passes });
    if (out.cutOff) break;
  }
  return scanned({
    statesChecked,
    ...(laterViewports.length ? { laterViewports } : {}),
    ...(screenshots ? { screenshots } : {}),
    ...(candidates ? { candidates } : {}),
  });
}

/** Whether the page's text or its fields' values show any of `values` (then it gets no pictures). */
async function pageMentions(page: Page, values: readonly string[]): Promise<boolean> {
  const text = await page
    .evaluate(() => [document.title, document.body?.innerText ?? '', ...Array.from(document.querySelectorAll('input, textarea, select'), (f) => (f as HTMLInputElement).value)].join('\n'))
    .catch(() => '');
  return mentionsAny(text, values);
}

/**
 * The scan's results with `secrets` scrubbed from its findings (every text, the element's HTML
 * and selector), the page's title and the model's candidates; a flow's end state also loses its
 * fields' values from the elements' HTML.
 */
/** A scanned result with `secrets` scrubbed from every text it stores (and, after a flow, fields' values from its HTML). */
export function scrubbed(secrets: readonly string[], fromFlow: boolean, r: Extract<ScanUrlResult, { kind: 'scanned' }>): ScanUrlResult {
  const scrub = scrubberFor(secrets);
  if (!scrub && !fromFlow) return r;
  const text = scrub ?? ((t: string) => t);
  const finding = (f: FindingDraft): FindingDraft => {
    const clean = scrubDeep(f, text);
    return fromFlow ? { ...clean, elementHtml: withoutFieldValues(clean.elementHtml) } : clean;
  };
  return {
    ...r,
    pageTitle: r.pageTitle === null ? null : text(r.pageTitle),
    findings: r.findings.map(finding),
    engines: r.engines.map((e) => ({ ...e, findings: e.findings.map(finding) })),
    ...(r.laterViewports ? { laterViewports: r.laterViewports.map((v) => ({ ...v, findings: v.findings.map(finding), engines: v.engines.map((e) => ({ ...e, findings: e.findings.map(finding) })) })) } : {}),
    ...(r.candidates ? { candidates: scrubDeep(r.candidates, text) } : {}),
  };
}

/**
 * Runs `engines` on the page in turn and merges their findings: one per element and criterion
 * (`all` keeps them before merging). axe's findings are needed; an own check that throws is
 * logged in `runs` and the others go on. Past the engines' share of the deadline
 * (`opts.enginesEndAt`) the engine running is stopped where it is (`cutOff`: the page may be left
 * changed) and the ones after it are not started; each is marked `unfinished` in `runs`, and the
 * findings of the engines that finished stand. axe itself is not cut off: without its findings
 * the page has no audit, and the scan's hard deadline ends it.
 */
async function runEngines(
  session: PageSession,
  engines: readonly ScanEngine[],
  opts: RunOptions,
  tab: Tab,
): Promise<{ findings: FindingDraft[]; all: FindingDraft[]; runs: EngineRun[]; passes: PassedRule[]; cutOff: boolean }> {
  const runs: EngineRun[] = [];
  // Findings still standing, per engine run: a later engine may withdraw earlier ones it measured.
  const kept: FindingDraft[][] = [];
  const current = () => kept.flat();
  const passes: PassedRule[] = [];
  let stage: ScanStage | undefined;
  let cutOff = false;
  const scanSignal = session.signal;
  for (const engine of engines) {
    opts.signal?.throwIfAborted();
    const first = engine === engines[0];
    if (cutOff || (!first && pastEngines(opts))) {
      runs.push({ engine: engine.id, ms: 0, findings: [], unfinished: 'out_of_time' });
      continue;
    }
    if (engine.stage !== stage) {
      stage = engine.stage;
      await opts.onStage?.(stage);
    }
    const started = performance.now();
    // The engine's own signal: aborted at the engines' share of the deadline, so that it stops between its steps.
    const own = new AbortController();
    const timer = !first && opts.enginesEndAt !== undefined ? setTimeout(() => own.abort(), Math.max(0, opts.enginesEndAt - performance.now())) : undefined;
    try {
      session.earlier = current();
      session.signal = scanSignal ? AbortSignal.any([scanSignal, own.signal]) : own.signal;
      const running = engine.run(session);
      const out = timer ? await Promise.race([running, outOfTime(own.signal)]) : await running;
      if (out === OUT_OF_TIME) {
        running.catch(() => {});
        cutOff = true;
        kept.push([]);
        runs.push({ engine: engine.id, ms: Math.round(performance.now() - started), findings: [], unfinished: 'out_of_time' });
        continue;
      }
      if (out.supersedes?.length) {
        const gone = new Set(out.supersedes.map((s) => `${s.ruleId}\u0000${s.selector}`));
        for (let i = 0; i < kept.length; i++) kept[i] = kept[i]!.filter((f) => !gone.has(`${f.ruleId}\u0000${f.elementSelector}`));
      }
      const findings = out.findings.map((f) => ({ ...f, data: { ...f.data, engine: engine.id } }));
      kept.push(findings);
      runs.push({ engine: engine.id, ms: Math.round(performance.now() - started), findings });
      passes.push(...(out.passes ?? []));
    } catch (err) {
      opts.signal?.throwIfAborted();
      // axe is the floor of every scan; a page that breaks it breaks the scan (and a dead
      // browser must reach the activity's retry).
      if (engine === engines[0] || tab.broken) throw err;
      kept.push([]);
      // Returned after the engines' share of the deadline by an engine that gave up when told to stop.
      const late = own.signal.aborted;
      cutOff ||= late;
      runs.push({ engine: engine.id, ms: Math.round(performance.now() - started), findings: [], error: (err as Error).message.slice(0, 300), unfinished: late ? 'out_of_time' : 'failed' });
    } finally {
      clearTimeout(timer);
      session.signal = scanSignal;
    }
  }
  // Confirmed first, so that a confirmed finding wins over another engine's needs-review one.
  const all = current();
  const findings = mergeFindings([...all.filter((f) => f.type === 'confirmed'), ...all.filter((f) => f.type !== 'confirmed')]);
  return { findings, all, runs, passes, cutOff };
}

const OUT_OF_TIME = Symbol('out of time');

/** Settles with `OUT_OF_TIME` when `signal` aborts. */
function outOfTime(signal: AbortSignal): Promise<typeof OUT_OF_TIME> {
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(OUT_OF_TIME), { once: true }));
}

/**
 * Runs `fn` with the page rendered as `setup` (size, pixel ratio, phone, touch), by DevTools on
 * the page as it is, and puts the tab's own window back after. Only a flow's end state is checked
 * this way: any other page gets a tab of each viewport's own.
 */
async function atViewport<T>(page: Page, setup: ViewportSetup, fn: () => Promise<T>): Promise<T> {
  const own = page.viewportSize();
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('Emulation.setDeviceMetricsOverride', {
      width: setup.width,
      height: setup.height,
      deviceScaleFactor: setup.deviceScaleFactor,
      mobile: setup.isMobile,
      screenWidth: setup.width,
      screenHeight: setup.height,
    });
    await cdp.send('Emulation.setTouchEmulationEnabled', { enabled: setup.hasTouch, ...(setup.hasTouch ? { maxTouchPoints: 1 } : {}) });
    return await fn();
  } finally {
    await cdp.send('Emulation.setTouchEmulationEnabled', { enabled: false }).catch(() => {});
    await cdp.send('Emulation.clearDeviceMetricsOverride').catch(() => {});
    if (own) await page.setViewportSize(own).catch(() => {});
    await cdp.detach().catch(() => {});
  }
}
