import { Readable } from 'node:stream';
import robotsParserModule from 'robots-parser';
import { ErrorLevel, parseSitemapIndex, XMLToSitemapItemStream } from 'sitemap';
import type { TargetPolicy } from '../security/target-policy.ts';
import { fetchPage, USER_AGENT, type FetchAuth, type FetchOutcome } from './fetch-page.ts';
import { normalizeUrl, sameSite } from '../shared/urls.ts';
import type { PoliteFetch } from './polite-fetch.ts';

// The package is CommonJS (`module.exports = fn`) but its types declare an ES default export.
const robotsParser = robotsParserModule as unknown as (typeof robotsParserModule)['default'];

export interface Robots {
  isAllowed(url: string): boolean;
  sitemaps: string[];
  /** Its Crawl-delay for us (seconds), if it gives one. */
  crawlDelay?: number;
}

/** robots.txt is read up to 500 KiB and the rest ignored, as the big crawlers do. */
export const MAX_ROBOTS_BYTES = 500 * 1024;
/** A sitemap may be 50 MB uncompressed (sitemaps.org); its compressed form is read up to 10 MiB. */
export const MAX_SITEMAP_BYTES = 10 * 1024 * 1024;
export const MAX_SITEMAP_DECODED_BYTES = 50 * 1024 * 1024;

/** A sitemap that could not be used, and why; discovery logs it and goes on with links. */
export interface SitemapProblem {
  url: string;
  code: 'unreachable' | 'too_large' | 'bad_sitemap' | 'over_budget';
  message: string;
}

/** Every fetch of discovery (robots.txt, sitemaps, pages) takes one; none is made once it is spent. */
export interface FetchBudget {
  take(): boolean;
}

/** robots.txt of the site; none (or an unreadable one) allows everything. `fetch` paces and retries (see polite-fetch.ts). */
export async function readRobots(siteUrl: string, policy: TargetPolicy, timeoutMs: number, auth?: FetchAuth, fetch: PoliteFetch = fetchPage): Promise<Robots> {
  const robotsUrl = new URL('/robots.txt', siteUrl).href;
  const res = await fetch(robotsUrl, { siteUrl, policy, timeoutMs, retries: 0, accept: 'text/plain,*/*', maxBytes: MAX_ROBOTS_BYTES, auth });
  const text = res.kind === 'html' ? res.body : '';
  const robots = robotsParser(robotsUrl, text);
  const delay = robots.getCrawlDelay(USER_AGENT);
  return {
    isAllowed: (url) => robots.isAllowed(url, USER_AGENT) !== false,
    sitemaps: robots.getSitemaps(),
    ...(typeof delay === 'number' && Number.isFinite(delay) ? { crawlDelay: delay } : {}),
  };
}

/**
 * The `<loc>` of every entry of a `<urlset>`. The reader refuses URLs over 2,048 characters (the
 * sitemaps.org limit) by emptying them: such an entry comes back as '' and is counted as skipped
 * by the caller. SILENT: the default level prints every refused URL (the site's text) to stdout.
 */
async function urlsetLocations(xml: string): Promise<string[]> {
  const out: string[] = [];
  for await (const item of Readable.from([xml]).pipe(new XMLToSitemapItemStream({ level: ErrorLevel.SILENT }))) out.push((item as { url: string }).url);
  return out;
}

/**
 * Page URLs from the site's sitemaps: /sitemap.xml and those robots.txt names, following
 * sitemap indexes (also gzipped), same site only, bounded in count, bytes and nesting. A sitemap
 * that cannot be read or parsed is skipped and reported in `problems`; it never ends discovery.
 */
