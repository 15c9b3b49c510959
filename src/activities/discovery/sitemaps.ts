import { Readable } from 'node:stream';
import robotsParserModule from 'robots-parser';
import { parseSitemap, parseSitemapIndex } from 'sitemap';
import type { TargetPolicy } from '../../security/target-policy.ts';
import { fetchPage, USER_AGENT } from './fetch-page.ts';
import { normalizeUrl, sameSite } from './urls.ts';

// The package is CommonJS (`module.exports = fn`) but its types declare an ES default export.
const robotsParser = robotsParserModule as unknown as (typeof robotsParserModule)['default'];

export interface Robots {
  isAllowed(url: string): boolean;
  sitemaps: string[];
}

/** robots.txt of the site; none (or an unreadable one) allows everything. */
export async function readRobots(siteUrl: string, policy: TargetPolicy, timeoutMs: number): Promise<Robots> {
  const robotsUrl = new URL('/robots.txt', siteUrl).href;
  const res = await fetchPage(robotsUrl, { siteUrl, policy, timeoutMs, retries: 0, accept: 'text/plain,*/*' });
  const text = res.kind === 'html' ? res.body : '';
  const robots = robotsParser(robotsUrl, text);
  return {
    isAllowed: (url) => robots.isAllowed(url, USER_AGENT) !== false,
    sitemaps: robots.getSitemaps(),
  };
}

/**
 * Page URLs from the site's sitemaps: /sitemap.xml and those robots.txt names, following
 * sitemap indexes (also gzipped), same site only, bounded in count and nesting.
 */
export async function readSitemaps(
  siteUrl: string,
  extra: string[],
  policy: TargetPolicy,
  opts: { timeoutMs: number; maxUrls: number; maxSitemaps?: number },
): Promise<string[]> {
  const queue = [new URL('/sitemap.xml', siteUrl).href, ...extra].map((u) => normalizeUrl(u)).filter((u): u is string => !!u);
  const seen = new Set<string>();
  const urls = new Set<string>();
  const maxSitemaps = opts.maxSitemaps ?? 50;
  while (queue.length > 0 && seen.size < maxSitemaps && urls.size < opts.maxUrls) {
    const sitemapUrl = queue.shift()!;
    if (seen.has(sitemapUrl) || !sameSite(sitemapUrl, siteUrl)) continue;
    seen.add(sitemapUrl);
    const res = await fetchPage(sitemapUrl, { siteUrl, policy, timeoutMs: opts.timeoutMs, retries: 0, accept: 'application/xml,text/xml,*/*' });
    if (res.kind !== 'html') continue;
    const xml = res.body;
    try {
      if (/<sitemapindex[\s>]/i.test(xml)) {
        for (const item of await parseSitemapIndex(Readable.from([xml]), maxSitemaps)) {
          const u = normalizeUrl(item.url);
          if (u) queue.push(u);
        }
      } else if (/<urlset[\s>]/i.test(xml)) {
        for (const item of await parseSitemap(Readable.from([xml]))) {
          const u = normalizeUrl(item.url);
          if (u && sameSite(u, siteUrl)) urls.add(u);
          if (urls.size >= opts.maxUrls) break;
        }
      }
    } catch {
      // A broken sitemap is skipped; link discovery still finds the pages.
    }
  }
  return [...urls];
}
