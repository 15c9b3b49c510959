/**
 * URL rules shared by the API and the workers: what counts as the same page and the same site, and
 * what a URL names (a route, an asset, a document). Pure: no I/O, so every side may import it.
 */

/** Site identity: the lower-cased host name, IDN as punycode, no trailing dot (the URL parser does the rest). */
export function siteHostname(url: string): string {
  return new URL(url).hostname.replace(/\.$/, '').toLowerCase();
}

const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443' };

/** Canonical form of a page URL: http(s) only, no fragment, lower-case host, no default port. */
export function normalizeUrl(href: string, base?: string | URL): string | undefined {
  let u: URL;
  try {
    u = base ? new URL(href.trim(), base) : new URL(href.trim());
  } catch {
    return undefined;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return undefined;
  if (u.username || u.password) return undefined;
  u.hash = '';
  u.hostname = u.hostname.replace(/\.$/, '');
  if (u.port === DEFAULT_PORTS[u.protocol]) u.port = '';
  return u.href;
}

/**
 * A fragment that names a route of a client-side router rather than a place in the document:
 * `#/path` (hash routing) or `#!path` (hash-bang). `#/` and `#!` alone name the app's first route,
 * which is the document itself.
 */
export function routeFragment(hash: string): string | undefined {
  if (!/^#(\/|!)/.test(hash)) return undefined;
  return /^#!?\/?$/.test(hash) ? undefined : hash;
}

/**
 * Canonical form of a link found in a rendered page: as `normalizeUrl`, but a route fragment
 * (`#/route`, `#!/route`) is kept, since an app that routes by fragment shows another view there.
 * An ordinary in-page anchor (`#section`) is the same page and dropped.
 */
export function normalizeRenderedUrl(href: string, base?: string | URL): string | undefined {
  const page = normalizeUrl(href, base);
  if (!page) return undefined;
  let hash: string;
  try {
    hash = (base ? new URL(href.trim(), base) : new URL(href.trim())).hash;
  } catch {
    return undefined;
  }
  const route = routeFragment(hash);
  return route ? page + route : page;
}

/** The route fragment of a normalized URL, if it has one (`#/route`, `#!route`). */
export function routeOf(url: string): string | undefined {
  const i = url.indexOf('#');
  return i < 0 ? undefined : routeFragment(url.slice(i));
}

/** `url` without its fragment: the document the server sends for it. */
export function documentOf(url: string): string {
  const i = url.indexOf('#');
  return i < 0 ? url : url.slice(0, i);
}


function effectivePort(u: URL): string {
  return u.port || DEFAULT_PORTS[u.protocol] || '';
}

/**
 * Same site: same host name, and the same port unless both sides use their scheme's default
 * (so an http -> https upgrade stays in scope, another service on another port does not).
 */
export function sameSite(a: string, b: string): boolean {
  const x = new URL(a);
  const y = new URL(b);
  if (x.hostname !== y.hostname) return false;
  if (x.port === '' && y.port === '') return true;
  return effectivePort(x) === effectivePort(y) && x.protocol === y.protocol;
}

/** Path plus query of a URL (and its route fragment, for an app that routes by fragment): what the page list shows. */
export function pathOf(url: string): string {
  const u = new URL(url);
  return u.pathname + u.search + (routeFragment(u.hash) ?? '');
}

/**
 * Where a request for `requested` landed, as a page URL: a fetch never sends the fragment, and a
 * browser keeps it across a redirect whose target has none, so a route fragment stays on.
 */
export function landedAt(finalUrl: string, requested: string): string | undefined {
  const page = normalizeUrl(finalUrl);
  const route = routeOf(requested);
  if (!page || !route) return page;
  return routeOf(finalUrl) ? normalizeRenderedUrl(finalUrl) : page + route;
}

const NON_HTML_EXTENSIONS = /\.(zip|gz|tgz|rar|7z|png|jpe?g|gif|webp|svg|ico|bmp|tiff?|mp3|mp4|m4a|webm|ogg|wav|avi|mov|docx?|xlsx?|pptx?|odt|ods|csv|json|xml|rss|atom|txt|css|js|mjs|woff2?|ttf|eot|exe|dmg|apk|iso)$/i;

/**
 * Links not worth a request: obvious downloads and assets. Their type is still checked when fetched.
 * A PDF is not one of them: it is a document the crawl audits (see `documentType`).
 */
export function looksLikeAsset(url: string): boolean {
  return NON_HTML_EXTENSIONS.test(new URL(url).pathname);
}

/**
 * A move of the site's home page that keeps it the same site as users mean it: between `host`
 * and `www.host` (either way), on the same port, or also from http to https on the default ports.
 */
export function sameSiteMove(from: string, to: string): boolean {
  const a = new URL(from);
  const b = new URL(to);
  const bare = (h: string) => h.replace(/^www\./, '');
  if (a.hostname === b.hostname || bare(a.hostname) !== bare(b.hostname) || !bare(a.hostname).includes('.')) return false;
  if (a.protocol === b.protocol) return a.port === b.port;
  return a.protocol === 'http:' && b.protocol === 'https:' && a.port === '' && b.port === '';
}

const PDF_TYPES = new Set(['application/pdf', 'application/x-pdf', 'application/acrobat']);
const GENERIC_TYPES = new Set(['application/octet-stream', 'binary/octet-stream', 'application/download', 'application/force-download', 'unknown']);

/**
 * The document type of an answer that is not HTML, when the crawl audits it as a document: a PDF
 * by its Content-Type, or a `.pdf` address served with a generic type. Undefined for anything else
 * (images, archives, feeds), which stays out of the crawl. The scan reads the file's own header.
 */
export function documentType(contentType: string, url: string): 'application/pdf' | undefined {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  if (PDF_TYPES.has(type)) return 'application/pdf';
  if (GENERIC_TYPES.has(type) && /\.pdf$/i.test(new URL(url).pathname)) return 'application/pdf';
  return undefined;
}
