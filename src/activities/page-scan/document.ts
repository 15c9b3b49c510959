/**
 * A URL the browser does not show as a page (it answered with another content type, or started a
 * download): fetched once more as a document, as a careful guest (the host's pacing, the target
 * policy's pinned connection, a size cap) and, when it is a PDF, audited by the document engine.
 */
import { createHash } from 'node:crypto';
import { politeFetch } from '../../discovery/polite-fetch.ts';
import type { FetchAuth } from '../../discovery/fetch-page.ts';
import { documentType } from '../../shared/urls.ts';
import type { TargetPolicy } from '../../security/target-policy.ts';
import type { HostPacer } from '../../shared/politeness.ts';
import { looksLikePdf } from '../../audit/documents/pdf-facts.ts';
import { readPdfInWorker } from '../../audit/documents/read-in-worker.ts';
import { DOCUMENT_ENGINE, judgePdf } from '../../audit/documents/judge-pdf.ts';
import { scrubbed, type ScanUrlResult } from '../../audit/scan-url.ts';
import { buildManifest, type ResourceManifest } from '../../audit/reuse/manifest.ts';
import { SCREENSHOT_MIME, type FindingScreenshot, type ScreenshotHook } from '../../audit/screenshots/capture.ts';
import type { PdfFacts, PictureTarget } from '../../audit/documents/pdf-facts.ts';

export interface DocumentSettings {
  /** DOCUMENT_MAX_BYTES. */
  readonly maxBytes: number;
  /** DOCUMENT_READ_TIMEOUT_MS. */
  readonly readTimeoutMs: number;
  /** DOCUMENT_READ_MEMORY_MB. */
  readonly memoryMb: number;
}

export const DEFAULT_DOCUMENT_SETTINGS: DocumentSettings = Object.freeze({ maxBytes: 50 * 1024 * 1024, readTimeoutMs: 60_000, memoryMb: 512 });

export interface DocumentAuditDeps {
  policy: TargetPolicy;
  pacer: HostPacer;
  pageLoadTimeoutMs: number;
  settings: DocumentSettings;
  signal?: AbortSignal;
  /** Pictures of (some of) the findings: the page, a link's or field's rectangle outlined; unset: none. */
  screenshots?: ScreenshotHook;
  /** The site's authentication headers (its own, basic credentials, cookies), sent to its origin only. */
  auth?: FetchAuth;
  /**
   * A site with a scripted login: the `Cookie` header of the crawl's logged-in session for the file
   * (`fresh`: log in again first, the file came back as the login form), sent instead of `auth`'s.
   */
  session?: (fresh: boolean) => Promise<string>;
  /** What the site's login types and its set-up's secrets: scrubbed from the result, and no picture of a document that shows one. */
  secrets?: readonly string[];
}

/** A finding's picture target, as the document judge names it (`data.picture`). */
const pictureOf = (data: Record<string, unknown>): Omit<PictureTarget, 'key'> | undefined => {
  const p = data.picture as Omit<PictureTarget, 'key'> | undefined;
  return p && Number.isInteger(p.page) ? p : undefined;
};
const KEY_SEP = '\u0000';

/**
 * The document at `url` audited, or undefined when it is not a document the service audits (the
 * page's `not_html` error then stands). A document that cannot be fetched or read is a page error
 * that says why; a site that pushes back is a `rate_limited` error with its wait, as for a page.
 */
