/**
 * Vector charts drawn with pdfkit paths, inside a Figure's marked content (see `Layout.figure`):
 * nothing here may open an artifact. Colours are always set before a path is built (pdfkit writes
 * colour operators where they are called, and they are not allowed inside a path).
 */
import { num } from './format.ts';
import type { Layout } from './layout.ts';
import { COLORS, type TextStyle, STYLES, withStyle } from './styles.ts';

export interface Bar {
  label: string;
  value: number;
  color: string;
  /** Printed after the bar; defaults to the value. */
  valueText?: string;
}

const TICK: TextStyle = withStyle(STYLES.small, { size: 7 });
const AXIS_TITLE: TextStyle = withStyle(STYLES.small, { size: 7.5 });
const BAR_LABEL: TextStyle = withStyle(STYLES.cell, { size: 8 });
const VALUE: TextStyle = withStyle(STYLES.cellBold, { size: 8 });

/** A round axis maximum and step (1, 2 or 5 times a power of ten) for counts from 0 to `max`. */
export function niceScale(max: number, ticks = 4): { max: number; step: number } {
  if (!(max > 0)) return { max: ticks, step: 1 };
  const raw = max / ticks;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const n = raw / mag;
  const step = Math.max(1, (n <= 1 ? 1 : n <= 2 ? 2 : n <= 5 ? 5 : 10) * mag);
  return { max: Math.ceil(max / step) * step, step };
}

const lineHeight = (s: TextStyle) => s.size * 1.17;

export const H_BAR = { barH: 13, gap: 6, axis: 28 } as const;

export function hBarsHeight(n: number): number {
  return n * (H_BAR.barH + H_BAR.gap) - H_BAR.gap + H_BAR.axis;
}

/** Horizontal bars, a label on the left of each, the value after it, a count axis below. */
export function drawHBars(L: Layout, x: number, y: number, w: number, bars: Bar[], opts: { labelWidth: number; axisTitle: string; max?: number }): void {
  const doc = L.doc;
  const { barH, gap } = H_BAR;
  const plotX = x + opts.labelWidth + 8;
  const valueRoom = 70;
  const plotW = Math.max(40, w - opts.labelWidth - 8 - valueRoom);
  const plotH = bars.length * (barH + gap) - gap;
  const scale = opts.max ? { max: opts.max, step: opts.max / 4 } : niceScale(Math.max(0, ...bars.map((b) => b.value)));

  for (let t = 0; t <= scale.max + 1e-9; t += scale.step) {
    const gx = plotX + (t / scale.max) * plotW;
    doc.strokeColor(COLORS.grid).lineWidth(0.5);
    doc.moveTo(gx, y - 3).lineTo(gx, y + plotH + 3).stroke();
    const label = num(t);
    L.drawLine(label, gx - 30, y + plotH + 6, TICK, { width: 60, align: 'center' });
  }
  L.drawLine(opts.axisTitle, plotX, y + plotH + 17, AXIS_TITLE, { width: plotW, align: 'center' });

  bars.forEach((b, i) => {
    const by = y + i * (barH + gap);
    const ty = by + (barH - lineHeight(BAR_LABEL)) / 2 + 0.5;
    L.drawLine(L.fit(b.label, BAR_LABEL, opts.labelWidth), x, ty, BAR_LABEL, { width: opts.labelWidth, align: 'right' });
    let bw = (Math.max(0, b.value) / scale.max) * plotW;
    if (b.value > 0 && bw < 2) bw = 2;
    if (bw > 0) {
      doc.fillColor(b.color);
      doc.rect(plotX, by, bw, barH).fill();
    }
    L.drawLine(b.valueText ?? num(b.value), plotX + bw + 5, ty, VALUE);
  });
  doc.strokeColor(COLORS.ink).lineWidth(0.8);
  doc.moveTo(plotX, y - 3).lineTo(plotX, y + plotH + 3).stroke();
}

