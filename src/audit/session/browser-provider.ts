import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type LaunchOptions } from 'playwright';

/**
 * Flags that keep Debian's Chromium quiet and offline-safe on our machines, and one for speed:
 * `--renderer-process-limit=1` stops Chromium keeping a spare renderer warm. A spare belongs to
 * one browser context, so with one context per slot (three tabs navigating in turn) each
 * navigation threw away the spare warmed for another context and started a new one: a crawl
 * started several renderer processes per page and spent a third of the machine's CPU on it
 * (`npm run bench:profile` shows the renderers started). The limit is soft: every context still
 * gets its own processes, and site isolation is untouched. (Not `--disable-features`: Chromium
 * keeps only the last such flag, which would drop the list Playwright passes.)
 */
export const CHROMIUM_ARGS = [
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--renderer-process-limit=1',
];

/**
 * The environment variables Chromium gets: an allow-list, never the worker's own environment. The
 * browser and its renderers run hostile JavaScript, and any process of the same user can read
 * `/proc/<pid>/environ`: SECRETS_KEY, DATABASE_URL, OPENAI_API_KEY or API_KEYS must never be there.
 */
const CHROMIUM_ENV_ALLOWED = /^(PATH|HOME|LANG|LANGUAGE|LC_[A-Z]+|TZ|TMPDIR|FONTCONFIG_(FILE|PATH)|XDG_(CONFIG|CACHE|DATA|RUNTIME)_[A-Z]+|CHROME_DEVEL_SANDBOX)$/;

export function chromiumEnv(source: NodeJS.ProcessEnv = process.env, extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(source)) if (v !== undefined && CHROMIUM_ENV_ALLOWED.test(k)) env[k] = v;
  return { ...env, ...extra };
}

export function resolveChromiumPath(configured?: string): string {
  if (configured) return configured;
  try {
    const own = chromium.executablePath();
    if (own && existsSync(own)) return own;
  } catch {
    // Playwright has no browser of its own here.
  }
  return '/usr/bin/chromium';
}

/**
 * Every launch goes through scripts/chromium-launch.sh: it writes the profile's preferences
 * (WebRTC's UDP only through a proxy: it would otherwise go around the egress proxy) and, when the
 * worker is root, runs Chromium as `nobody`.
 */
export const CHROMIUM_LAUNCHER = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'scripts', 'chromium-launch.sh');

export type SandboxMode = 'sandboxed' | 'sandboxed-as-nobody' | 'no-sandbox';

/**
 * How Chromium is launched, best first: with its sandbox; as root, with its sandbox as `nobody`
 * (Chromium will not sandbox itself as root); and only when the machine allows neither (no user
 * namespaces, no setpriv), without it, as `--no-sandbox`.
 */
export function launchPlans(executablePath: string, uid = process.getuid?.() ?? 1000): Array<{ mode: SandboxMode; options: LaunchOptions }> {
  const base = { headless: true, args: CHROMIUM_ARGS, executablePath: CHROMIUM_LAUNCHER, env: chromiumEnv(process.env, { A11Y_CHROMIUM: executablePath }) };
  const plans: Array<{ mode: SandboxMode; options: LaunchOptions }> = [];
  if (uid !== 0) plans.push({ mode: 'sandboxed', options: { ...base, chromiumSandbox: true } });
  else if (existsSync('/usr/bin/setpriv') || existsSync('/bin/setpriv')) {
    plans.push({
      mode: 'sandboxed-as-nobody',
      options: { ...base, chromiumSandbox: true, env: chromiumEnv(process.env, { A11Y_CHROMIUM: executablePath, A11Y_CHROMIUM_AS_NOBODY: '1' }) },
    });
  }
  plans.push({ mode: 'no-sandbox', options: { ...base, chromiumSandbox: false } });
  return plans;
}

/** One Chromium per worker process, launched on first use and relaunched if it dies or is retired. */
export interface BrowserProvider {
  get(): Promise<Browser>;
  close(): Promise<void>;
  /**
   * Forgets the running Chromium without closing it (its tabs are still busy; whoever retires it
   * closes it): the next `get()` launches a fresh one.
   */
  retire(): void;
  /** How the running Chromium was launched (undefined before the first launch). */
  readonly sandbox: SandboxMode | undefined;
}

export function createBrowserProvider(opts: {
  executablePath: string;
  onFallback?: (mode: SandboxMode, err: unknown) => void;
  onLaunch?: (mode: SandboxMode) => void;
}): BrowserProvider {
  let launching: Promise<Browser> | undefined;
  let sandbox: SandboxMode | undefined;
  /** The first plan that starts is kept for later relaunches. */
  let plans = launchPlans(opts.executablePath);
  async function launch(): Promise<Browser> {
    for (;;) {
      const plan = plans[0]!;
      try {
        const b = await chromium.launch(plan.options);
        sandbox = plan.mode;
        plans = [plan];
        opts.onLaunch?.(plan.mode);
        return b;
      } catch (err) {
        if (plans.length === 1) throw err;
        opts.onFallback?.(plan.mode, err);
        plans = plans.slice(1);
      }
    }
  }
  return {
    get sandbox() {
      return sandbox;
    },
    async get() {
      if (launching) {
        const b = await launching.catch(() => undefined);
        if (b?.isConnected()) return b;
      }
      launching = launch();
      return launching;
    },
    retire() {
      launching = undefined;
    },
    async close() {
      const b = await launching?.catch(() => undefined);
      launching = undefined;
      await b?.close().catch(() => {});
    },
  };
}
