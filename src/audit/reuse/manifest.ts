/**
 * What a page loaded for its audit, as page reuse needs it: the top document and every resource,
 * each with what it answered (status, validators, a hash of its bytes), so that a later crawl can
 * ask the site whether anything changed without opening a tab. Pure: the recorder
 * (resource-recorder.ts) gathers the facts from the tab; revalidation (revalidate.ts) asks the site.
 */

import type { RecheckAnswer, ResourceEntry, ResourceManifest } from '../../shared/page-reuse.ts';

export type { RecheckAnswer, ResourceEntry, ResourceManifest, StoredRendered } from '../../shared/page-reuse.ts';

/** A page that loaded more than this many resources is not reusable (its manifest would cost more to check than it saves). */
export const MAX_REUSE_RESOURCES = 200;

/** One request the tab saw while the page was audited, as the recorder hands it over. */
export interface SeenRequest {
  url: string;
  method: string;
  resourceType: string;
  /** A main-frame navigation (the page itself, a reload, or the page sending the browser elsewhere). */
  mainFrameNavigation: boolean;
  /** Ended without an answer (a network failure, or aborted). */
  failed?: string;
  /** Never ended while the page was audited. */
  pending?: boolean;
  response?: { status: number; etag?: string; lastModified?: string; location?: string; sha256?: string };
}

/** Schemes whose "requests" never reach a server: nothing to revalidate. */
const LOCAL = /^(data|blob|about|chrome|chrome-extension|devtools):/i;

/**
 * The manifest of one audit: usable only when every request was a GET that the site answered
 * (any status; a failure, a request still pending, a non-GET, a WebSocket, a request the egress
 * proxy refused, or a main-frame navigation to another address make it unusable), every answer
 * can be checked again (validators or a hash of its bytes), and there are at most
 * MAX_REUSE_RESOURCES of them. The page's own URL comes first.
 */
export function buildManifest(
  pageUrl: string,
  seen: readonly SeenRequest[],
  o: { refusedByProxy?: number; limit?: number } = {},
): ResourceManifest {
  const limit = o.limit ?? MAX_REUSE_RESOURCES;
  if (o.refusedByProxy) return { usable: false, reason: `${o.refusedByProxy} request(s) refused by the egress proxy` };
  const own = withoutFragment(pageUrl);
  // Where the page's own document was answered: the URL and every hop of its redirects.
  const documentChain = new Set<string>([own]);
  const entries = new Map<string, ResourceEntry>();
  for (const r of seen) {
    if (LOCAL.test(r.url)) continue;
    if (!/^https?:/i.test(r.url)) return { usable: false, reason: `a request that is not http(s): ${r.url.slice(0, 200)}` };
    if (r.method !== 'GET') return { usable: false, reason: `a ${r.method} request (${r.url.slice(0, 200)})` };
    if (r.resourceType === 'websocket' || r.resourceType === 'eventsource') return { usable: false, reason: `a ${r.resourceType} (${r.url.slice(0, 200)})` };
    const url = withoutFragment(r.url);
    if (r.mainFrameNavigation && !documentChain.has(url)) return { usable: false, reason: `the page navigated to ${url.slice(0, 200)}` };
    if (r.failed !== undefined) return { usable: false, reason: `a request failed: ${url.slice(0, 200)} (${r.failed.slice(0, 100)})` };
    if (r.pending || !r.response) return { usable: false, reason: `a request never ended: ${url.slice(0, 200)}` };
    const res = r.response;
    if (r.mainFrameNavigation && res.location && res.status >= 300 && res.status < 400) {
      try {
        documentChain.add(withoutFragment(new URL(res.location, url).href));
      } catch {
        return { usable: false, reason: `a redirect to an invalid address from ${url.slice(0, 200)}` };
      }
    }
    const known = entries.get(url);
    if (known) {
      // The same URL twice (a reload, a cached copy): one entry, unless it answered otherwise.
      if (known.status !== res.status || (known.sha256 && res.sha256 && known.sha256 !== res.sha256)) {
        return { usable: false, reason: `${url.slice(0, 200)} answered differently within one audit` };
      }
      continue;
    }
    const redirect = res.status >= 300 && res.status < 400;
    if (!redirect && !res.sha256 && !res.etag && !res.lastModified) return { usable: false, reason: `nothing to check ${url.slice(0, 200)} against (no validators, body unreadable)` };
    entries.set(url, {
      url,
      status: res.status,
      ...(res.etag ? { etag: res.etag } : {}),
      ...(res.lastModified ? { lastModified: res.lastModified } : {}),
      ...(res.sha256 ? { sha256: res.sha256 } : {}),
      ...(res.location ? { location: res.location } : {}),
    });
    if (entries.size > limit) return { usable: false, reason: `more than ${limit} resources` };
  }
  if (!entries.has(own)) return { usable: false, reason: 'the page\'s own document was not seen' };
  // The page first: it is checked first, and a change there ends the check at once.
  const first = entries.get(own)!;
  entries.delete(own);
  return { usable: true, entries: [first, ...entries.values()] };
}

