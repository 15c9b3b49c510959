import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { addSkippedUrls, findCrawl, incrementBrokenLinks, setDiscoveryDone } from '../db/repositories/crawl.repository.ts';
import { countCrawlPages, registerPage } from '../db/repositories/crawl-page.repository.ts';
import { allFrontierUrls, countFetchedUrls, countFrontierUrls, deferUrl, enqueueUrls, markUrlDone, nextDeferredInMs, nextQueuedUrls, type FrontierUrl } from '../db/repositories/frontier.repository.ts';
import { findSite, setSiteBaseUrl } from '../db/repositories/site.repository.ts';
import type { Database } from '../db/database.ts';
import type { Logger } from '../logger.ts';
import type { TargetPolicy } from '../security/target-policy.ts';
import type { DiscoveryOptions } from '../shared/contracts.ts';
import { urlWithinLimit } from '../shared/limits.ts';
import type { SiteAuthLoad } from '../shared/site-auth.ts';
import { DiscoveryAuth, type DiscoveryAuthDeps } from './discovery-auth.ts';
import { extractLinks } from './extract-links.ts';
import type { FetchOutcome } from './fetch-page.ts';
import { politeFetch } from './polite-fetch.ts';
import { addCrawlThrottledMs } from '../db/repositories/host-pacing.repository.ts';
import { THROTTLE_ATTEMPTS, throttleWaitMs, UNPACED, type HostPacer } from '../shared/politeness.ts';
import { readRobots, readSitemaps, type FetchBudget, type Robots } from './sitemaps.ts';
import { documentType, landedAt, looksLikeAsset, normalizeUrl, pathOf, sameSite, sameSiteMove } from '../shared/urls.ts';
import { admitRenderedLinks, crawlScansSettled, nextRenderedLinks } from '../db/repositories/rendered-link.repository.ts';

/** Fetches per page of `maxPages` discovery may make in all (robots.txt, sitemaps, pages, broken links). */
export const FETCHES_PER_PAGE = 4;
/** Moves of the home page (host <-> www.host, http -> https) followed before giving up. */
const MAX_HOME_MOVES = 2;
/** How often discovery, its HTTP frontier empty, looks for links the scans read in rendered pages. */
export const RENDERED_POLL_MS = 750;
/**
 * Discovery stops waiting for rendered links when no page of the crawl moved for this long (a
 * crawl workflow that was terminated leaves its pages waiting for ever); a page's scan, retries
 * included, ends well within it.
 */
export const RENDERED_STALL_MS = 30 * 60_000;
/**
 * A run that has only waited for rendered links this long returns (`waiting`), handing the queue's
 * slot back; the discovery workflow runs it again at once.
 */
export const RENDERED_YIELD_MS = 30_000;
/** How long a handed-back run's set-up is kept for its next run in this worker. */
const WALK_KEPT_MS = 10 * 60_000;

export interface DiscoverInput {
  crawlId: string;
  options: DiscoveryOptions;
  progress?: WaitProgress;
}

export interface DiscoverResult {
  totalPages: number;
  waiting?: boolean;
  progress?: WaitProgress;
}

/** The crawl's pages' counts when discovery last saw them move, and when (epoch ms). */
export interface WaitProgress {
  mark: string;
  at: number;
}

/** What a discovery run set up before walking: kept while it waits with its slot handed back. */
interface Walk {
  siteUrl: string;
  robots: Robots;
  auth: DiscoveryAuth | undefined;
  at: number;
}

/** Rendered links judged per round. */
const RENDERED_BATCH = 500;

/** Waits `ms`, or less if `signal` aborts. */
const pause = (ms: number, signal: AbortSignal): Promise<void> => sleep(ms, undefined, { signal }).catch(() => {});

class CountingBudget implements FetchBudget {
  used: number;
  readonly max: number;
  constructor(used: number, max: number) {
    this.used = used;
    this.max = max;
  }
  take(): boolean {
    if (this.used >= this.max) return false;
    this.used++;
    return true;
  }
}

