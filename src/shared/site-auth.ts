/**
 * A site's authentication set-up: what the scanner sends to the site's own origin (headers,
 * cookies, HTTP basic credentials) and how it logs in (scripted steps) and tells it is still
 * logged in. Pure: the API validates and redacts with it, the workers apply it. The whole set-up
 * is stored encrypted (its values are secrets); only `SiteAuthSummary`, with every value left
 * out, is ever shown.
 */

export type LoginStep =
  | { action: 'goto'; url: string }
  | { action: 'fill'; selector?: string; label?: string; value: string }
  | { action: 'click'; selector?: string; label?: string; text?: string }
  | { action: 'waitFor'; url?: string; selector?: string }
  | { action: 'select'; selector?: string; label?: string; value: string }
  | { action: 'press'; key: string; selector?: string; label?: string };

/** A step as the API shows it: what it acts on, never a value it types or picks (`hasValue` says there is one). */
export interface StepSummary {
  action: LoginStep['action'];
  selector?: string;
  label?: string;
  text?: string;
  url?: string;
  key?: string;
  hasValue?: true;
}

export interface LoggedInCheck {
  /** An element only a logged-in page shows (e.g. the account menu). */
  selector?: string;
  /** The page's URL matches this pattern when logged in. */
  urlPattern?: string;
}

export interface SiteAuthSetup {
  headers?: Record<string, string>;
  cookies?: Array<{ name: string; value: string; path?: string }>;
  basic?: { username: string; password: string };
  login?: {
    /** Where the login starts (a `goto` before the steps). */
    url: string;
    steps: LoginStep[];
    loggedIn: LoggedInCheck;
    /** A page whose URL matches this is the login form: the page needs a login. */
    loginUrlPattern?: string;
    /** How long each step may wait (default 10 s). */
    stepTimeoutMs?: number;
  };
}

/** The set-up as the API shows it: names and shapes, never a value. */
export interface SiteAuthSummary {
  headers: string[];
  cookies: Array<{ name: string; path: string }>;
  basic: { username: string; hasPassword: true } | null;
  login: {
    url: string;
    steps: StepSummary[];
    loggedIn: LoggedInCheck;
    loginUrlPattern: string | null;
    stepTimeoutMs: number;
  } | null;
}

export const DEFAULT_LOGIN_STEP_TIMEOUT_MS = 10_000;

/** Header names that the browser or the connection owns, or that would smuggle another request's auth. */
export const FORBIDDEN_HEADERS = new Set([
  'host',
  'cookie',
  'content-length',
  'content-type',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'upgrade',
  'expect',
  'origin',
  'referer',
]);

/** RFC 7230 `token`. */
export const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Visible ASCII and spaces/tabs inside, none at the ends (RFC 7230 field-value, no obs-fold). */
export const HEADER_VALUE = /^[\x21-\x7e]([\x20-\x7e\t]*[\x21-\x7e])?$/;
/** RFC 6265 cookie-name (a token) and cookie-value octets. */
export const COOKIE_NAME = HEADER_NAME;
export const COOKIE_VALUE = /^[\x21\x23-\x2b\x2d-\x3a\x3c-\x5b\x5d-\x7e]*$/;

export function summarizeSiteAuth(s: SiteAuthSetup): SiteAuthSummary {
  return {
    headers: Object.keys(s.headers ?? {}),
    cookies: (s.cookies ?? []).map((c) => ({ name: c.name, path: c.path ?? '/' })),
    basic: s.basic ? { username: s.basic.username, hasPassword: true } : null,
    login: s.login
      ? {
          url: s.login.url,
          steps: s.login.steps.map(summarizeStep),
          loggedIn: { ...s.login.loggedIn },
          loginUrlPattern: s.login.loginUrlPattern ?? null,
          stepTimeoutMs: s.login.stepTimeoutMs ?? DEFAULT_LOGIN_STEP_TIMEOUT_MS,
        }
      : null,
  };
}

/**
 * Whether a `press` step types a character (`a`, `Shift+7`) rather than pressing a named key
 * (`Enter`, `Shift+Tab`): a character may be part of a secret typed key by key, so it is write-only
 * like a `fill` value.
 */
export function typesCharacter(key: string): boolean {
  const last = key.split('+').at(-1) ?? '';
  return [...last].length === 1;
}