export async function auditDocumentAt(url: string, deps: DocumentAuditDeps): Promise<ScanUrlResult | undefined> {
  const startedAt = performance.now();
  const fetchWith = async (fresh: boolean) => {
    const cookie = deps.session ? await deps.session(fresh) : undefined;
    const auth = !cookie ? deps.auth : { origin: deps.auth?.origin ?? new URL(url).origin, headers: { ...deps.auth?.headers, cookie } };
    return politeFetch({ pacer: deps.pacer, signal: deps.signal })(url, {
      siteUrl: url,
      policy: deps.policy,
      timeoutMs: deps.pageLoadTimeoutMs,
      retries: 1,
      accept: 'application/pdf,*/*;q=0.1',
      maxBytes: deps.settings.maxBytes,
      document: true,
      ...(auth ? { auth } : {}),
    });
  };
  let fetched = await fetchWith(false);
  // Something else where the file should be, with a scripted login: the session ended (the login
  // form came back, or a redirect to it). Logged in again, the file is asked for once more.
  const elsewhere = fetched.kind === 'html' || fetched.kind === 'not-html' || fetched.kind === 'off-site' || (fetched.kind === 'document' && !looksLikePdf(fetched.bytes));
  if (deps.session && elsewhere) fetched = await fetchWith(true);
  switch (fetched.kind) {
    case 'document':
      break;
    case 'throttled':
      return {
        kind: 'page-error',
        error: { code: 'rate_limited', message: `the site answered HTTP ${fetched.status} to the document: it asks the crawl to wait` },
        finalUrl: fetched.finalUrl,
        httpStatus: fetched.status,
        throttle: { status: fetched.status, url: fetched.finalUrl, ...(fetched.retryAfterMs !== undefined ? { retryAfterMs: fetched.retryAfterMs } : {}) },
      };
    case 'unreachable':
      return { kind: 'page-error', error: { code: fetched.code, message: fetched.message }, finalUrl: fetched.finalUrl, httpStatus: null };
    case 'forbidden':
      return { kind: 'page-error', error: { code: 'forbidden_target', message: fetched.reason }, finalUrl: null, httpStatus: null };
    case 'broken':
      return { kind: 'page-error', error: { code: 'http_error', message: `HTTP ${fetched.status}` }, finalUrl: fetched.finalUrl, httpStatus: fetched.status };
    default:
      // A redirect to another site, or an HTML page after all: not this audit's to judge.
      return undefined;
  }
  const { bytes, finalUrl, status, contentType } = fetched;
  // The bytes decide, not the name or the header: a PDF served as octet-stream is still one.
  if (!looksLikePdf(bytes)) {
    // Said to be a PDF (its type, or a .pdf address served as octet-stream) and is not: that is the answer.
    return documentType(contentType, finalUrl)
      ? { kind: 'page-error', error: { code: 'document_unreadable', message: `the server calls it ${contentType}, but the file does not start as a PDF (no %PDF- header)` }, finalUrl, httpStatus: status }
      : undefined;
  }
  const hook = deps.screenshots;
  // Judged once: while the file is still open when pictures are asked for (their pages render
  // then), else once it is read. The facts are the same object either way.
  let judged: ReturnType<typeof judgePdf> | undefined;
  const judge = (facts: PdfFacts) => (judged ??= judgePdf(facts));
  const read = await readPdfInWorker(bytes, {
    timeoutMs: deps.settings.readTimeoutMs,
    memoryMb: deps.settings.memoryMb,
    signal: deps.signal,
    ...(deps.secrets?.length ? { secrets: deps.secrets } : {}),
    ...(hook && {
      pictures: {
        budgetMs: hook.budgetMs,
        pick: async (facts) =>
          // A document that shows what the login typed (the user's name, an account) is not pictured.
          facts.showsSecret ? [] : (await hook.pick(judge(facts).findings.filter((f) => pictureOf(f.data)))).map((f) => ({ key: `${f.ruleId}${KEY_SEP}${f.elementSelector}`, ...pictureOf(f.data)! })),
      },
    }),
  });
  if (read.kind === 'encrypted') return { kind: 'page-error', error: { code: 'document_encrypted', message: read.message }, finalUrl, httpStatus: status };
  if (read.kind === 'unreadable') return { kind: 'page-error', error: { code: 'document_unreadable', message: read.message.slice(0, 500) }, finalUrl, httpStatus: status };
  const { findings, passes } = judge(read.facts);
  // Page reuse: the file is the audit's one resource; a later crawl asks the site whether it changed.
  const manifest: ResourceManifest =
    finalUrl === url
      ? buildManifest(url, [
          {
            url,
            method: 'GET',
            resourceType: 'document',
            mainFrameNavigation: true,
            response: { status, sha256: createHash('sha256').update(bytes).digest('hex'), ...(fetched.etag ? { etag: fetched.etag } : {}), ...(fetched.lastModified ? { lastModified: fetched.lastModified } : {}) },
          },
        ])
      : { usable: false, reason: `the document was redirected to ${finalUrl.slice(0, 200)}` };
  return scrubbed(deps.secrets ?? [], false, {
    kind: 'scanned',
    pageTitle: read.facts.title,
    finalUrl,
    httpStatus: status,
    findings,
    passes,
    blocked: [],
    engines: [{ engine: DOCUMENT_ENGINE, ms: Math.round(performance.now() - startedAt), findings }],
    statesChecked: [],
    screenshots: (read.pictures ?? []).map((p): FindingScreenshot => {
      const [ruleId, elementSelector] = p.key.split(KEY_SEP) as [string, string];
      return { ruleId, elementSelector, mime: SCREENSHOT_MIME, image: Buffer.from(p.png), width: p.width, height: p.height };
    }),
    manifest,
    document: { mediaType: 'application/pdf', bytes: bytes.byteLength, pages: read.facts.pageCount },
  });
}