export interface DiscovererDeps {
  db: Database;
  policy: TargetPolicy;
  logger: Logger;
  /** The site's authentication set-up, read and opened by the caller (SECRETS_KEY); never an input. */
  loadAuth: (site: { id: string; baseUrl: string }) => Promise<SiteAuthLoad>;
  /** For sites with a scripted login: discovery logs in in a short-lived tab and sends its session cookies; unset: no browser. */
  openLoginTab?: DiscoveryAuthDeps['openLoginTab'];
  /** How long a run waits for rendered links before handing its slot back (RENDERED_YIELD_MS; tests shorten it). */
  renderedYieldMs?: number;
  /** Each host's pacing (Crawl-delay, pauses after 429/503, pages at once), shared with the page scans; unset: none. */
  pacer?: HostPacer;
}

/** Tries of robots.txt, a sitemap or the home page's address when the site answers 429 or 503, waiting in between. */
const INLINE_THROTTLE_ATTEMPTS = 3;

/** Bounds query-string traps: at most `max` distinct queries per path. */
class QueryBudget {
  private readonly perPath = new Map<string, number>();
  private readonly max: number;
  constructor(max: number) {
    this.max = max;
  }
  admit(url: string): boolean {
    const u = new URL(url);
    if (!u.search) return true;
    const n = this.perPath.get(u.pathname) ?? 0;
    if (n >= this.max) return false;
    this.perPath.set(u.pathname, n + 1);
    return true;
  }
}

/**
 * Same-site URLs too long to be pages (over MAX_URL_LENGTH: a page URL is indexed, and no real
 * page needs one), counted once each in the crawl's `skippedUrls`.
 */
class SkippedUrls {
  private readonly seen = new Set<string>();
  private pending: number;
  /** `already`: found too long elsewhere (a sitemap's reader refused them). */
  constructor(already = 0) {
    this.pending = already;
  }
  /** True when `url` may be a page; false (and counted once) when it is too long. */
  admit(url: string): boolean {
    if (urlWithinLimit(url)) return true;
    const key = createHash('sha256').update(url).digest('base64');
    if (!this.seen.has(key)) {
      this.seen.add(key);
      this.pending++;
    }
    return false;
  }
  async flush(db: Database, crawlId: string): Promise<void> {
    const n = this.pending;
    this.pending = 0;
    await addSkippedUrls(db, crawlId, n);
  }
}

/** What a discovery run reports while it works, and how it is told to stop: the activity's heartbeat and cancellation. */
export interface DiscoveryRunContext {
  heartbeat(details: { pages: number }): void;
  signal: AbortSignal;
}

/** The crawl a run was asked for does not exist: retrying will not help. */
export class CrawlNotFoundError extends Error {
  override name = 'CrawlNotFoundError';
}

/**
 * A crawl's discovery, run by its activity (activities/crawl-discovery): robots.txt, sitemaps, the
 * home page and the links of every page found, and the links the scans read in rendered pages,
 * until the crawl's pages are all known.
 */
