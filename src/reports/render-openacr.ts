/**
 * The audit as an OpenACR document: GSA's machine-readable Accessibility Conformance Report (the
 * VPAT 2.5 WCAG edition, catalogue `2.5-edition-wcag-2.2-en`), YAML valid against OpenACR's JSON
 * schema (schemas/openacr/, checked in a test). Levels A and AA; every criterion says what the
 * automated evidence allows and no more (conformance.ts). It names the pages audited, the engines
 * and their versions, and the date. Author and vendor are the publisher's to fill in.
 *
 * Page content (URLs, selectors) reaches the YAML only as string scalars written by the `yaml`
 * library (quoted as needed, control characters removed), never as keys, anchors or tags.
 */
import type { Writable } from 'node:stream';
import { stringify } from 'yaml';
import type { ConformanceRow, Report } from './report-model.ts';

export const OPENACR_CATALOG = '2.5-edition-wcag-2.2-en';
export const OPENACR_MEDIA_TYPE = 'application/yaml';
/** Pages named one by one; a larger crawl says how many more (the workbook lists every page). */
export const MAX_NAMED_PAGES = 1000;

// Every C0 control but tab and line feed, DEL, and the C1 controls.
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
const clean = (s: string) => s.replace(CONTROLS, '');
const day = (d: Date) => d.toISOString().slice(0, 10);

function chapter(report: Report, level: 'A' | 'AA') {
  const mine = report.conformance.filter((r) => r.level === level);
  // The documents (PDFs) audited are OpenACR's `electronic-docs` component, judged on their own.
  const documents = new Map((report.documentConformance ?? []).filter((r) => r.level === level).map((r) => [r.id, r]));
  const count = (rows: readonly ConformanceRow[], c: ConformanceRow['conformance']) => rows.filter((r) => r.conformance === c).length;
  const tally = (rows: readonly ConformanceRow[]) =>
    `${count(rows, 'does-not-support')} Does Not Support, ${count(rows, 'partially-supports')} Partially Supports, ${count(rows, 'supports')} Supports, ${count(rows, 'not-evaluated')} Not Evaluated`;
  return {
    notes:
      `${mine.length} Level ${level} success criteria of WCAG 2.2: ${tally(mine)} (an automated audit alone cannot decide them)` +
      (documents.size ? `; for the documents audited (electronic-docs): ${tally([...documents.values()])}.` : '.'),
    criteria: mine.map((r) => {
      const doc = documents.get(r.id);
      return {
        num: r.id,
        components: [
          { name: 'web', adherence: { level: r.conformance, notes: clean(r.remarks) } },
          ...(doc ? [{ name: 'electronic-docs', adherence: { level: doc.conformance, notes: clean(doc.remarks) } }] : []),
        ],
      };
    }),
  };
}

/** The OpenACR document of a report, as a plain object (what `renderOpenAcr` writes as YAML). */
export function openAcrDocument(report: Report) {
  const t = report.target;
  const date = day(t.completedAt ?? report.generatedAt);
  const scanned = report.pages.filter((p) => p.state === 'scanned');
  const documents = scanned.filter((p) => p.kind === 'document').length;
  const named = scanned.slice(0, MAX_NAMED_PAGES).map((p) => clean(p.url));
  const more = scanned.length - named.length;
  const what = t.kind === 'crawl' ? `the web site ${t.url}` : `the web page ${t.url}`;
  const engines = t.engines.map((e) => `${e.name} (version ${e.version})`).join('; ');
  const name = clean(t.name?.trim() || t.hostname);
  return {
    title: `${name} Accessibility Conformance Report`,
    product: {
      name,
      version: `as audited on ${date}`,
      description: clean(`${what}, as rendered on ${date}`),
    },
    author: { name: 'a11y-audit (automated audit)', email: '' },
    report_date: date,
    last_modified_date: day(report.generatedAt),
    version: 1,
    notes:
      `Automated audit of ${what} (${t.kind} ${t.id}, ${t.status}), ended ${date}, against ${t.standard}. ` +
      `Pages audited (${scanned.length}${documents ? `, of them ${documents} document${documents === 1 ? '' : 's'} (PDF), reported as the electronic-docs component` : ''}):\n${named.join('\n')}${more > 0 ? `\n... and ${more} more (the Excel export lists every page)` : ''}`,
    evaluation_methods_used:
      `Automated testing only. Each page was rendered in ${t.browser} and checked by ${engines}. ` +
      (documents ? 'Each document (PDF) was read from the file with pdf.js and checked by the document rules (tags, title, language, text layer, figures, tables, links, fields). ' : '') +
      'No person reviewed the results: a criterion is Does Not Support or Partially Supports only where confirmed failures were found ' +
      '(on every page audited, or on some), and Not Evaluated wherever the automated checks cannot decide it.',
    legal_disclaimer:
      'An automated audit cannot establish conformance. Criteria marked Not Evaluated need a manual evaluation before this report supports any conformance claim.',
    license: 'CC-BY-4.0',
    catalog: OPENACR_CATALOG,
    chapters: {
      success_criteria_level_a: chapter(report, 'A'),
      success_criteria_level_aa: chapter(report, 'AA'),
      success_criteria_level_aaa: { disabled: true, notes: 'Level AAA was not part of this audit.' },
    },
  };
}

/** Writes the report's OpenACR YAML into `out` and ends it. */
export async function renderOpenAcr(report: Report, out: NodeJS.WritableStream | Writable, opts: { signal?: AbortSignal } = {}): Promise<void> {
  opts.signal?.throwIfAborted();
  const yaml = stringify(openAcrDocument(report), { lineWidth: 0 });
  const stream = out as Writable;
  await new Promise<void>((resolve, reject) => {
    stream.once('error', reject);
    stream.end(yaml, () => resolve());
  });
}
