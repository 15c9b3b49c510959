import { createHash } from 'node:crypto';
import type { BrowserContext, Page, Request, Response } from 'playwright';
import type { SeenRequest } from '../reuse/manifest.ts';

/** A body larger than this is not hashed (its entry then needs validators to be checked again). Bodies with validators are not hashed. */
const MAX_HASHED_BYTES = 16 * 1024 * 1024;
/** How long `stop` waits for the bodies still being hashed. */
const HASH_WAIT_MS = 5_000;

/** One recording of the requests a tab's context makes, from `start` to `stop` (see manifest.ts). */
export interface ResourceRecording {
  stop(): Promise<SeenRequest[]>;
}

/**
 * Records every request of `context` (the page, its frames, its workers) while a recording runs:
 * method, type, whether it navigated the main frame, and how it ended, with the answer's
 * validators and a sha256 of its body. Page reuse (src/audit/reuse) decides from it whether the
 * audit can stand for a later crawl. Listening costs little; a recording is started per audit.
 */
export function resourceRecorder(context: BrowserContext, page: Page): { start(): ResourceRecording } {
  const active = new Set<Map<Request, SeenRequest>>();
  const hashing = new Set<Promise<void>>();
  const mainFrameNavigation = (r: Request) => {
    try {
      return r.isNavigationRequest() && r.frame() === page.mainFrame();
    } catch {
      return false; // a service worker's request has no frame
    }
  };
  context.on('request', (r) => {
    if (active.size === 0) return;
    const seen: SeenRequest = { url: r.url(), method: r.method(), resourceType: r.resourceType(), mainFrameNavigation: mainFrameNavigation(r), pending: true };
    for (const rec of active) rec.set(r, seen);
  });
  context.on('requestfailed', (r) => {
    for (const rec of active) {
      const seen = rec.get(r);
      if (!seen) continue;
      seen.pending = false;
      seen.failed = r.failure()?.errorText ?? 'failed';
    }
  });
  // Each answer as it arrives, so that reading a finished request's answer needs no round trip to the browser.
  const answers = new WeakMap<Request, Response>();
  context.on('response', (res) => {
    if (active.size > 0) answers.set(res.request(), res);
  });
  context.on('requestfinished', (r) => {
    const mine = [...active].flatMap((rec) => (rec.has(r) ? [rec.get(r)!] : []));
    if (mine.length === 0) return;
    const done = (async () => {
      const res = answers.get(r) ?? (await r.response().catch(() => null));
      if (!res) {
        for (const seen of mine) Object.assign(seen, { pending: false, failed: 'no response' });
        return;
      }
      // The headers the answer arrived with (validators, length, location are among them; only
      // cookie headers are not, which nothing here reads): no round trip, unlike allHeaders().
      const headers = res.headers();
      const status = res.status();
      let sha256: string | undefined;
      const length = Number(headers['content-length'] ?? 0);
      // An answer with validators is checked again by a conditional GET: its bytes are not copied
      // out of the browser to be hashed (the costly part of recording).
      const validated = Boolean(headers.etag || headers['last-modified']);
      if (!validated && !(status >= 300 && status < 400) && length <= MAX_HASHED_BYTES) {
        const body = await res.body().catch(() => undefined);
        if (body && body.byteLength <= MAX_HASHED_BYTES) sha256 = createHash('sha256').update(body).digest('hex');
      }
      const response = {
        status,
        ...(headers.etag ? { etag: headers.etag } : {}),
        ...(headers['last-modified'] ? { lastModified: headers['last-modified'] } : {}),
        ...(headers.location ? { location: headers.location } : {}),
        ...(sha256 ? { sha256 } : {}),
      };
      for (const seen of mine) Object.assign(seen, { pending: false, response });
    })().catch(() => {
      for (const seen of mine) Object.assign(seen, { pending: false, failed: 'unreadable' });
    });
    hashing.add(done);
    void done.finally(() => hashing.delete(done));
  });
  return {
    start() {
      const rec = new Map<Request, SeenRequest>();
      active.add(rec);
      return {
        async stop() {
          active.delete(rec);
          await Promise.race([Promise.all([...hashing]), new Promise((resolve) => setTimeout(resolve, HASH_WAIT_MS))]);
          return [...rec.values()].map((s) => ({ ...s }));
        },
      };
    },
  };
}