/** A step without the value it types or picks (`fill`, `select`, a character pressed): those are write-only. */
export function summarizeStep(st: LoginStep): StepSummary {
  const out: StepSummary = { action: st.action };
  if ('selector' in st && st.selector !== undefined) out.selector = st.selector;
  if ('label' in st && st.label !== undefined) out.label = st.label;
  if ('text' in st && st.text !== undefined) out.text = st.text;
  if ('url' in st && st.url !== undefined) out.url = st.url;
  if (st.action === 'press') {
    if (typesCharacter(st.key)) out.hasValue = true;
    else out.key = st.key;
  }
  if (st.action === 'fill' || st.action === 'select') out.hasValue = true;
  return out;
}

/**
 * Whether `url` matches a URL pattern of the set-up. `*` stands for any run of characters, every
 * other character for itself. A pattern that starts with `/` is matched against the URL's path and
 * query (`/login*`); any other against the whole URL (`https://example.org/account/*`).
 */
export function urlMatches(pattern: string, url: string): boolean {
  let subject = url;
  if (pattern.startsWith('/')) {
    try {
      const u = new URL(url);
      subject = u.pathname + u.search;
    } catch {
      return false;
    }
  }
  return globMatches(pattern, subject);
}

/**
 * `*`-only glob matching without a regular expression: patterns come from API clients, and a
 * backtracking `.*` regex turns `/*a*a*a*a*a*a*a*a*a*a*a*a*b` against a 41-character path into
 * minutes of CPU. The literal runs between stars are found left to right, each at its first
 * place after the previous one (taking the earliest place never loses a match), so the cost is
 * one pass of `indexOf` per run: linear in the subject for a bounded pattern.
 */
export function globMatches(pattern: string, subject: string): boolean {
  const parts = pattern.split('*');
  if (parts.length === 1) return pattern === subject;
  const first = parts[0]!;
  const last = parts.at(-1)!;
  if (first.length + last.length > subject.length || !subject.startsWith(first) || !subject.endsWith(last)) return false;
  let at = first.length;
  const end = subject.length - last.length;
  for (const part of parts.slice(1, -1)) {
    if (part === '') continue;
    const found = subject.indexOf(part, at);
    if (found === -1 || found + part.length > end) return false;
    at = found + part.length;
  }
  return true;
}

/** Every URL the set-up names (login start, goto steps, absolute patterns), for the same-site check. */
export function urlsOf(s: SiteAuthSetup): Array<{ path: string; url: string }> {
  const out: Array<{ path: string; url: string }> = [];
  if (!s.login) return out;
  out.push({ path: 'login.url', url: s.login.url });
  s.login.steps.forEach((st, i) => {
    if (st.action === 'goto') out.push({ path: `login.steps.${i}.url`, url: st.url });
  });
  return out;
}

/** Is this request URL on the site's own origin (scheme, host and port)? Only such requests carry the set-up. */
export function onOrigin(url: string, origin: string): boolean {
  try {
    return new URL(url).origin === origin;
  } catch {
    return false;
  }
}

/** The Authorization header value for HTTP basic credentials. */
export function basicAuthorization(basic: { username: string; password: string }): string {
  return `Basic ${Buffer.from(`${basic.username}:${basic.password}`, 'utf8').toString('base64')}`;
}

/**
 * Whether `url` is the login form: it matches `loginUrlPattern`, or, without one, it has the
 * login URL's path.
 */
export function isLoginUrl(s: SiteAuthSetup, url: string): boolean {
  if (!s.login) return false;
  if (s.login.loginUrlPattern) return urlMatches(s.login.loginUrlPattern, url);
  try {
    return new URL(url).pathname === new URL(s.login.url).pathname;
  } catch {
    return false;
  }
}

/** A site's authentication set-up as a browser tab or a plain fetch applies it: only ever to `origin`. */
export interface TabAuth {
  /** The site's origin (scheme, host, port): the only one that gets headers, cookies and credentials. */
  origin: string;
  setup: SiteAuthSetup;
}

/** How a scripted login ended: the reason names the step, never a value typed. */
export type LoginOutcome = { ok: true } | { ok: false; reason: string };

/**
 * A site's authentication set-up as the workers read it: from the database by id, opened with the
 * worker's SECRETS_KEY. It never travels through Temporal (no workflow or activity input or
 * result carries it), and nothing here logs it.
 */
export type SiteAuthLoad = { kind: 'none' } | { kind: 'auth'; auth: TabAuth } | { kind: 'unavailable'; message: string };
