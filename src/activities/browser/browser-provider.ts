import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright';

/** Flags that keep Debian's Chromium quiet and offline-safe on our machines. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

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

/** One Chromium per worker process, launched on first use and relaunched if it dies. */
export interface BrowserProvider {
  get(): Promise<Browser>;
  close(): Promise<void>;
}

export function createBrowserProvider(opts: { executablePath: string }): BrowserProvider {
  let launching: Promise<Browser> | undefined;
  return {
    async get() {
      if (launching) {
        const b = await launching.catch(() => undefined);
        if (b?.isConnected()) return b;
      }
      launching = chromium.launch({ executablePath: opts.executablePath, headless: true, args: CHROMIUM_ARGS });
      return launching;
    },
    async close() {
      const b = await launching?.catch(() => undefined);
      launching = undefined;
      await b?.close().catch(() => {});
    },
  };
}
