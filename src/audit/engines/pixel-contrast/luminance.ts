/**
 * WCAG 2.2 contrast maths on 8-bit sRGB pixels: relative luminance (with a lookup table, since the
 * pixel contrast check computes it for every pixel of a text's box), contrast ratio, the large-text
 * rule and the thresholds of 1.4.3. Pure functions; nothing here touches the page.
 */

/** Linear light of each 8-bit sRGB channel value (WCAG 2.x definition, 0.04045 knee). */
const LINEAR: Float64Array = (() => {
  const t = new Float64Array(256);
  for (let v = 0; v < 256; v++) {
    const s = v / 255;
    t[v] = s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }
  return t;
})();

const clampByte = (v: number) => (v <= 0 ? 0 : v >= 255 ? 255 : Math.round(v));

/** Relative luminance of an sRGB colour (channels 0–255): 0 for black, 1 for white. */
export function luminance(r: number, g: number, b: number): number {
  return 0.2126 * LINEAR[clampByte(r)]! + 0.7152 * LINEAR[clampByte(g)]! + 0.0722 * LINEAR[clampByte(b)]!;
}

/** Contrast ratio of two relative luminances, 1 to 21, order does not matter. */
export function ratioOf(l1: number, l2: number): number {
  return l1 > l2 ? (l1 + 0.05) / (l2 + 0.05) : (l2 + 0.05) / (l1 + 0.05);
}

export type Rgb = readonly [number, number, number];

export function contrast(a: Rgb, b: Rgb): number {
  return ratioOf(luminance(a[0], a[1], a[2]), luminance(b[0], b[1], b[2]));
}

/** Rounded down to two decimals, as axe reports ratios (4.499 must never show as 4.5). */
export function floor2(v: number): number {
  return Math.floor(v * 100 + 1e-9) / 100;
}

export function toHex(c: Rgb): string {
  return `#${c.map((v) => clampByte(v).toString(16).padStart(2, '0')).join('')}`;
}

/**
 * A computed CSS colour as the browser serialises it (`rgb(…)`, `rgba(…)`, either with commas or
 * spaces, `transparent`), to channels and alpha. Anything else (`oklch(…)`, `color(…)`) is
 * undefined: the caller then measures the colour from pixels.
 */
export function parseCssColour(value: string): { rgb: Rgb; alpha: number } | undefined {
  const v = value.trim().toLowerCase();
  if (v === 'transparent') return { rgb: [0, 0, 0], alpha: 0 };
  const m = /^rgba?\(\s*([\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)\s*(?:[,/]\s*([\d.]+%?)\s*)?\)$/.exec(v);
  if (!m) return undefined;
  const ch = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (ch.some((c) => !Number.isFinite(c))) return undefined;
  let alpha = 1;
  if (m[4] !== undefined) alpha = m[4].endsWith('%') ? Number(m[4].slice(0, -1)) / 100 : Number(m[4]);
  if (!Number.isFinite(alpha)) return undefined;
  return { rgb: [clampByte(ch[0]!), clampByte(ch[1]!), clampByte(ch[2]!)], alpha: Math.min(1, Math.max(0, alpha)) };
}

/**
 * Large scale text (WCAG): at least 18pt, or 14pt and bold. Points are computed as axe does
 * (`ceil(px * 72) / 96`), so 24px and bold 18.66px (14pt) count as large, exactly where axe's
 * verdicts draw the line.
 */
export function isLargeText(fontSizePx: number, fontWeight: number): boolean {
  const pt = Math.ceil(fontSizePx * 72) / 96;
  const bold = fontWeight >= 700;
  return pt >= 18 || (bold && pt >= 14);
}

/** The 1.4.3 minimum: 4.5:1, or 3:1 for large text. */
export function minimumRatio(fontSizePx: number, fontWeight: number): number {
  return isLargeText(fontSizePx, fontWeight) ? 3 : 4.5;
}

/** `12.0pt (16px)`, the way axe writes font sizes. */
export function fontSizeLabel(fontSizePx: number): string {
  const pt = Math.ceil(fontSizePx * 72) / 96;
  return `${pt.toFixed(1)}pt (${Math.round(fontSizePx * 10) / 10}px)`;
}
