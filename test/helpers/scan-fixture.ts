import { createBrowserProvider, resolveChromiumPath, type BrowserProvider } from '../../src/audit/session/browser-provider.ts';
import type { FindingDraft } from '../../src/shared/findings.ts';
import type { ScanEngine } from '../../src/audit/engines/index.ts';
import { scanUrl, type ScanUrlOptions, type ScanUrlResult } from '../../src/audit/scan-url.ts';
import { createTargetPolicy } from '../../src/security/target-policy.ts';
import { html, startStaticServer, type StaticServer } from '../support/static-server.ts';

export type ScannedResult = Extract<ScanUrlResult, { kind: 'scanned' }>;

/**
 * Scans HTML pages through the production scan path (page session, engines, merge) in Chromium,
 * each page served on loopback. One browser and one server per test file: `open()` in
 * `beforeAll`, `close()` in `afterAll`.
 */
export interface FixtureScanner {
  /** Serves `body` at a fresh path and scans it; `engines` defaults to the production set. */
  scan(body: string, opts?: { engines?: readonly ScanEngine[]; path?: string; states?: ScanUrlOptions['states']; judgementCandidates?: boolean }): Promise<ScannedResult>;
  /** Adds more pages (e.g. a link target) to the server. */
  server: StaticServer;
  close(): Promise<void>;
}

let counter = 0;

export async function openFixtureScanner(): Promise<FixtureScanner> {
  const server = await startStaticServer();
  const browser: BrowserProvider = createBrowserProvider({ executablePath: resolveChromiumPath(process.env.CHROMIUM_PATH) });
  const policy = createTargetPolicy({ allowPrivate: true });
  return {
    server,
    async scan(body, opts = {}) {
      const path = opts.path ?? `/page-${++counter}.html`;
      server.route(path, html(body));
      const result = await scanUrl(`${server.origin}${path}`, { browser: await browser.get(), policy, pageLoadTimeoutMs: 15_000, engines: opts.engines, states: opts.states, judgementCandidates: opts.judgementCandidates });
      if (result.kind !== 'scanned') throw new Error(`fixture page did not scan: ${JSON.stringify(result)}`);
      return result;
    },
    async close() {
      await browser.close();
      await server.close();
    },
  };
}

/** The findings of one rule, for assertions. */
export function ofRule(result: ScannedResult, ruleId: string): FindingDraft[] {
  return result.findings.filter((f) => f.ruleId === ruleId);
}
