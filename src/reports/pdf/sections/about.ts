/**
 * About this audit: what was audited, when, and with which tools.
 */
import { capitalize, clean, fmtDateTime, fmtDuration, isHttpUrl, LIMITS, num, text } from '../format.ts';
import { COLORS, STYLES, withStyle } from '../styles.ts';
import type { RowInput } from '../table.ts';
import { type Ctx, kindLabel, section } from './section.ts';

function statusLabel(status: string): string {
  const map: Record<string, string> = {
    completed: 'Completed',
    completed_partial: 'Completed, some pages not scanned',
    failed: 'Failed',
    cancelled: 'Cancelled',
    running: 'Running',
    queued: 'Queued',
  };
  return map[status] ?? capitalize(clean(status).replace(/_/g, ' '));
}

export async function about(ctx: Ctx): Promise<void> {
  const { L, report } = ctx;
  const t = report.target;
  section(ctx, 'about', { newPage: report.kind === 'scan', minSpace: 300 });
  L.paragraph(L.root, 'What was audited, when, and with which tools.', STYLES.body, { gapAfter: 8, keepWith: 50 });
  const rows: RowInput[] = [];
  const kv = (k: string, v: string, extra?: { mono?: boolean; link?: string }) =>
    rows.push({
      cells: [{ text: k, style: { font: 'bold', color: COLORS.muted } }, extra?.link && isHttpUrl(extra.link) ? { parts: [{ text: v, style: withStyle(STYLES.cell, { color: COLORS.link }) }], link: extra.link } : { text: v, style: extra?.mono ? { font: 'mono', size: 7.5 } : {} }],
    });
  kv(report.kind === 'crawl' ? 'Site' : 'Page', text(t.name || t.hostname, LIMITS.title));
  kv(report.kind === 'crawl' ? 'Start URL' : 'URL', text(t.url, LIMITS.url), { link: t.url });
  kv('Type of audit', kindLabel(report));
  kv('Status', statusLabel(t.status));
  kv('Started', fmtDateTime(t.startedAt));
  kv('Completed', fmtDateTime(t.completedAt));
  kv('Duration', fmtDuration(t.durationMs));
  kv('Standard', text(t.standard, LIMITS.cell));
  kv('Test engine', text(t.engine, LIMITS.cell));
  kv('Browser and viewports', text(t.browser, LIMITS.cell));
  if (t.crawl) {
    kv('Page budget', num(t.crawl.maxPages));
    kv('Pages found', num(t.crawl.totalPages));
    kv('Pages scanned', num(t.crawl.scannedPages));
    kv('Pages not scanned', num(t.crawl.failedPages));
    kv('Broken links found', num(t.crawl.brokenLinks));
  }
  kv('Report generated', fmtDateTime(report.generatedAt));
  kv(report.kind === 'crawl' ? 'Crawl id' : 'Scan id', text(t.id, 80), { mono: true });
  await L.table(L.root, [
    { header: 'Property', width: 150 },
    { header: 'Value', width: L.width - 150 },
  ], rows, { header: false, rowHeaders: true });
}
