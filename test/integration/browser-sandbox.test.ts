import { readdirSync, readFileSync, statSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { createBrowserProvider, launchPlans, resolveChromiumPath, type BrowserProvider } from '../../src/activities/browser/browser-provider.ts';

/** Chromium processes whose command line names this profile folder: [uid, has --no-sandbox]. */
function chromiumProcesses(marker: string): Array<{ uid: number; noSandbox: boolean }> {
  const out: Array<{ uid: number; noSandbox: boolean }> = [];
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      if (!cmd.some((a) => a.includes(marker)) || !/chrom/.test(cmd[0] ?? '')) continue;
      out.push({ uid: statSync(`/proc/${pid}`).uid, noSandbox: cmd.includes('--no-sandbox') });
    } catch {
      // gone while we looked
    }
  }
  return out;
}

describe('Chromium keeps its sandbox', () => {
  let provider: BrowserProvider | undefined;
  afterAll(async () => provider?.close());

  it('plans the sandbox first: as the user itself, or as nobody when root; --no-sandbox only as the last resort', () => {
    expect(launchPlans('/usr/bin/chromium', 1000).map((p) => p.mode)).toEqual(['sandboxed', 'no-sandbox']);
    const asRoot = launchPlans('/usr/bin/chromium', 0).map((p) => p.mode);
    expect(asRoot.at(-1)).toBe('no-sandbox');
    expect(asRoot[0]).toBe('sandboxed-as-nobody');
  });

  it('runs the browser sandboxed on this machine, as nobody when the worker is root, and it renders pages', async () => {
    let mode: string | undefined;
    provider = createBrowserProvider({ executablePath: resolveChromiumPath(process.env.CHROMIUM_PATH), onLaunch: (m) => (mode = m) });
    const browser = await provider.get();
    const page = await browser.newPage();
    await page.setContent('<title>Sandboxed</title><p>hello</p>');
    expect(await page.title()).toBe('Sandboxed');
    const root = process.getuid?.() === 0;
    expect(mode).toBe(root ? 'sandboxed-as-nobody' : 'sandboxed');
    const procs = chromiumProcesses('playwright_chromiumdev_profile');
    expect(procs.length).toBeGreaterThan(0);
    for (const p of procs) {
      expect(p.noSandbox).toBe(false);
      if (root) expect(p.uid).toBe(65534);
    }
    await page.close();
  });
});
