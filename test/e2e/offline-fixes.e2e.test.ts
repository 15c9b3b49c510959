/**
 * The offline fix texts are right, not just readable: scan a page with one barrier per supported
 * rule, take each issue's suggested HTML or CSS out of its fix text, apply it, and scan the fixed
 * page again. Real Chromium, Temporal and PostgreSQL, through the HTTP API.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { html, startStaticServer, type StaticServer } from '../support/static-server.ts';
import { FIXTURES, fixtureFile } from '../helpers/fixture-pages.ts';
import { createTestEnv, pollUntil, type TestEnv } from '../helpers/test-env.ts';

const ENDED = ['completed', 'completed_partial', 'failed', 'cancelled'];
const PAGE = 'pages/offline-fixes.html';

interface Issue {
  axeRuleId: string;
  elementSelector: string;
  elementHtml: string;
  description: string;
  fixSuggestion: string;
  type: string;
}

type Action = 'Replace the element with' | 'Replace the start tag with' | 'Add before the element' | 'Add after the element' | 'Add this attribute to the element' | 'Add this CSS';
const LEAD = /(Replace the element with|Replace the start tag with|Add before the element|Add after the element|Add this attribute to the element|Add this CSS)(?: \([^)]*\))?:$/;

/** The suggestion as a tool would take it: the code line after the lead-in line that names the action. */
function suggestion(fix: string): { action: Action; code: string } | undefined {
  const lines = fix.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = LEAD.exec(lines[i]!.trimEnd());
    if (!m) continue;
    const code = lines.slice(i + 1).find((l) => l.trim() !== '');
    return code ? { action: m[1] as Action, code: code.trim() } : undefined;
  }
  return undefined;
}

/** Applies one suggestion to the page source; the element is found by the HTML the engine reported. */
function apply(source: string, issue: Issue, s: { action: Action; code: string }, css: string[]): string {
  if (s.action === 'Add this CSS') {
    css.push(s.code);
    return source;
  }
  const startTag = /^<[^>]+>/.exec(issue.elementHtml)![0];
  const target = s.action === 'Replace the start tag with' || s.action === 'Add this attribute to the element' ? startTag : issue.elementHtml;
  expect(source, `${issue.axeRuleId} ${issue.elementSelector}: its HTML is in the page`).toContain(target);
  const replacement =
    s.action === 'Replace the element with' || s.action === 'Replace the start tag with'
      ? s.code
      : s.action === 'Add before the element'
        ? `${s.code}${target}`
        : s.action === 'Add after the element'
          ? `${target}${s.code}`
          : startTag.replace(/\s*\/?>$/, ` ${s.code}>`);
  return source.replace(target, () => replacement);
}

describe('offline fix texts, applied, fix the page (Chromium, Temporal, PostgreSQL)', () => {
  let env: TestEnv;
  let site: StaticServer;

  beforeAll(async () => {
    site = await startStaticServer({
      '/offline-fixes': fixtureFile(PAGE),
      '/images/red-bicycle.png': (_req, res) => {
        res.writeHead(200, { 'content-type': 'image/gif' });
        res.end(Buffer.from('R0lGODlhAQABAAAAACw=', 'base64'));
      },
    });
    env = await createTestEnv({ env: { PAGE_LOAD_TIMEOUT_MS: '5000', SCAN_RATE_LIMIT: '1000' } });
  });
  afterAll(async () => {
    await env?.close();
    await site?.close();
  });

  async function scan(url: string) {
    const res = await env.request('/api/scans', { method: 'POST', json: { url } });
    expect(res.status).toBe(202);
    const { id } = await res.json();
    const done = await pollUntil(
      async () => (await env.request(`/api/scans/${id}`)).json(),
      (s) => ENDED.includes(s.status),
      { timeoutMs: 60_000 },
    );
    expect(done.status).toBe('completed');
    return done as { issues: Issue[]; summary: { topPriorities: Array<{ reason: string }> } };
  }

  it('writes element-specific texts whose suggested HTML and CSS make each rule pass when applied', async () => {
    const before = await scan(`${site.origin}/offline-fixes`);
    const found = before.issues.map((i) => `${i.elementSelector} ${i.axeRuleId} ${i.type}`).sort();
    expect(found).toEqual(
      [
        '#low-contrast color-contrast confirmed',
        '#faint-heading color-contrast confirmed',
        '#bike image-alt confirmed',
        '#email label confirmed',
        'input[type="search"] label confirmed',
        '#tiny-a target-size confirmed',
        '#tiny-b target-size confirmed',
        '#vague link-text-generic confirmed',
        'html html-has-lang confirmed',
      ].sort(),
    );
    const by = (sel: string, rule: string) => before.issues.find((i) => i.elementSelector === sel && i.axeRuleId === rule)!;

    // The element-specific facts are in the texts.
    const contrast = by('#low-contrast', 'color-contrast');
    expect(contrast.description).toContain('2.96:1');
    expect(contrast.description).toContain('#5b9bd5');
    expect(contrast.description).toContain('#ffffff');
    expect(contrast.description).toContain('4.5:1');
    expect(contrast.fixSuggestion).toContain('#low-contrast { color: #317abe; }');
    expect(by('#faint-heading', 'color-contrast').description).toContain('3:1 (large text)');
    expect(by('#bike', 'image-alt').fixSuggestion).toContain('<img src="/images/red-bicycle.png" width="40" height="40" id="bike" alt="Red bicycle">');
    expect(by('#email', 'label').fixSuggestion).toContain('<label for="email">Email</label>');
    expect(by('input[type="search"]', 'label').fixSuggestion).toContain('<label>Site search <input type="search" name="site-search"></label>');
    const tiny = by('#tiny-a', 'target-size');
    expect(tiny.description).toContain('16 × 16 CSS px');
    expect(tiny.fixSuggestion).toContain('4px more padding');
    expect(tiny.fixSuggestion).toContain('#tiny-a { min-width: 24px; min-height: 24px; }');
    const vague = by('#vague', 'link-text-generic');
    expect(vague.description).toContain('"Click here"');
    expect(vague.fixSuggestion).toContain('<a id="vague" href="/reports/annual-report-2025.pdf">Annual report 2025 (PDF)</a>');
    for (const i of before.issues) {
      expect(i.description.length).toBeLessThanOrEqual(800);
      expect(i.fixSuggestion.length).toBeLessThanOrEqual(1500);
    }

    // Apply every suggestion, as a tool would, to the page's own source.
    let source = readFileSync(path.join(FIXTURES, PAGE), 'utf8');
    const css: string[] = [];
    for (const issue of before.issues) {
      const s = suggestion(issue.fixSuggestion);
      expect(s, `${issue.axeRuleId} ${issue.elementSelector} has a machine-readable suggestion`).toBeDefined();
      source = apply(source, issue, s!, css);
    }
    expect(css.length).toBe(4);
    source = source.replace('</head>', () => `<style>\n${css.join('\n')}\n</style>\n</head>`);
    site.route('/offline-fixes-fixed', html(source));

    const after = await scan(`${site.origin}/offline-fixes-fixed`);
    // Every rule now passes for every element it failed on, and nothing new appeared.
    for (const i of before.issues) {
      expect(after.issues.filter((a) => a.axeRuleId === i.axeRuleId && a.elementSelector === i.elementSelector), `${i.axeRuleId} ${i.elementSelector}`).toEqual([]);
    }
    expect(after.issues.map((i) => `${i.elementSelector} ${i.axeRuleId}`)).toEqual([]);
  });
});
