// Runs the production page scan (`scanUrl`, the chosen engines, `allowPrivate` policy, no
// database, no Temporal) over many URLs with a few pages in parallel in one Chromium, with a
// watchdog so that a stuck page is skipped instead of hanging the run.
import { appendFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import axeCore from 'axe-core';
import { chromium, type Browser } from 'playwright';
import { CHROMIUM_ARGS, resolveChromiumPath } from '../../src/audit/session/browser-provider.ts';
import { findingsFromAxe, type AxeRuleResult } from '../../src/audit/findings/findings.ts';
import type { FindingDraft } from '../../src/shared/findings.ts';
import { runAxe } from '../../src/audit/session/in-page.ts';
import { DEFAULT_ENGINES, type ScanEngine } from '../../src/audit/engines/index.ts';
import { scanUrl } from '../../src/audit/scan-url.ts';
import { createTargetPolicy } from '../../src/security/target-policy.ts';
import { buildActMap, type Finding, type Outcome } from './scoring.ts';

const REPO = path.resolve(import.meta.dirname, '..', '..');
const ENGINES_DIR = path.join(REPO, 'src', 'audit', 'engines');

export interface EngineRunSummary {
  engine: string;
  ms: number;
  error?: string;
  findings: Finding[];
}

export interface PageScan {
  url: string;
  /** Set when there is no scan result: page error, redirect failure, timeout, crash. */
  error?: string;
  finalUrl?: string;
  ms: number;
  engines: EngineRunSummary[];
  /** The service's merged findings. */
  findings: Finding[];
  /**
   * axe-core's own `color-contrast` verdicts, run plainly before the service's axe engine (which
   * takes away background images that fail to load): the "axe-core alone" reference for contrast.
   */
  baseline?: Finding[];
}

const baselines = new Map<string, Finding[]>();

/**
 * Harness only: axe's `color-contrast` exactly as axe-core runs it, on the page as loaded. Its
 * verdicts go into the page's `baseline`, never into the service's findings (it returns none).
 * Runs first, so that no engine has touched the page.
 */
export const plainAxeContrast: ScanEngine = {
  id: 'plain-axe-contrast',
  stage: 'AxeChecks',
  async run({ page, url }) {
    const r = await runAxe(page, { runOnly: { type: 'rule', values: ['color-contrast'] }, resultTypes: ['violations', 'incomplete'] });
    baselines.set(url, [
      ...findingsFromAxe(r.violations as AxeRuleResult[], 'confirmed').map(compact),
      ...findingsFromAxe(r.incomplete as AxeRuleResult[], 'needs_review').map(compact),
    ]);
    return { findings: [] };
  },
};

export function compact(f: FindingDraft): Finding {
  const also = f.data.alsoFlaggedBy;
  return {
    ruleId: f.ruleId,
    type: f.type as Outcome,
    criterion: f.wcagCriterion,
    ...(f.wcagCriteria.length > 1 ? { criteria: f.wcagCriteria } : {}),
    selector: f.elementSelector,
    engine: typeof f.data.engine === 'string' ? f.data.engine : undefined,
    ...(Array.isArray(also) && also.length ? { also: also.map(String) } : {}),
  };
}

/** axe-core's own rules (not the service's rules registered into axe) and their declared ACT rules. */
export function axeCoreRules(): { ids: Set<string>; actIds: Array<[string, string[]]>; version: string } {
  const rules = axeCore.getRules() as Array<{ ruleId: string; actIds?: string[] }>;
  return { ids: new Set(rules.map((r) => r.ruleId)), actIds: rules.filter((r) => r.actIds?.length).map((r) => [r.ruleId, r.actIds!]), version: axeCore.version };
}

function isEngine(x: unknown): x is ScanEngine {
  return typeof x === 'object' && x !== null && typeof (x as ScanEngine).id === 'string' && typeof (x as ScanEngine).run === 'function';
}

function actRulesExport(mod: Record<string, unknown>): Array<[string, string[]]> {
  const decl = mod.ACT_RULES;
  if (typeof decl !== 'object' || decl === null) return [];
  return Object.entries(decl as Record<string, unknown>)
    .filter((e): e is [string, string[]] => Array.isArray(e[1]))
    .map(([k, v]) => [k, v.map(String)]);
}

/**
 * The engines to run and every engine rule's declared ACT rules: axe-core's `actIds`, plus an
 * optional `export const ACT_RULES: Record<ruleId, actRuleId[]>` in any module under src/audit/engines
 * (engines and their helpers, such as the link rules that run inside axe).
 * `only` keeps the default engines with those ids; `extraModules` adds every engine exported by
 * those files (for trying an engine before it is registered).
 */
export async function loadEngines(opts: { only?: string[]; extraModules?: string[] }): Promise<{ engines: ScanEngine[]; actMap: Map<string, Set<string>>; declaredBy: string[] }> {
  let engines: ScanEngine[] = [...DEFAULT_ENGINES];
  const declarations: Array<Iterable<readonly [string, readonly string[]]>> = [axeCoreRules().actIds];
  const declaredBy: string[] = [];
  // Every module of the engines' folders (one folder per engine, links' rules included) may export ACT_RULES.
  const files = readdirSync(ENGINES_DIR, { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.ts$/.test(f) && !f.endsWith('.d.ts'))
    .sort()
    .map((f) => path.join(ENGINES_DIR, f));
  for (const file of files) {
    try {
      const found = actRulesExport(await import(pathToFileURL(file).href));
      if (found.length) {
        declarations.push(found);
        declaredBy.push(path.relative(REPO, file));
      }
    } catch (err) {
      process.stderr.write(`accuracy: could not read ${path.relative(REPO, file)} for ACT_RULES: ${(err as Error).message}\n`);
    }
  }
  for (const file of opts.extraModules ?? []) {
    const mod = (await import(pathToFileURL(path.resolve(file)).href)) as Record<string, unknown>;
    const found = actRulesExport(mod);
    if (found.length) {
      declarations.push(found);
      declaredBy.push(file);
    }
    for (const value of Object.values(mod)) if (isEngine(value) && !engines.some((e) => e.id === value.id)) engines.push(value);
  }
  if (opts.only?.length) {
    const unknown = opts.only.filter((id) => !engines.some((e) => e.id === id));
    if (unknown.length) throw new Error(`unknown engine(s) ${unknown.join(', ')}; have ${engines.map((e) => e.id).join(', ')}`);
    engines = engines.filter((e) => opts.only!.includes(e.id));
  }
  return { engines, actMap: buildActMap(...declarations), declaredBy };
}

export interface Scanner {
  /** Scans every URL, `concurrency` at a time; results in input order. */
  scanAll(urls: readonly string[], label: string, onPage?: (scan: PageScan) => void): Promise<PageScan[]>;
  close(): Promise<void>;
}

/**
 * Chromium with the service's flags, plus one that makes every host name but loopback fail to
 * resolve: the corpora are served locally and a test page's external link or resource must not
 * depend on the network (no internet here; elsewhere it would make runs differ).
 */
async function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: resolveChromiumPath(process.env.CHROMIUM_PATH),
    headless: true,
    args: [...CHROMIUM_ARGS, '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost'],
  });
}