export async function readSitemaps(
  siteUrl: string,
  extra: string[],
  policy: TargetPolicy,
  opts: { timeoutMs: number; maxUrls: number; maxSitemaps?: number; budget?: FetchBudget; heartbeat?: () => void; auth?: FetchAuth; fetch?: PoliteFetch },
): Promise<{ urls: string[]; problems: SitemapProblem[]; tooLong: number }> {
  const queue = [new URL('/sitemap.xml', siteUrl).href, ...extra].map((u) => normalizeUrl(u)).filter((u): u is string => !!u);
  const seen = new Set<string>();
  const urls = new Set<string>();
  const problems: SitemapProblem[] = [];
  /** Entries whose URL the reader refused for its length (see urlsetLocations). */
  let tooLong = 0;
  const maxSitemaps = opts.maxSitemaps ?? 50;
  while (queue.length > 0 && seen.size < maxSitemaps && urls.size < opts.maxUrls) {
    const sitemapUrl = queue.shift()!;
    if (seen.has(sitemapUrl) || !sameSite(sitemapUrl, siteUrl)) continue;
    seen.add(sitemapUrl);
    opts.heartbeat?.();
    if (opts.budget && !opts.budget.take()) {
      problems.push({ url: sitemapUrl, code: 'over_budget', message: 'the crawl used up its fetch budget' });
      break;
    }
    const res = await (opts.fetch ?? fetchPage)(sitemapUrl, {
      siteUrl,
      policy,
      timeoutMs: opts.timeoutMs,
      retries: 0,
      accept: 'application/xml,text/xml,*/*',
      maxBytes: MAX_SITEMAP_BYTES,
      maxDecodedBytes: MAX_SITEMAP_DECODED_BYTES,
      auth: opts.auth,
    });
    const problem = sitemapProblem(sitemapUrl, res);
    if (problem) {
      if (problem !== 'absent') problems.push(problem);
      continue;
    }
    const xml = (res as Extract<FetchOutcome, { kind: 'html' }>).body;
    try {
      if (/<sitemapindex[\s>]/i.test(xml)) {
        for (const item of await parseSitemapIndex(Readable.from([xml]), maxSitemaps)) {
          const u = normalizeUrl(item.url);
          if (u) queue.push(u);
        }
      } else if (/<urlset[\s>]/i.test(xml)) {
        for (const loc of await urlsetLocations(xml)) {
          if (loc === '') {
            tooLong++;
            continue;
          }
          const u = normalizeUrl(loc);
          if (u && sameSite(u, siteUrl)) urls.add(u);
          if (urls.size >= opts.maxUrls) break;
        }
      } else {
        problems.push({ url: sitemapUrl, code: 'bad_sitemap', message: 'neither a <urlset> nor a <sitemapindex>' });
      }
    } catch (err) {
      problems.push({ url: sitemapUrl, code: 'bad_sitemap', message: `not a readable sitemap: ${String((err as Error)?.message ?? err).slice(0, 200)}` });
    }
  }
  return { urls: [...urls], problems, tooLong };
}

/** Why a fetched sitemap cannot be used; 'absent' for a plain 404 (most sites have none). */
function sitemapProblem(url: string, res: FetchOutcome): SitemapProblem | 'absent' | undefined {
  switch (res.kind) {
    case 'html':
      return res.truncated ? { url, code: 'too_large', message: `larger than ${MAX_SITEMAP_BYTES / 1024 / 1024} MiB` } : undefined;
    case 'broken':
      return res.status === 404 || res.status === 410 ? 'absent' : { url, code: 'unreachable', message: `HTTP ${res.status}` };
    case 'unreachable':
      return { url, code: res.code === 'too_large' ? 'too_large' : 'unreachable', message: res.message };
    case 'off-site':
      return { url, code: 'unreachable', message: `redirects off the site, to ${res.location}` };
    case 'forbidden':
      return { url, code: 'unreachable', message: res.reason };
    case 'throttled':
      return { url, code: 'unreachable', message: `the site kept answering HTTP ${res.status} (it limited the crawl)` };
    default:
      return { url, code: 'bad_sitemap', message: 'not a sitemap' };
  }
}
