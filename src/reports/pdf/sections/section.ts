/**
 * Shared by every section of the PDF: the layout context, the section heading (with its bookmark, named
 * destination and page number for the contents), and labels and colours more than one section uses.
 */
import type { Severity } from '../../../shared/contracts.ts';
import type { Report, WcagPrinciple } from '../../report-model.ts';
import type { StructElem } from '../canvas.ts';
import type { Layout } from '../layout.ts';
import { COLORS, SEVERITY_COLOR } from '../styles.ts';

export const SEVERITIES: Severity[] = ['critical', 'serious', 'moderate', 'minor'];
export const PRINCIPLES: WcagPrinciple[] = ['Perceivable', 'Operable', 'Understandable', 'Robust'];

export interface Section {
  id: string;
  title: string;
}

export interface TocEntry {
  section: Section;
  toci: StructElem;
  link: StructElem;
  y: number;
  titleEnd: number;
}

export interface Ctx {
  L: Layout;
  report: Report;
  sections: Section[];
  sectionPage: Map<string, number>;
  toc: { page: number; elem: StructElem; entries: TocEntry[] } | null;
}

/** An H2 section heading with its bookmark and named destination; `newPage` unless it fits. */
export function section(ctx: Ctx, id: string, opts: { newPage?: boolean; minSpace?: number } = {}): void {
  const { L } = ctx;
  const s = ctx.sections.find((x) => x.id === id)!;
  if (opts.newPage || (opts.minSpace != null && L.remaining < opts.minSpace)) {
    if (!L.atPageTop) L.newPage();
  }
  L.heading(L.root, 2, s.title, { outline: true, dest: `section-${id}`, keepWith: 80 });
  ctx.sectionPage.set(id, L.pageIndex);
}

export const scoreColor = (score: number | null): string =>
  score == null ? COLORS.muted : score >= 90 ? COLORS.good : score >= 50 ? SEVERITY_COLOR.moderate : SEVERITY_COLOR.critical;

export const kindLabel = (r: Report) => (r.kind === 'crawl' ? 'Site crawl' : 'Single-page scan');