export async function createScanner(opts: { engines: readonly ScanEngine[]; concurrency: number; pageTimeoutMs: number; scanTimeoutMs: number }): Promise<Scanner> {
  let browser = await launch();
  let relaunching: Promise<Browser> | undefined;
  const policy = createTargetPolicy({ allowPrivate: true });

  async function liveBrowser(): Promise<Browser> {
    if (browser.isConnected()) return browser;
    relaunching ??= launch().then((b) => {
      browser = b;
      relaunching = undefined;
      return b;
    });
    return relaunching;
  }

  async function scanOne(url: string): Promise<PageScan> {
    const started = performance.now();
    const ac = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const watchdog = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        ac.abort(new Error('scan timeout'));
        // scanUrl should end once its context is closed; if it does not, stop waiting for it.
        setTimeout(() => reject(new Error(`scan timeout after ${opts.scanTimeoutMs} ms (did not end on abort)`)), 5000).unref();
      }, opts.scanTimeoutMs);
    });
    try {
      const b = await liveBrowser();
      const res = await Promise.race([
        scanUrl(url, { browser: b, policy, pageLoadTimeoutMs: opts.pageTimeoutMs, signal: ac.signal, engines: opts.engines }),
        watchdog,
      ]);
      const ms = Math.round(performance.now() - started);
      const baseline = baselines.get(url);
      baselines.delete(url);
      if (res.kind === 'page-error') return { url, error: `${res.error.code}: ${res.error.message}`.slice(0, 200), finalUrl: res.finalUrl ?? undefined, ms, engines: [], findings: [] };
      return {
        url,
        finalUrl: res.finalUrl,
        ms,
        engines: res.engines.map((e) => ({ engine: e.engine, ms: e.ms, ...(e.error ? { error: e.error } : {}), findings: e.findings.map(compact) })),
        findings: res.findings.map(compact),
        ...(baseline ? { baseline } : {}),
      };
    } catch (err) {
      const ms = Math.round(performance.now() - started);
      const message = ac.signal.aborted ? `timeout: no result within ${opts.scanTimeoutMs} ms` : `scan failed: ${(err as Error).message}`;
      return { url, error: message.replace(/\s+/g, ' ').slice(0, 200), ms, engines: [], findings: [] };
    } finally {
      clearTimeout(timer);
      watchdog.catch(() => {});
    }
  }

  return {
    async scanAll(urls, label, onPage) {
      const out: PageScan[] = new Array(urls.length);
      let next = 0;
      let done = 0;
      const t0 = performance.now();
      const worker = async () => {
        for (let i = next++; i < urls.length; i = next++) {
          let r = await scanOne(urls[i]!);
          // A crashed browser is not the page's fault: relaunch and try the page once more.
          if (r.error && !browser.isConnected()) r = await scanOne(urls[i]!);
          out[i] = r;
          onPage?.(r);
          done++;
          if (done % 50 === 0 || done === urls.length) {
            const s = (performance.now() - t0) / 1000;
            process.stderr.write(`[${label}] ${done}/${urls.length} pages, ${s.toFixed(0)} s, ${(done / (s / 60)).toFixed(0)} pages/min\n`);
          }
        }
      };
      await Promise.all(Array.from({ length: Math.max(1, opts.concurrency) }, worker));
      return out;
    },
    async close() {
      await browser.close().catch(() => {});
    },
  };
}

