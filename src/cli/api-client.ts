import { setTimeout as delay } from 'node:timers/promises';
import type { ApiIssue, Crawl, Scan, Site, SitePage } from './types.ts';

/** An error answer of the API, from its problem+json body when it has one. */
export interface Problem {
  status: number;
  code?: string;
  title?: string;
  detail?: string;
  errors?: Array<{ path?: string; message?: string }>;
  [k: string]: unknown;
}

export class ApiRequestError extends Error {
  override name = 'ApiRequestError';
  readonly problem: Problem;
  readonly status: number;
  readonly code: string | undefined;

  constructor(problem: Problem) {
    const fields = (problem.errors ?? []).map((e) => `${e.path ? `${e.path}: ` : ''}${e.message ?? ''}`).filter(Boolean);
    const detail = problem.detail ?? problem.title ?? 'the API refused the request';
    super(`${detail}${fields.length > 0 ? ` [${fields.join('; ')}]` : ''} (${problem.code ? `${problem.code}, ` : ''}HTTP ${problem.status})`);
    this.problem = problem;
    this.status = problem.status;
    this.code = problem.code;
  }
}

/** The API could not be reached at all (refused, reset, DNS, TLS). */
export class ApiUnreachableError extends Error {
  override name = 'ApiUnreachableError';
}

/** The API answered something this client does not understand. */
export class ProtocolError extends Error {
  override name = 'ProtocolError';
}

const MAX_PROBLEM_TEXT = 300;

/** Reads an error answer: problem+json (or any JSON object) as it is, anything else as a short text. */
export async function problemFromResponse(res: Response): Promise<Problem> {
  const text = await res.text().catch(() => '');
  if ((res.headers.get('content-type') ?? '').includes('json')) {
    try {
      const body: unknown = JSON.parse(text);
      if (isObject(body)) return { ...body, status: res.status } as Problem;
    } catch {
      // Not JSON after all: fall through to the text.
    }
  }
  const snippet = text.replace(/\s+/g, ' ').trim().slice(0, MAX_PROBLEM_TEXT);
  return { status: res.status, detail: snippet ? `HTTP ${res.status} ${res.statusText}: ${snippet}` : `HTTP ${res.status} ${res.statusText}`.trim() };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Seconds (or an HTTP date) to milliseconds; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now: number): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

export interface ApiClientOptions {
  /** Base URL without a trailing slash. */
  baseUrl: string;
  key: string | undefined;
  signal: AbortSignal;
  userAgent: string;
  fetch?: typeof fetch;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  now?: () => number;
  /** When the whole run must have ended (epoch ms): rate-limit waits beyond it are not worth starting. */
  deadline?: number;
  /** Tells the user why the client is waiting (rate limits, retries). */
  notice?: (message: string) => void;
}

type Method = 'GET' | 'POST';

const MAX_RATE_LIMIT_RETRIES = 5;
const MAX_TRANSIENT_RETRIES = 3;
const DEFAULT_RATE_LIMIT_WAIT_MS = 10_000;
const TRANSIENT_STATUSES = new Set([502, 503, 504]);
const PAGE_LIMIT = 100;

export interface StartedCrawl {
  crawlId: string;
  /** The site already had a crawl under way: this is that one, not a new one. */
  alreadyRunning: boolean;
}

export class ApiClient {
  readonly baseUrl: string;
  readonly #key: string | undefined;
  readonly #signal: AbortSignal;
  readonly #userAgent: string;
  readonly #fetch: typeof fetch;
  readonly #sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  readonly #now: () => number;
  readonly #deadline: number;
  readonly #notice: (message: string) => void;

  constructor(o: ApiClientOptions) {
    this.baseUrl = o.baseUrl.replace(/\/+$/, '');
    this.#key = o.key;
    this.#signal = o.signal;
    this.#userAgent = o.userAgent;
    this.#fetch = o.fetch ?? fetch;
    this.#sleep = o.sleep ?? ((ms, signal) => delay(ms, undefined, { signal }));
    this.#now = o.now ?? Date.now;
    this.#deadline = o.deadline ?? Number.POSITIVE_INFINITY;
    this.#notice = o.notice ?? (() => {});
  }

