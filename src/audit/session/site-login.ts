import type { BrowserContext, Cookie, Locator, Page } from 'playwright';
import { DEFAULT_LOGIN_STEP_TIMEOUT_MS, isLoginUrl, onOrigin, urlMatches, type LoginStep, type SiteAuthSetup } from '../../shared/site-auth.ts';

/** A URL's origin for a message (`about:blank` and the like stand for themselves). */
function originOf(url: string): string {
  try {
    const o = new URL(url).origin;
    return o === 'null' ? url : o;
  } catch {
    return url;
  }
}

/** A site's authentication set-up as a tab applies it: only ever to `origin`. */
export interface TabAuth {
  /** The site's origin (scheme, host, port): the only one that gets headers, cookies and credentials. */
  origin: string;
  setup: SiteAuthSetup;
}

/**
 * A site's authentication set-up as the workers read it: from the database by id, opened with the
 * worker's SECRETS_KEY. It never travels through Temporal (no workflow or activity input or
 * result carries it), and nothing here logs it.
 */
export type SiteAuthLoad = { kind: 'none' } | { kind: 'auth'; auth: TabAuth } | { kind: 'unavailable'; message: string };

export type LoginOutcome = { ok: true } | { ok: false; reason: string };

/** Context options for the set-up: basic credentials answered to the site's origin only. */
export function contextAuthOptions(auth: TabAuth | undefined): { httpCredentials?: { username: string; password: string; origin: string } } {
  const basic = auth?.setup.basic;
  return basic ? { httpCredentials: { username: basic.username, password: basic.password, origin: auth.origin } } : {};
}

/**
 * The set-up's own cookies, for the site's host only, and `httpOnly`: they are secrets of the
 * set-up, and the site's pages run third-party scripts that could read `document.cookie`.
 */
export function configuredCookies(auth: TabAuth): Array<Pick<Cookie, 'name' | 'value' | 'domain' | 'path' | 'secure' | 'httpOnly'>> {
  const u = new URL(auth.origin);
  return (auth.setup.cookies ?? []).map((c) => ({ name: c.name, value: c.value, domain: u.hostname, path: c.path ?? '/', secure: u.protocol === 'https:', httpOnly: true }));
}

/** Describes a step by what it acts on, never by the value it types. */
export function describeStep(step: LoginStep, i: number): string {
  const target =
    step.action === 'goto'
      ? step.url
      : 'selector' in step && step.selector
        ? step.selector
        : 'label' in step && step.label
          ? `label "${step.label}"`
          : 'text' in step && step.text
            ? `text "${step.text}"`
            : 'url' in step && step.url
              ? `URL ${step.url}`
              : '';
  return `login step ${i + 1} (${step.action}${target ? ` ${target}` : ''})`;
}

/** What a click step names; by text, a button first, then a link, then any element with that text (a heading often repeats "Sign in"). */
async function clickTarget(page: Page, step: Extract<LoginStep, { action: 'click' }>): Promise<Locator> {
  if (step.selector) return page.locator(step.selector).first();
  if (step.label) return page.getByLabel(step.label).first();
  const text = step.text!;
  for (const candidate of [page.getByRole('button', { name: text }), page.getByRole('link', { name: text })]) {
    if ((await candidate.count()) > 0) return candidate.first();
  }
  // Not there yet: whichever appears first.
  return page.getByRole('button', { name: text }).or(page.getByRole('link', { name: text })).or(page.getByText(text, { exact: true })).first();
}

/**
 * Runs the scripted login in `page`: to the login URL, then each step. A step that fails ends the
 * login with a reason that names the step, never a value typed. A step that types or clicks runs
 * only while the page is on the site's own origin: a login URL that redirected elsewhere (an
 * identity provider, or a site that sends its visitors to another host) gets no password. The
 * caller lets the page navigate while this runs.
 */
export async function runLogin(page: Page, auth: TabAuth, signal?: AbortSignal): Promise<LoginOutcome> {
  const { setup, origin } = auth;
  const login = setup.login;
  if (!login) return { ok: true };
  const timeout = login.stepTimeoutMs ?? DEFAULT_LOGIN_STEP_TIMEOUT_MS;
  const steps: LoginStep[] = [{ action: 'goto', url: login.url }, ...login.steps];
  for (let i = 0; i < steps.length; i++) {
    signal?.throwIfAborted();
    const step = steps[i]!;
    const what = () => (i === 0 ? `opening the login page ${login.url}` : describeStep(step, i - 1));
    if ((step.action === 'fill' || step.action === 'click') && !onOrigin(page.url(), origin)) {
      return { ok: false, reason: `${what()} was not run: the page is on ${originOf(page.url())}, not on the site's origin ${origin}` };
    }
    try {
      switch (step.action) {
        case 'goto':
          await page.goto(step.url, { waitUntil: 'domcontentloaded', timeout });
          break;
        case 'fill': {
          const field = step.selector ? page.locator(step.selector).first() : page.getByLabel(step.label!).first();
          await field.fill(step.value, { timeout });
          break;
        }
        case 'click':
          await (await clickTarget(page, step)).click({ timeout });
          break;
        case 'waitFor':
          if (step.url) await page.waitForURL((u) => urlMatches(step.url!, u.href), { timeout, waitUntil: 'domcontentloaded' });
          if (step.selector) await page.locator(step.selector).first().waitFor({ state: 'attached', timeout });
          break;
      }
    } catch (err) {
      signal?.throwIfAborted();
      // The browser went away: retried by the activity. Playwright's own text is not passed on.
      if (page.isClosed()) throw new Error('Target page, context or browser has been closed during the login');
      // Playwright's message names the locator and the timeout; values never appear in it, but
      // only its first line is kept and the step is named by what it acts on.
      const why = /Timeout|timed out/i.test(String((err as Error)?.message)) ? `did not succeed within ${timeout} ms` : 'failed';
      return { ok: false, reason: `${what()} ${why}` };
    }
  }
  // Let a submit's redirect chain finish before the session's cookies are read.
  await page.waitForLoadState('domcontentloaded', { timeout }).catch(() => {});
  if (isLoginUrl(setup, page.url())) return { ok: false, reason: 'the login steps ended on the login page again (wrong credentials?)' };
  return { ok: true };
}

/** Whether the loaded page shows the scanner is logged in, by the set-up's check. */
export async function isLoggedIn(page: Page, finalUrl: string, setup: SiteAuthSetup): Promise<boolean> {
  const login = setup.login;
  if (!login) return true;
  if (isLoginUrl(setup, finalUrl)) return false;
  if (login.loggedIn.urlPattern && !urlMatches(login.loggedIn.urlPattern, finalUrl)) return false;
  if (login.loggedIn.selector) {
    const n = await page.locator(login.loggedIn.selector).count().catch(() => 0);
    if (n === 0) return false;
  }
  return true;
}

/**
 * The login's cookies as they stand now: the values the site last set for them (it may rotate a
 * session id), and none the site has since removed (it logged the scanner out). Cookies a page
 * set besides them are not kept.
 */
export async function refreshSessionCookies(context: BrowserContext, session: Cookie[]): Promise<Cookie[]> {
  const now = await context.cookies().catch(() => [] as Cookie[]);
  const key = (c: Cookie) => `${c.name}\u0000${c.domain}\u0000${c.path}`;
  const current = new Map(now.map((c) => [key(c), c]));
  return session.flatMap((c) => {
    const cur = current.get(key(c));
    return cur ? [cur] : [];
  });
}