/** Key of a scanned URL that survives the random port of the loopback server. */
const replayKey = (url: string) => {
  const u = new URL(url);
  return u.pathname + u.search;
};

export interface SavedScans {
  engines: string[];
  scans: Record<string, PageScan>;
}

/**
 * Reads a scans file (JSON lines: a header `{"engines": [...]}`, then one page scan per line, as
 * `--save-scans` appends them). A line cut short by a killed run is skipped.
 */
export function readSavedScans(file: string): SavedScans {
  const saved: SavedScans = { engines: [], scans: {} };
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    let row: unknown;
    try {
      row = JSON.parse(line);
    } catch {
      continue;
    }
    if (row && typeof row === 'object' && 'engines' in row && !('url' in row)) {
      saved.engines = (row as SavedScans).engines;
      Object.assign(saved.scans, (row as Partial<SavedScans>).scans ?? {}); // one-object form
    }
    else if (row && typeof row === 'object' && 'url' in row) saved.scans[replayKey((row as PageScan).url)] = row as PageScan;
  }
  return saved;
}

/**
 * Appends every page scan of `inner` to `file` as soon as it is done, so that a run that is
 * killed loses nothing; with `resume`, pages already in the file are taken from it (when it was
 * written with the same engines) and only the others are scanned.
 */
export function savingScanner(inner: Scanner, file: string, engines: string[], resume: boolean): Scanner & { reused: number } {
  let saved: SavedScans = { engines, scans: {} };
  if (resume && existsSync(file)) {
    saved = readSavedScans(file);
    if (saved.engines.join(',') !== engines.join(',')) {
      throw new Error(`${file} was written with engines ${saved.engines.join(', ')}, not ${engines.join(', ')}: pick another file or the same engines`);
    }
  } else {
    writeFileSync(file, JSON.stringify({ engines }) + '\n');
  }
  const self = {
    reused: 0,
    async scanAll(urls: readonly string[], label: string) {
      const todo = urls.filter((u) => !saved.scans[replayKey(u)]);
      self.reused += urls.length - todo.length;
      if (urls.length !== todo.length) process.stderr.write(`[${label}] ${urls.length - todo.length} pages taken from ${file}, ${todo.length} to scan\n`);
      const fresh = await inner.scanAll(todo, label, (s) => appendFileSync(file, JSON.stringify(s) + '\n'));
      for (const s of fresh) saved.scans[replayKey(s.url)] = s;
      return urls.map((u) => ({ ...saved.scans[replayKey(u)]!, url: u }));
    },
    close: () => inner.close(),
  };
  return self;
}

/** Answers from saved scans; a URL that was not saved is reported as a page error. */
export function replayScanner(saved: SavedScans): Scanner {
  return {
    async scanAll(urls) {
      return urls.map((url) => {
        const s = saved.scans[replayKey(url)];
        return s ? { ...s, url } : { url, error: 'not in the replayed scans', ms: 0, engines: [], findings: [] };
      });
    },
    async close() {},
  };
}