function withoutFragment(url: string): string {
  const hash = url.indexOf('#');
  return hash < 0 ? url : url.slice(0, hash);
}


/**
 * Whether an entry answers as it did: a 304 to the conditional GET, or the same status with the
 * same bytes (a redirect: the same `Location`). Returns the entry as it stands now (new
 * validators kept for the next check), or why it changed.
 */
export function recheck(entry: ResourceEntry, answer: RecheckAnswer): { same: true; entry: ResourceEntry } | { same: false; reason: string } {
  if (answer.kind === 'failed') return { same: false, reason: `${entry.url.slice(0, 200)}: ${answer.reason}` };
  if (answer.kind === 'not-modified') {
    // A 304 is an answer to the validators only when there were some to send.
    if (!entry.etag && !entry.lastModified) return { same: false, reason: `${entry.url.slice(0, 200)} answered 304 to an unconditional GET` };
    return { same: true, entry };
  }
  if (answer.status !== entry.status) return { same: false, reason: `${entry.url.slice(0, 200)} answered ${answer.status}, was ${entry.status}` };
  if (entry.status >= 300 && entry.status < 400) {
    if ((answer.location ?? '') !== (entry.location ?? '')) return { same: false, reason: `${entry.url.slice(0, 200)} redirects elsewhere` };
    return { same: true, entry };
  }
  // Recorded by its validators alone (its bytes were not hashed): the same strong ETag is the same representation.
  if (!entry.sha256 && entry.etag && !entry.etag.startsWith('W/') && answer.etag === entry.etag) return { same: true, entry };
  if (!entry.sha256 || !answer.sha256) return { same: false, reason: `${entry.url.slice(0, 200)} answered in full and there is no hash to compare` };
  if (entry.sha256 !== answer.sha256) return { same: false, reason: `${entry.url.slice(0, 200)} changed` };
  // The same bytes: the validators it sends now are the ones to send next time.
  const { etag: _etag, lastModified: _lastModified, ...rest } = entry;
  return { same: true, entry: { ...rest, ...(answer.etag ? { etag: answer.etag } : {}), ...(answer.lastModified ? { lastModified: answer.lastModified } : {}) } };
}

/** One page's manifests at several viewports as one: usable only if each is and they agree. */
export function mergeManifests(manifests: ReadonlyArray<ResourceManifest | undefined>, limit = MAX_REUSE_RESOURCES): ResourceManifest {
  const entries = new Map<string, ResourceEntry>();
  for (const m of manifests) {
    if (!m) return { usable: false, reason: 'not recorded' };
    if (!m.usable) return m;
    for (const e of m.entries) {
      const known = entries.get(e.url);
      if (known && (known.status !== e.status || known.sha256 !== e.sha256)) return { usable: false, reason: `${e.url.slice(0, 200)} answered differently at two viewports` };
      if (!known) entries.set(e.url, e);
    }
  }
  if (entries.size === 0) return { usable: false, reason: 'not recorded' };
  if (entries.size > limit) return { usable: false, reason: `more than ${limit} resources` };
  return { usable: true, entries: [...entries.values()] };
}