  /** Headers every request carries; the events reader sends them too. */
  headers(): Record<string, string> {
    return { 'user-agent': this.#userAgent, ...(this.#key ? { authorization: `Bearer ${this.#key}` } : {}) };
  }

  url(path: string): string {
    return `${this.baseUrl}${path}`;
  }

  async createScan(url: string): Promise<Scan> {
    return asScan(await this.#request('POST', '/api/scans', { url }));
  }

  async getScan(id: string): Promise<Scan> {
    return asScan(await this.#request('GET', `/api/scans/${encodeURIComponent(id)}`));
  }

  scanEventsUrl(id: string): string {
    return this.url(`/api/scans/${encodeURIComponent(id)}/events`);
  }

  async createSite(url: string): Promise<Site> {
    const site = await this.#request('POST', '/api/sites', { url });
    if (!isObject(site) || typeof site.id !== 'string') throw new ProtocolError('POST /api/sites answered without a site id');
    return site as Site;
  }

  /** Starts a crawl, or, when the site has one under way, answers with that one. */
  async startCrawl(siteId: string, maxPages: number | undefined): Promise<StartedCrawl> {
    try {
      const started = await this.#request('POST', `/api/sites/${encodeURIComponent(siteId)}/crawl`, maxPages === undefined ? {} : { maxPages });
      if (!isObject(started) || typeof started.crawlId !== 'string') throw new ProtocolError('POST /api/sites/{id}/crawl answered without a crawlId');
      return { crawlId: started.crawlId, alreadyRunning: false };
    } catch (err) {
      if (err instanceof ApiRequestError && err.code === 'crawl_in_progress' && typeof err.problem.crawlId === 'string') {
        return { crawlId: err.problem.crawlId, alreadyRunning: true };
      }
      throw err;
    }
  }

  async getCrawl(siteId: string, crawlId: string): Promise<Crawl> {
    return asCrawl(await this.#request('GET', crawlPath(siteId, crawlId)));
  }

  crawlEventsUrl(siteId: string, crawlId: string): string {
    return this.url(`${crawlPath(siteId, crawlId)}/events`);
  }

  /** Every issue of the site that matches the filters, following `links.next` to the end. */
  async listIssues(siteId: string, filters: Record<string, string>): Promise<ApiIssue[]> {
    const items = await this.#listAll(`/api/sites/${encodeURIComponent(siteId)}/issues`, filters);
    return items.map((item, i) => asIssue(item, `issue ${i} of the site's issue list`));
  }

  async listPages(siteId: string): Promise<SitePage[]> {
    const items = await this.#listAll(`/api/sites/${encodeURIComponent(siteId)}/pages`, {});
    return items.filter((p): p is SitePage => isObject(p) && typeof p.url === 'string');
  }

  async #listAll(path: string, filters: Record<string, string>): Promise<unknown[]> {
    const byId = new Map<string, unknown>();
    const seen = new Set<string>();
    let next: string | null = `${path}?${new URLSearchParams({ ...filters, limit: String(PAGE_LIMIT), offset: '0' })}`;
    while (next !== null) {
      // A server whose next link repeats would otherwise keep this loop going until the timeout.
      if (seen.has(next)) throw new ProtocolError(`the list at ${path} links back to a page already read (${next})`);
      seen.add(next);
      const page = await this.#request('GET', next);
      if (!isObject(page) || !Array.isArray(page.data) || !isObject(page.links)) throw new ProtocolError(`GET ${path} did not answer with a paginated list`);
      // Rows can shift between pages while the server writes: an item seen twice is kept once.
      for (const item of page.data) byId.set(isObject(item) && typeof item.id === 'string' ? item.id : `#${byId.size}`, item);
      next = typeof page.links.next === 'string' && page.data.length > 0 ? linkPath(page.links.next) : null;
    }
    return [...byId.values()];
  }

  /**
   * One request with the retries that are safe: any request the server refused with 429 (it did
   * nothing), and GETs that met a network error or a 502/503/504. Anything else is thrown.
   */
  async #request(method: Method, path: string, body?: unknown): Promise<unknown> {
    let rateLimited = 0;
    let transient = 0;
    for (;;) {
      let res: Response;
      try {
        res = await this.#fetch(this.url(path), {
          method,
          headers: { ...this.headers(), accept: 'application/json', ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: this.#signal,
        });
      } catch (err) {
        if (this.#signal.aborted) throw this.#signal.reason;
        const why = networkReason(err);
        if (method === 'GET' && transient < MAX_TRANSIENT_RETRIES) {
          transient++;
          this.#notice(`${method} ${path}: ${why}; retrying (${transient} of ${MAX_TRANSIENT_RETRIES})`);
          await this.#wait(1000 * 2 ** (transient - 1));
          continue;
        }
        throw new ApiUnreachableError(`cannot reach the API at ${this.baseUrl}: ${why}`, { cause: err });
      }
      if (res.status === 429 && rateLimited < MAX_RATE_LIMIT_RETRIES) {
        const problem = await problemFromResponse(res);
        const wait = retryAfterMs(res.headers.get('retry-after'), this.#now()) ?? DEFAULT_RATE_LIMIT_WAIT_MS;
        if (this.#now() + wait > this.#deadline) {
          throw new ApiRequestError({ ...problem, detail: `${problem.detail ?? 'rate limited'}; the wait (${Math.ceil(wait / 1000)} s) goes past --timeout` });
        }
        rateLimited++;
        this.#notice(`${method} ${path}: rate limited${problem.code ? ` (${problem.code})` : ''}; retrying in ${Math.ceil(wait / 1000)} s`);
        await this.#wait(wait);
        continue;
      }
      if (method === 'GET' && TRANSIENT_STATUSES.has(res.status) && transient < MAX_TRANSIENT_RETRIES) {
        const problem = await problemFromResponse(res);
        transient++;
        this.#notice(`${method} ${path}: HTTP ${res.status}${problem.code ? ` ${problem.code}` : ''}; retrying (${transient} of ${MAX_TRANSIENT_RETRIES})`);
        await this.#wait(retryAfterMs(res.headers.get('retry-after'), this.#now()) ?? 1000 * 2 ** (transient - 1));
        continue;
      }
      if (!res.ok) throw new ApiRequestError(await problemFromResponse(res));
      const text = await res.text();
      try {
        return JSON.parse(text) as unknown;
      } catch {
        throw new ProtocolError(`${method} ${path} answered HTTP ${res.status} with a body that is not JSON: ${text.slice(0, 200)}`);
      }
    }
  }

  async #wait(ms: number): Promise<void> {
    try {
      await this.#sleep(ms, this.#signal);
    } catch (err) {
      if (this.#signal.aborted) throw this.#signal.reason;
      throw err;
    }
  }
}

const crawlPath = (siteId: string, crawlId: string) => `/api/sites/${encodeURIComponent(siteId)}/crawls/${encodeURIComponent(crawlId)}`;

/**
 * The path and query of a `links.next`. The server writes paths as it sees them; appended to the
 * base URL they also work behind a proxy that serves the API under a prefix.
 */
export function linkPath(link: string): string {
  const u = new URL(link, 'http://link.invalid');
  return `${u.pathname}${u.search}`;
}

function networkReason(err: unknown): string {
  const e = err as Error & { cause?: Error & { code?: string } };
  if (e.cause?.code) return `${e.cause.code}${e.cause.message && !e.cause.message.includes(e.cause.code) ? ` (${e.cause.message})` : ''}`;
  return e.cause?.message ?? e.message ?? String(err);
}

/** Checks the fields the CLI relies on; the rest of the object is kept as it came. */
export function asScan(v: unknown): Scan {
  if (!isObject(v) || typeof v.id !== 'string' || typeof v.status !== 'string') throw new ProtocolError('expected a scan object with an id and a status');
  if (v.issues !== undefined && v.issues !== null) {
    if (!Array.isArray(v.issues)) throw new ProtocolError(`scan ${v.id}: issues is not an array`);
    v.issues.forEach((issue, i) => asIssue(issue, `issue ${i} of scan ${v.id}`));
  }
  return { issues: null, error: null, currentStage: null, progress: 0, ...v } as Scan;
}

export function asCrawl(v: unknown): Crawl {
  if (!isObject(v) || typeof v.id !== 'string' || typeof v.status !== 'string') throw new ProtocolError('expected a crawl object with an id and a status');
  return v as Crawl;
}

const SEVERITY_VALUES = new Set(['critical', 'serious', 'moderate', 'minor']);
const TYPE_VALUES = new Set(['confirmed', 'needs_review']);

export function asIssue(v: unknown, what: string): ApiIssue {
  if (!isObject(v) || typeof v.id !== 'string') throw new ProtocolError(`${what} is not an issue object`);
  if (!SEVERITY_VALUES.has(v.severity as string)) throw new ProtocolError(`${what} has an unknown severity ${JSON.stringify(v.severity)}`);
  if (!TYPE_VALUES.has(v.type as string)) throw new ProtocolError(`${what} has an unknown type ${JSON.stringify(v.type)}`);
  for (const field of ['axeRuleId', 'elementSelector', 'description'] as const) {
    if (typeof v[field] !== 'string') throw new ProtocolError(`${what} has no ${field}`);
  }
  return v as ApiIssue;
}
