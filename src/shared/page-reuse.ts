/** Page reuse's stored shapes (see src/audit/reuse/manifest.ts): what a crawl page's audit loaded, and the links it handed to discovery. */

/** One URL the page fetched, as it answered. */
export interface ResourceEntry {
  url: string;
  status: number;
  /** `ETag` as the site sent it (weak or strong). */
  etag?: string;
  /** `Last-Modified` as the site sent it. */
  lastModified?: string;
  /** sha256 (hex) of the body as the browser received it (decoded); absent when it could not be read. */
  sha256?: string;
  /** A redirect's `Location`, as sent. */
  location?: string;
}

/** A page's manifest, stored on its scan: usable, or why not (kept for operators). */
export type ResourceManifest = { usable: true; entries: ResourceEntry[] } | { usable: false; reason: string };

/** A crawl page's rendered links and view as handed to discovery: a reused page hands them over again. */
export interface StoredRendered {
  links: string[];
  /** The rendered view's facts (src/audit/links/rendered-view.ts, without its links). */
  view: { textHash: string; title: string; heading: string; words: number; search: boolean } | null;
}

/** What a revalidation GET found for one entry of a manifest (discovery's revalidate.ts asks, the audit's reuse judges). */
export type RecheckAnswer =
  | { kind: 'not-modified' }
  | { kind: 'answered'; status: number; sha256?: string; etag?: string; lastModified?: string; location?: string }
  | { kind: 'failed'; reason: string };
