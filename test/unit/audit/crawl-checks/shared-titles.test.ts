import { describe, expect, it } from 'vitest';
import { sharedTitleFindings } from '../../../../src/audit/crawl-checks/shared-titles.ts';
import { fingerprint } from '../../../../src/audit/findings/findings.ts';

const page = (path: string, title: string, i: number) => ({ pageScanId: `s${i}`, url: `https://x.test${path}`, title });

describe('titles shared across a crawl (2.4.2)', () => {
  const same = [page('/a', 'Shop', 1), page('/b', 'Shop', 2), page('/c', 'Shop', 3)];

  it('flags each page of a shared title, with no viewport on a desktop-only crawl', () => {
    const out = sharedTitleFindings(same);
    expect(out.map((o) => o.pageScanId)).toEqual(['s1', 's2', 's3']);
    for (const o of out) expect(o.finding.viewport).toBeNull();
    expect(out[0]!.finding.fingerprint).toBe(fingerprint('https://x.test/a', out[0]!.finding.ruleId, 'title'));
  });

  it('does not count a flow\u2019s end state as one more page sharing its start page\u2019s title', () => {
    const withFlows = [page('/contact', 'Contact', 1), page('/contact#flow:sent%20empty', 'Contact', 2), page('/contact#flow:sent%20full', 'Contact', 3)];
    expect(sharedTitleFindings(withFlows)).toEqual([]);
  });

  it('carries the first viewport on a crawl whose findings carry theirs, so it meets the page\u2019s own title finding', () => {
    const out = sharedTitleFindings(same, { viewports: ['mobile', 'desktop'] });
    expect(out).toHaveLength(3);
    const urlOf = new Map(same.map((p) => [p.pageScanId, p.url]));
    for (const o of out) {
      expect(o.finding.viewport).toBe('mobile');
      expect(o.finding.fingerprint).toBe(fingerprint(urlOf.get(o.pageScanId)!, o.finding.ruleId, 'title', { viewport: 'mobile' }));
    }
    expect(sharedTitleFindings(same, { viewports: ['desktop'] })[0]!.finding.viewport).toBeNull();
  });
});
