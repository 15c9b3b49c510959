import type { Logger } from '../logger.ts';
import { basicAuthorization, isLoginUrl, type LoginOutcome, type TabAuth } from '../shared/site-auth.ts';
import type { FetchAuth } from './fetch-page.ts';

/** Logins discovery makes in one run at most (the first included): a site that logs it out on every page is crawled logged out. */
export const MAX_DISCOVERY_LOGINS = 5;

/** A set-up's headers, basic credentials and cookies for plain HTTP fetches to its origin (no scripted login). */
export function staticFetchAuth(tabAuth: TabAuth): FetchAuth {
  const cookie = (tabAuth.setup.cookies ?? []).map((c) => `${c.name}=${c.value}`).join('; ');
  return { origin: tabAuth.origin, headers: { ...setupHeaders(tabAuth), ...(cookie ? { cookie } : {}) } };
}

/** The set-up's own headers and its basic credentials, without cookies. */
function setupHeaders(tabAuth: TabAuth): Record<string, string> {
  const { headers, basic } = tabAuth.setup;
  return { ...headers, ...(basic ? { authorization: basicAuthorization(basic) } : {}) };
}

/** A browser tab that can run the site's scripted login: the worker's browser session, given to discovery. */
export interface LoginTab {
  login(signal?: AbortSignal): Promise<LoginOutcome>;
  /** The `Cookie` header the tab would send to `url`. */
  cookieHeader(url: string): Promise<string>;
  close(): Promise<void>;
}

export interface DiscoveryAuthDeps {
  /**
   * Opens a short-lived tab with the set-up applied, through the same egress vetting as scans;
   * unset on a discovery worker without a browser (a scripted login then cannot run).
   */
  openLoginTab?: (auth: TabAuth) => Promise<LoginTab>;
  logger: Logger;
}

/**
 * A site's authentication set-up as discovery's plain HTTP fetches use it: its headers, basic
 * credentials and cookies go to the site's origin only. A scripted login runs in a short-lived
 * browser tab (through the same egress vetting as scans); that tab's cookies for the site become
 * the Cookie header, and the tab is closed at once.
 */
export class DiscoveryAuth {
  /** The headers fetches send now; a new object after each login (so a caller can tell a fetch used an older session). */
  fetch: FetchAuth;
  private logins = 0;
  /** A login failed: the same credentials would fail again, so discovery goes on logged out. */
  private failed = false;
  private readonly tabAuth: TabAuth;
  private readonly deps: DiscoveryAuthDeps;

  constructor(tabAuth: TabAuth, deps: DiscoveryAuthDeps) {
    this.tabAuth = tabAuth;
    this.deps = deps;
    this.fetch = staticFetchAuth(tabAuth);
  }

  get hasLogin(): boolean {
    return this.tabAuth.setup.login !== undefined;
  }

  /** Whether a fetch landed on the login form. */
  isLogin(url: string): boolean {
    return isLoginUrl(this.tabAuth.setup, url);
  }

  /** Logs in (again); false when there is no scripted login, no browser, the budget is spent or the login failed. */
  async login(signal: AbortSignal, heartbeat: () => void): Promise<boolean> {
    const log = this.deps.logger;
    if (!this.hasLogin || this.failed || this.logins >= MAX_DISCOVERY_LOGINS) return false;
    if (!this.deps.openLoginTab) {
      log.warn('the site has a scripted login but this discovery worker has no browser; discovering logged out');
      return false;
    }
    this.logins++;
    const timer = setInterval(heartbeat, 5000);
    const tab = await this.deps.openLoginTab(this.tabAuth);
    try {
      const out = await tab.login(signal);
      if (!out.ok) {
        this.failed = true;
        // The reason names the step (selector, label, URL), never a value typed.
        log.warn({ reason: out.reason }, 'discovery could not log in; pages behind the login are not followed');
        return false;
      }
      const cookie = await tab.cookieHeader(`${this.tabAuth.origin}/`);
      this.fetch = { origin: this.tabAuth.origin, headers: { ...setupHeaders(this.tabAuth), ...(cookie ? { cookie } : {}) } };
      log.info({ logins: this.logins }, 'discovery logged in');
      return true;
    } finally {
      clearInterval(timer);
      await tab.close();
    }
  }
}