/** Vertical columns (a histogram): counts above the columns, category labels below. */
export function drawColumns(L: Layout, x: number, y: number, w: number, h: number, cols: Bar[], opts: { yTitle: string; xTitle: string }): void {
  const doc = L.doc;
  const leftPad = 34;
  const topPad = 26;
  const bottomPad = 32;
  const plotX = x + leftPad;
  const plotW = w - leftPad - 4;
  const plotY = y + topPad;
  const plotH = h - topPad - bottomPad;
  const scale = niceScale(Math.max(0, ...cols.map((c) => c.value)));

  L.drawLine(opts.yTitle, x, y, AXIS_TITLE);
  for (let t = 0; t <= scale.max + 1e-9; t += scale.step) {
    const gy = plotY + plotH - (t / scale.max) * plotH;
    doc.strokeColor(COLORS.grid).lineWidth(0.5);
    doc.moveTo(plotX, gy).lineTo(plotX + plotW, gy).stroke();
    L.drawLine(num(t), x, gy - lineHeight(TICK) / 2, TICK, { width: leftPad - 6, align: 'right' });
  }
  const slot = plotW / cols.length;
  const barW = Math.min(36, slot * 0.68);
  cols.forEach((c, i) => {
    const cx = plotX + slot * i + slot / 2;
    let bh = (Math.max(0, c.value) / scale.max) * plotH;
    if (c.value > 0 && bh < 2) bh = 2;
    if (bh > 0) {
      doc.fillColor(c.color);
      doc.rect(cx - barW / 2, plotY + plotH - bh, barW, bh).fill();
    }
    L.drawLine(c.valueText ?? num(c.value), cx - slot / 2, plotY + plotH - bh - lineHeight(VALUE) - 1, VALUE, { width: slot, align: 'center' });
    L.drawLine(L.fit(c.label, TICK, slot - 2), cx - slot / 2, plotY + plotH + 5, TICK, { width: slot, align: 'center' });
  });
  doc.strokeColor(COLORS.ink).lineWidth(0.8);
  doc.moveTo(plotX, plotY + plotH).lineTo(plotX + plotW, plotY + plotH).stroke();
  L.drawLine(opts.xTitle, plotX, y + h - 11, AXIS_TITLE, { width: plotW, align: 'center' });
}

export interface LinePoint {
  label: string;
  value: number | null;
}

/** A line with points over a 0–100 axis, the value above each point, labels below. */
export function drawLineChart(L: Layout, x: number, y: number, w: number, h: number, points: LinePoint[], opts: { yTitle: string; xTitle: string }): void {
  const doc = L.doc;
  const leftPad = 34;
  const topPad = 26;
  const bottomPad = 32;
  const plotX = x + leftPad;
  const plotW = w - leftPad - 10;
  const plotY = y + topPad;
  const plotH = h - topPad - bottomPad;
  const inset = 24;

  L.drawLine(opts.yTitle, x, y, AXIS_TITLE);
  for (let t = 0; t <= 100; t += 25) {
    const gy = plotY + plotH - (t / 100) * plotH;
    doc.strokeColor(COLORS.grid).lineWidth(0.5);
    doc.moveTo(plotX, gy).lineTo(plotX + plotW, gy).stroke();
    L.drawLine(String(t), x, gy - lineHeight(TICK) / 2, TICK, { width: leftPad - 6, align: 'right' });
  }
  doc.strokeColor(COLORS.ink).lineWidth(0.8);
  doc.moveTo(plotX, plotY + plotH).lineTo(plotX + plotW, plotY + plotH).stroke();

  const n = points.length;
  const px = (i: number) => (n === 1 ? plotX + plotW / 2 : plotX + inset + (i * (plotW - 2 * inset)) / (n - 1));
  const py = (v: number) => plotY + plotH - (Math.min(100, Math.max(0, v)) / 100) * plotH;

  // The line, broken where a crawl has no score.
  doc.strokeColor(COLORS.accent).lineWidth(1.6);
  let open = false;
  points.forEach((p, i) => {
    if (p.value == null) {
      if (open) doc.stroke();
      open = false;
      return;
    }
    if (!open) {
      doc.moveTo(px(i), py(p.value));
      open = true;
    } else doc.lineTo(px(i), py(p.value));
  });
  if (open) doc.stroke();

  const maxLabels = Math.max(1, Math.floor((plotW - 2 * inset) / 62) + 1);
  const every = Math.ceil(n / maxLabels);
  const slot = n === 1 ? plotW : Math.min(80, (plotW - 2 * inset) / Math.max(1, n - 1));
  points.forEach((p, i) => {
    if (p.value != null) {
      doc.fillColor(COLORS.white).strokeColor(COLORS.accent).lineWidth(1.3);
      doc.circle(px(i), py(p.value), 3.2).fillAndStroke();
      if (n <= 16 || i === n - 1 || i % every === 0) {
        L.drawLine(String(Math.round(p.value)), px(i) - 20, py(p.value) - lineHeight(VALUE) - 4, VALUE, { width: 40, align: 'center' });
      }
    }
    if (i % every === 0 || i === n - 1) {
      if (i === n - 1 && i % every !== 0 && n > 1 && (i % every) < every / 2) return;
      L.drawLine(L.fit(p.label, TICK, Math.max(30, slot * every - 4)), px(i) - 40, plotY + plotH + 5, TICK, { width: 80, align: 'center' });
    }
  });
  L.drawLine(opts.xTitle, plotX, y + h - 11, AXIS_TITLE, { width: plotW, align: 'center' });
}
