import { createSocket } from 'node:dgram';
import { readFileSync, statSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { createBrowserProvider, launchPlans, resolveChromiumPath, type BrowserProvider } from '../../../../src/audit/session/browser-provider.ts';
import { startEgressProxy } from '../../../../src/audit/session/egress-proxy.ts';
import { createTargetPolicy } from '../../../../src/security/target-policy.ts';
import { processTree } from '../../../support/process-tree.ts';

/**
 * This test process's own Chromium processes (other tests and benches may run Chromium on the
 * same machine) whose command line names this profile folder: [uid, has --no-sandbox].
 */
function chromiumProcesses(marker: string): Array<{ uid: number; noSandbox: boolean }> {
  const out: Array<{ uid: number; noSandbox: boolean }> = [];
  for (const pid of processTree(process.pid).slice(1)) {
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

/** The environment of every Chromium process of this test process whose command line names `marker`. */
function chromiumEnvironments(marker: string): Array<Record<string, string>> {
  const out: Array<Record<string, string>> = [];
  for (const pid of processTree(process.pid).slice(1)) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (!cmd.includes(marker) || !/chrom/.test(cmd)) continue;
      const env = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean);
      out.push(Object.fromEntries(env.map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)])));
    } catch {
      // gone while we looked
    }
  }
  return out;
}

describe('Chromium runs hostile pages, so it gets none of the worker secrets', () => {
  const SECRETS = ['SECRETS_KEY', 'DATABASE_URL', 'OPENAI_API_KEY', 'API_KEYS'] as const;
  let provider: BrowserProvider | undefined;
  const saved: Record<string, string | undefined> = {};
  afterAll(async () => {
    await provider?.close();
    for (const k of SECRETS) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
  });

  it('starts the browser and its renderers with an allow-listed environment', async () => {
    for (const k of SECRETS) {
      saved[k] = process.env[k];
      process.env[k] = `do-not-leak-${k}`;
    }
    provider = createBrowserProvider({ executablePath: resolveChromiumPath(process.env.CHROMIUM_PATH) });
    const browser = await provider.get();
    const page = await browser.newPage();
    await page.setContent('<title>env</title><p>hello</p>');
    const envs = chromiumEnvironments('playwright_chromiumdev_profile');
    // The browser process, its zygotes and at least one renderer.
    expect(envs.length).toBeGreaterThan(2);
    for (const env of envs) {
      for (const k of SECRETS) expect(env[k], k).toBeUndefined();
      expect(Object.values(env).join('\n')).not.toContain('do-not-leak');
    }
    // Allow-listed, not emptied: the browser process still has its PATH.
    expect(envs.some((env) => env.PATH)).toBe(true);
    await page.close();
  });

  it('sends no WebRTC traffic around the egress proxy: a page behind it cannot reach a UDP server with STUN', async () => {
    const udp = createSocket('udp4');
    let datagrams = 0;
    udp.on('message', () => datagrams++);
    await new Promise<void>((resolve) => udp.bind(0, '127.0.0.1', resolve));
    const { port } = udp.address();
    try {
      provider ??= createBrowserProvider({ executablePath: resolveChromiumPath(process.env.CHROMIUM_PATH) });
      // As a scan slot's context is set up for a public site: every connection through the egress proxy.
      const proxy = await startEgressProxy(createTargetPolicy({ allowPrivate: false }));
      const context = await (await provider.get()).newContext({ proxy: { server: proxy.server } });
      const page = await context.newPage();
      const candidates = await page.evaluate(async (stunPort) => {
        const pc = new RTCPeerConnection({ iceServers: [{ urls: `stun:127.0.0.1:${stunPort}` }] });
        const found: string[] = [];
        pc.onicecandidate = (e) => {
          if (e.candidate) found.push(e.candidate.candidate);
        };
        pc.createDataChannel('x');
        await pc.setLocalDescription(await pc.createOffer());
        await new Promise((r) => setTimeout(r, 2500));
        pc.close();
        return found;
      }, port);
      await context.close();
      await proxy.close();
      expect(datagrams, `STUN requests reached the UDP server; candidates: ${candidates.join(' | ')}`).toBe(0);
      expect(candidates.filter((c) => / udp /i.test(c))).toEqual([]);
    } finally {
      udp.close();
    }
  });
});
