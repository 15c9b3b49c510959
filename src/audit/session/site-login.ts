import type { BrowserContext, Cookie, Page } from 'playwright';
import { DEFAULT_LOGIN_STEP_TIMEOUT_MS, isLoginUrl, onOrigin, urlMatches, type LoginOutcome, type LoginStep, type SiteAuthLoad, type SiteAuthSetup, type TabAuth } from '../../shared/site-auth.ts';

export type { LoginOutcome, SiteAuthLoad, TabAuth };
import { describeStep, runStep, StepOffSiteError, timedOut } from './scripted-steps.ts';

export { describeStep };

/** A URL's origin for a message (`about:blank` and the like stand for themselves). */
function originOf(url: string): string {
  try {
    const o = new URL(url).origin;
    return o === 'null' ? url : o;
  } catch {
    return url;
  }
}




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
    if (step.action !== 'goto' && step.action !== 'waitFor' && !onOrigin(page.url(), origin)) {
      return { ok: false, reason: `${what()} was not run: the page is on ${originOf(page.url())}, not on the site's origin ${origin}` };
    }
    try {
      await runStep(page, step, timeout, (url) => onOrigin(url, origin));
    } catch (err) {
      signal?.throwIfAborted();
      if (err instanceof StepOffSiteError) return { ok: false, reason: `${what()} was not run: the element is in a page of ${err.at}, not on the site's origin ${origin}` };
      // The browser went away: retried by the activity. Playwright's own text is not passed on.
      if (page.isClosed()) throw new Error('Target page, context or browser has been closed during the login');
      // Playwright's message names the locator and the timeout; values never appear in it, but
      // the step is named by what it acts on, never by Playwright's text.
      return { ok: false, reason: `${what()} ${timedOut(err) ? `did not succeed within ${timeout} ms` : 'failed'}` };
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