export function createDiscoverer(deps: DiscovererDeps) {
  /** Set-ups of runs that handed their slot back to wait for rendered links, by crawl (this worker's only). */
  const walks = new Map<string, Walk>();

  /** One fetched URL into the database: a page (maybe failed), a broken link, or nothing. */
  async function record(
    crawlId: string,
    siteId: string,
    siteUrl: string,
    item: FrontierUrl,
    outcome: FetchOutcome,
    skipped: SkippedUrls,
  ): Promise<{ added: boolean; links: string[] }> {
    switch (outcome.kind) {
      case 'html': {
        const finalUrl = landedAt(outcome.finalUrl, item.url)!;
        // A redirect to a URL too long to be a page: skipped like a link to it.
        if (!skipped.admit(finalUrl)) return { added: false, links: [] };
        // A same-site redirect lands on its target, counted once under that URL.
        if (finalUrl !== item.url) await markUrlDone(deps.db, crawlId, finalUrl, 'html');
        const reg = await registerAnswered(crawlId, siteId, finalUrl, item, outcome.status);
        const { links, base } = extractLinks(outcome.body);
        const baseUrl = (base && normalizeUrl(base, finalUrl)) || finalUrl;
        const out: string[] = [];
        for (const href of links) {
          const u = normalizeUrl(href, baseUrl);
          if (u && sameSite(u, siteUrl) && !looksLikeAsset(u) && skipped.admit(u)) out.push(u);
        }
        return { added: reg.added, links: out };
      }
      case 'unreachable': {
        // No answer in time, or 5xx after a retry: a page that failed, per the contract.
        const url = landedAt(outcome.finalUrl, item.url) ?? item.url;
        if (!skipped.admit(url)) return { added: false, links: [] };
        const reg = await registerPage(deps.db, {
          crawlId,
          siteId,
          url,
          path: pathOf(url),
          depth: item.depth,
          via: item.via,
          httpStatus: null,
          failed: { code: outcome.code, message: outcome.message },
        });
        return { added: reg.added, links: [] };
      }
      case 'not-html': {
        // A document the site links to (a PDF): a page of the crawl, audited from the file. Its
        // links are not followed (a document's links lead to pages its site links to anyway).
        const url = landedAt(outcome.finalUrl, item.url)!;
        const mediaType = documentType(outcome.contentType, url);
        if (!mediaType || !skipped.admit(url)) return { added: false, links: [] };
        if (url !== item.url) await markUrlDone(deps.db, crawlId, url, 'not-html');
        const reg = await registerPage(deps.db, { crawlId, siteId, url, path: pathOf(url), depth: item.depth, via: item.via, httpStatus: null, mediaType });
        return { added: reg.added, links: [] };
      }
      case 'broken':
        await incrementBrokenLinks(deps.db, crawlId);
        return { added: false, links: [] };
      default:
        return { added: false, links: [] };
    }
  }

  /**
   * The crawl's start page, registered from the answer read while its address was resolved, so
   * the scans can start before the sitemaps are read. Only the page: the frontier is written with
   * the sitemaps' URLs (a run that stops in between reads them again). Says whether it was added.
   */
  async function registerStartPage(crawlId: string, siteId: string, item: FrontierUrl, answer: Extract<FetchOutcome, { kind: 'html' }>): Promise<boolean> {
    const url = landedAt(answer.finalUrl, item.url)!;
    if (!urlWithinLimit(url)) return false;
    return (await registerAnswered(crawlId, siteId, url, item, answer.status)).added;
  }

  /** The page a frontier URL's HTML answer landed on (`url`), registered with the URL's depth and origin. */
  function registerAnswered(crawlId: string, siteId: string, url: string, item: FrontierUrl, httpStatus: number) {
    return registerPage(deps.db, { crawlId, siteId, url, path: pathOf(url), depth: item.depth, via: item.via, httpStatus, mediaType: null });
  }

  return {
    /**
     * Breadth-first discovery over plain HTTP from the site's base URL plus its sitemaps. Pages are
     * written as they are found, so scanning starts at once. All state lives in the database: a
     * retried run resumes where the last one stopped.
     */
    async discoverPages(input: DiscoverInput, ctx: DiscoveryRunContext): Promise<DiscoverResult> {
      const o = input.options;
      const crawl = await findCrawl(deps.db, input.crawlId);
      if (!crawl) throw new CrawlNotFoundError(`crawl ${input.crawlId} does not exist`);
      const site = (await findSite(deps.db, crawl.siteId))!;
      const log = deps.logger.child({ crawlId: crawl.id, siteId: site.id });
      let found = crawl.totalPages;
      const heartbeat = () => ctx.heartbeat({ pages: found });
      heartbeat();
      const budget = new CountingBudget(await countFetchedUrls(deps.db, crawl.id), crawl.maxPages * FETCHES_PER_PAGE + 10);
      // Every fetch waits for the host's slot (robots.txt's Crawl-delay, a pause the site asked for);
      // the waits are summed into the crawl's throttledMs.
      const pacer = deps.pacer ?? UNPACED;
      let waited = 0;
      const onWait = (ms: number) => void (waited += ms);
      const flushWaited = async () => {
        const ms = waited;
        waited = 0;
        await addCrawlThrottledMs(deps.db, crawl.id, ms);
      };
      const patient = politeFetch({ pacer, signal: ctx.signal, onWait, attempts: INLINE_THROTTLE_ATTEMPTS });
      const once = politeFetch({ pacer, signal: ctx.signal, onWait, attempts: 1 });

      // A run that handed its slot back while waiting for rendered links resumes with what it had set up.
      const cached = walks.get(crawl.id);
      walks.delete(crawl.id);
      for (const [id, w] of walks) if (Date.now() - w.at > WALK_KEPT_MS) walks.delete(id);
      let auth = cached?.auth;
      let robots: Robots;
      /** The start page, registered before the sitemaps were read; its links are followed below. */
      let early: { item: FrontierUrl & { attempts: number }; answer: FetchOutcome } | undefined;
      let siteUrl = cached?.siteUrl ?? site.baseUrl;
      if (cached) robots = cached.robots;
      else {
        // The site's authentication set-up, read and opened here (never an activity input).
        const authLoad = await deps.loadAuth(site);
        if (authLoad.kind === 'unavailable') log.warn({ reason: authLoad.message }, "discovering without the site's authentication set-up");
        auth =
          authLoad.kind === 'auth'
            ? new DiscoveryAuth(authLoad.auth, { logger: log, ...(deps.openLoginTab && { openLoginTab: deps.openLoginTab }) })
            : undefined;
        if (auth?.hasLogin) await auth.login(ctx.signal, heartbeat);

        // robots.txt first: a home page it disallows is never fetched, not even to see where it lives.
        budget.take();
        robots = await readRobots(site.baseUrl, deps.policy, o.fetchTimeoutMs, auth?.fetch, patient);
        await pacer.setCrawlDelay(site.baseUrl, robots.crawlDelay);
        // A run resuming elsewhere (another worker, or a retry) finds the home page and sitemaps already read.
        const seeded = (await countFrontierUrls(deps.db, crawl.id)) > 0;
        /** The home page's answer, fetched while its address was resolved: not fetched again. */
        let homeAnswer: FetchOutcome | undefined;
        if (!seeded && robots.isAllowed(normalizeUrl(siteUrl)!)) {
          // The site's home page as users type it may live on www. (or the reverse): follow that.
          const home = await resolveHome(site.baseUrl);
          if (home.kind === 'off-site') {
            await setDiscoveryDone(deps.db, crawl.id, {
              code: 'off_site_redirect',
              message: `the site's address ${site.baseUrl} redirects to ${home.location}, which is another site: add that address as the site instead`,
            });
            log.warn({ location: home.location }, 'the home page redirects off the site');
            return { totalPages: found };
          }
          if (home.url !== site.baseUrl) {
            siteUrl = home.url;
            await setSiteBaseUrl(deps.db, site.id, siteUrl);
            log.info({ from: site.baseUrl, to: siteUrl }, 'the site lives at another address of the same host; crawling there');
            budget.take();
            robots = await readRobots(siteUrl, deps.policy, o.fetchTimeoutMs, auth?.fetch, patient);
            await pacer.setCrawlDelay(siteUrl, robots.crawlDelay);
          } else if (!auth) homeAnswer = home.answer; // (with a set-up, pages are fetched with its session)
        }
        heartbeat();
        if (!seeded) {
          const home = normalizeUrl(siteUrl)!;
          const seed: FrontierUrl[] = robots.isAllowed(home) ? [{ url: home, depth: 0, via: 'root' }] : [];
          // The start page is handed to the scans now, before the sitemaps are read (a site's
          // sitemaps can take many fetches); its links join the frontier with the sitemaps' URLs,
          // so a run that stops in between reads the sitemaps again.
          if (seed.length > 0 && homeAnswer?.kind === 'html') {
            early = { item: { ...seed[0]!, attempts: 0 }, answer: homeAnswer };
            if (await registerStartPage(crawl.id, site.id, early.item, homeAnswer)) found = await countCrawlPages(deps.db, crawl.id);
          }
          const sitemaps = await readSitemaps(siteUrl, robots.sitemaps, deps.policy, {
            timeoutMs: o.fetchTimeoutMs,
            maxUrls: crawl.maxPages * 2,
            budget,
            heartbeat,
            auth: auth?.fetch,
            fetch: patient,
          });
          for (const p of sitemaps.problems) log.warn({ sitemap: p.url, code: p.code, reason: p.message }, 'sitemap skipped');
          const sitemapSkips = new SkippedUrls(sitemaps.tooLong);
          for (const url of sitemaps.urls) if (robots.isAllowed(url) && sitemapSkips.admit(url)) seed.push({ url, depth: 1, via: 'sitemap' });
          await enqueueUrls(deps.db, crawl.id, seed);
          await sitemapSkips.flush(deps.db, crawl.id);
        }
        heartbeat();
      }
      const root = normalizeUrl(siteUrl)!;
      const skipped = new SkippedUrls();

      const queries = new QueryBudget(o.maxQueryVariants);
      const known = new Set(await allFrontierUrls(deps.db, crawl.id));
      for (const u of known) queries.admit(u);
      /** The rules every same-site link found in a page meets to be followed, served or rendered alike. */
      const followable = (url: string, depth: number) => depth <= o.maxDepth && robots.isAllowed(url) && queries.admit(url);

      /**
       * Rendered discovery: once the HTTP frontier is empty, the links the scans read in rendered
       * pages join it under the same rules as links in served HTML. Says whether any was judged.
       */
      const takeRenderedLinks = async (): Promise<boolean> => {
        const candidates = await nextRenderedLinks(deps.db, crawl.id, RENDERED_BATCH);
        if (candidates.length === 0) return false;
        const admitted: FrontierUrl[] = [];
        const refused: string[] = [];
        for (const c of candidates) {
          const ok =
            !known.has(c.url) &&
            sameSite(c.url, siteUrl) &&
            !looksLikeAsset(c.url) &&
            skipped.admit(c.url) &&
            followable(c.url, c.depth);
          known.add(c.url);
          if (ok) admitted.push({ url: c.url, depth: c.depth, via: 'rendered' });
          else refused.push(c.url);
        }
        await admitRenderedLinks(deps.db, crawl.id, admitted, refused);
        await skipped.flush(deps.db, crawl.id);
        return true;
      };

      /** One fetched URL of the frontier: a page (its links followed), a URL to fetch again later, or nothing. */
      const follow = async (item: FrontierUrl & { attempts: number }, answer: FetchOutcome): Promise<void> => {
        let outcome = answer;
        if (outcome.kind === 'throttled') {
          // 429 or 503: not the page's answer, and never a broken link. The URL waits for the
          // pause the site asked for (recorded by the fetch) and is fetched again; only a site
          // that keeps pushing back for all its tries makes it a failed page.
          if (item.attempts + 1 < THROTTLE_ATTEMPTS) {
            const wait = throttleWaitMs(item.attempts + 1, outcome.retryAfterMs);
            onWait(wait);
            await deferUrl(deps.db, crawl.id, item.url, wait);
            return;
          }
          outcome = {
            kind: 'unreachable',
            finalUrl: outcome.finalUrl,
            code: 'rate_limited',
            message: `the site limited the crawl: it answered HTTP ${outcome.status} to ${THROTTLE_ATTEMPTS} tries over the waits it asked for`,
          };
        }
        if (found < crawl.maxPages) {
          const next = await record(crawl.id, site.id, siteUrl, item, outcome, skipped);
          if (next.added) found = await countCrawlPages(deps.db, crawl.id);
          const links: FrontierUrl[] = [];
          for (const link of next.links) {
            if (known.has(link)) continue;
            known.add(link);
            if (!followable(link, item.depth + 1)) continue;
            links.push({ url: link, depth: item.depth + 1, via: 'link' });
          }
          await enqueueUrls(deps.db, crawl.id, links);
        }
        await markUrlDone(deps.db, crawl.id, item.url, outcome.kind);
      };
      if (early) {
        await follow(early.item, early.answer);
        await skipped.flush(deps.db, crawl.id);
      }

      // Carried from run to run by the workflow while discovery waits with its slot handed back.
      let progress: WaitProgress = input.progress ?? { mark: '', at: Date.now() };
      /** Since when this run has had nothing to do but wait for rendered links. */
      let idleSince: number | undefined;
      let stoppedBy: { code: string; message: string } | undefined;
      while (found < crawl.maxPages) {
        if (ctx.signal.aborted) break;
        // No more at once than the host takes now (one while it asks for a Crawl-delay, fewer while it pushes back).
        const batch = await nextQueuedUrls(deps.db, crawl.id, Math.max(1, Math.min(o.concurrency, await pacer.allowance(siteUrl))));
        if (batch.length === 0) {
          // URLs the site asked discovery to fetch later: waited for (heartbeating), never given up.
          const deferred = await nextDeferredInMs(deps.db, crawl.id);
          if (deferred !== undefined) {
            idleSince = undefined;
            await flushWaited();
            await pause(Math.min(Math.max(deferred, 50), 2_000), ctx.signal);
            heartbeat();
            continue;
          }
          // Settled first: a scan queues its page's links before the page counts as scanned, so
          // links read after every page was seen settled are all the links there will be.
          const settled = await crawlScansSettled(deps.db, crawl.id);
          if (await takeRenderedLinks()) {
            idleSince = undefined;
            continue;
          }
          if (settled) break;
          // Waiting holds the queue's one slot: hand it back now and then, so that other crawls'
          // discovery gets its turn; the workflow runs this activity again at once.
          idleSince ??= Date.now();
          if (Date.now() - idleSince > (deps.renderedYieldMs ?? RENDERED_YIELD_MS)) {
            walks.set(crawl.id, { siteUrl, robots, auth, at: Date.now() });
            log.info({ totalPages: found }, 'discovery waits for the links of pages still being scanned; handing its slot back for a while');
            return { totalPages: found, waiting: true, progress };
          }
          // A crawl that ended (failed, cancelled, finalized) scans nothing more: nothing to wait for.
          const now = await findCrawl(deps.db, crawl.id);
          if (now?.status !== 'running') break;
          const mark = `${now.totalPages}/${now.scannedPages}/${now.failedPages}`;
          if (mark !== progress.mark) progress = { mark, at: Date.now() };
          else if (Date.now() - progress.at > RENDERED_STALL_MS) {
            log.warn({ waitedMs: Date.now() - progress.at }, 'no page of the crawl moved while discovery waited for rendered links; it stops waiting');
            break;
          }
          await pause(RENDERED_POLL_MS, ctx.signal);
          heartbeat();
          // A page a scan took back out (a "not found" view) frees its place under maxPages.
          found = await countCrawlPages(deps.db, crawl.id);
          continue;
        }
        idleSince = undefined;
        if (budget.used + batch.length > budget.max) {
          stoppedBy = {
            code: 'fetch_budget_spent',
            message: `discovery stopped after ${budget.used} requests (${FETCHES_PER_PAGE} per page of the crawl's limit); most of them found no page, e.g. broken links`,
          };
          break;
        }
        budget.used += batch.length;
        const fetchOpts = () => ({ siteUrl, policy: deps.policy, timeoutMs: o.fetchTimeoutMs, retries: 1, auth: auth?.fetch });
        const usedAuth = auth?.fetch;
        const outcomes = await Promise.all(batch.map((b) => once(b.url, fetchOpts()).finally(heartbeat)));
        for (let i = 0; i < batch.length; i++) {
          const item = batch[i]!;
          let outcome = outcomes[i]!;
          if (auth && outcome.kind === 'html' && auth.isLogin(outcome.finalUrl)) {
            if (auth.isLogin(item.url)) {
              // The login form itself is not a page of the site.
              await markUrlDone(deps.db, crawl.id, item.url, 'login_form');
              continue;
            }
            // Logged out (the session ended): log in again, or fetch again if another URL of this batch already did.
            if (auth.fetch !== usedAuth || (await auth.login(ctx.signal, heartbeat))) {
              budget.used++;
              outcome = await once(item.url, fetchOpts()).finally(heartbeat);
            }
            // Still the login form: the URL is a page (its scan logs in on its own), but its links stay unknown.
            if (outcome.kind === 'html' && auth.isLogin(outcome.finalUrl)) outcome = { ...outcome, finalUrl: item.url, body: '' };
          }
          await follow(item, outcome);
        }
        await skipped.flush(deps.db, crawl.id);
        await flushWaited();
        heartbeat();
      }
      await flushWaited();
      if (!ctx.signal.aborted) {
        if (!stoppedBy && found === 0 && !robots.isAllowed(root)) {
          stoppedBy = { code: 'robots_disallowed', message: `robots.txt of ${new URL(siteUrl).host} disallows the home page, and no page it allows was found` };
        }
        await setDiscoveryDone(deps.db, crawl.id, stoppedBy);
      }
      log.info({ totalPages: found, fetches: budget.used, stoppedBy: stoppedBy?.code }, 'discovery finished');
      return { totalPages: found };

      /**
       * Follows the home page's moves between host and www.host (and to https); any other move off
       * the host is reported. The home page's own answer comes back with it (what a walk would fetch).
       */
      async function resolveHome(start: string): Promise<{ kind: 'home'; url: string; answer?: FetchOutcome } | { kind: 'off-site'; location: string }> {
        let url = start;
        for (let moves = 0; moves <= MAX_HOME_MOVES; moves++) {
          budget.take();
          const r = await patient(url, { siteUrl: url, policy: deps.policy, timeoutMs: o.fetchTimeoutMs, retries: 1 });
          if (r.kind !== 'off-site') return { kind: 'home', url, answer: r };
          if (!sameSiteMove(url, r.location)) return { kind: 'off-site', location: r.location };
          url = normalizeUrl(r.location)!;
        }
        return { kind: 'home', url };
      }
    },
  };
}

export type Discoverer = ReturnType<typeof createDiscoverer>;
