/**
 * A site's scripted flows: named runs of the login's steps (`goto`, `fill`, `click`, `select`,
 * `press`, `waitFor`) whose end state every crawl audits as a page of its own ("contact form sent
 * empty", "search with no results"). Pure: the API validates and redacts with it, the persistence
 * activity registers the flows' pages by it, the page scan finds its flow by it. The whole set is
 * stored encrypted (values typed are secrets like the login's); only `SiteFlowsSummary`, with every
 * value left out, is ever shown.
 */
import { DEFAULT_LOGIN_STEP_TIMEOUT_MS, summarizeStep, type LoginStep, type StepSummary } from './site-auth.ts';

export const MAX_FLOWS = 20;
export const MAX_FLOW_STEPS = 30;
export const MAX_FLOW_NAME = 80;
export const DEFAULT_FLOW_STEP_TIMEOUT_MS = DEFAULT_LOGIN_STEP_TIMEOUT_MS;

export type FlowStep = LoginStep;

export interface SiteFlow {
  /** Unique within the site (case-insensitively): the flow's page is named by it. */
  name: string;
  steps: FlowStep[];
  /** How long each step may wait for its element or URL (default 10 s). */
  stepTimeoutMs?: number;
}

export interface SiteFlowsSetup {
  flows: SiteFlow[];
}

/** The flows as the API shows them, and as the crawl registers their pages: names and shapes, never a value. */
export interface SiteFlowsSummary {
  flows: Array<{ name: string; steps: StepSummary[]; stepTimeoutMs: number }>;
}

export function summarizeSiteFlows(s: SiteFlowsSetup): SiteFlowsSummary {
  return {
    flows: s.flows.map((f) => ({ name: f.name, steps: f.steps.map(summarizeStep), stepTimeoutMs: f.stepTimeoutMs ?? DEFAULT_FLOW_STEP_TIMEOUT_MS })),
  };
}

/** The fragment namespace of flow pages: `<start URL>#flow:<encoded name>`. */
const FLOW_FRAGMENT = '#flow:';

/** Where a flow starts: its first step when that is a `goto`, else the site's base URL. */
export function flowStartUrl(flow: { steps: ReadonlyArray<{ action: string; url?: string }> }, baseUrl: string): string {
  const first = flow.steps[0];
  return first?.action === 'goto' && first.url ? first.url : baseUrl;
}

/**
 * The URL of the page that stands for a flow's end state: the flow's first `goto` URL (else the
 * site's base URL) without its fragment, plus `#flow:<name>`. A page is one row per (site, URL),
 * and discovery drops fragments (rendered discovery keeps only `#/` and `#!` routes), so the flow
 * namespace is the flow's own. Stable while the flow keeps its name and first `goto`.
 */
export function flowPageUrl(flow: { name: string; steps: ReadonlyArray<{ action: string; url?: string }> }, baseUrl: string): string {
  const goto = flow.steps.find((s) => s.action === 'goto' && s.url);
  const u = new URL(goto?.url ?? baseUrl);
  u.hash = '';
  u.hostname = u.hostname.replace(/\.$/, '');
  return `${u.href}${FLOW_FRAGMENT}${encodeURIComponent(flow.name)}`;
}

/** The page's path as pages list it: path and query of the URL, with the flow's fragment. */
export function flowPagePath(pageUrl: string): string {
  const u = new URL(pageUrl);
  return `${u.pathname}${u.search}${u.hash}`;
}

/** The flow a page URL stands for (its decoded name), or undefined for any other page. */
export function flowNameOf(pageUrl: string): string | undefined {
  const at = pageUrl.indexOf(FLOW_FRAGMENT);
  if (at < 0 || pageUrl.indexOf('#') !== at) return undefined;
  try {
    const name = decodeURIComponent(pageUrl.slice(at + FLOW_FRAGMENT.length));
    return name.length > 0 ? name : undefined;
  } catch {
    return undefined;
  }
}

/** Every URL the flows name (`goto` steps), for the same-site check. */
export function flowUrlsOf(s: SiteFlowsSetup): Array<{ path: string; url: string }> {
  return s.flows.flatMap((f, i) => f.steps.flatMap((st, j) => (st.action === 'goto' ? [{ path: `flows.${i}.steps.${j}.url`, url: st.url }] : [])));
}

/** Names given twice (compared case-insensitively, as people read them), with the path of each repeat. */
export function duplicateFlowNames(s: SiteFlowsSetup): Array<{ path: string; name: string }> {
  const seen = new Set<string>();
  const out: Array<{ path: string; name: string }> = [];
  s.flows.forEach((f, i) => {
    const key = f.name.toLowerCase();
    if (seen.has(key)) out.push({ path: `flows.${i}.name`, name: f.name });
    seen.add(key);
  });
  return out;
}
