/**
 * Colour maths for contrast advice (WCAG 2.2 definitions): relative luminance, contrast ratio, and
 * the nearest colour of the same hue that reaches a ratio against a fixed other colour. Pure
 * functions on 8-bit sRGB colours; nothing here touches the page.
 */

export interface Rgb {
  r: number;
  g: number;
  b: number;
}

export interface Hsl {
  /** 0–360 */
  h: number;
  /** 0–1 */
  s: number;
  /** 0–1 */
  l: number;
}

/** `#abc`, `#aabbcc` or `#aabbccdd` (alpha ignored) to 0–255 channels; undefined for anything else. */
export function parseHex(value: string): Rgb | undefined {
  const m = /^#?([0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/i.exec(value.trim());
  if (!m) return undefined;
  let hex = m[1]!;
  if (hex.length === 3) hex = [...hex].map((c) => c + c).join('');
  return { r: parseInt(hex.slice(0, 2), 16), g: parseInt(hex.slice(2, 4), 16), b: parseInt(hex.slice(4, 6), 16) };
}

const clamp255 = (v: number) => Math.min(255, Math.max(0, Math.round(v)));

export function toHex(c: Rgb): string {
  return `#${[c.r, c.g, c.b].map((v) => clamp255(v).toString(16).padStart(2, '0')).join('')}`;
}

/** WCAG relative luminance of an sRGB colour: 0 for black, 1 for white. */
export function relativeLuminance(c: Rgb): number {
  const lin = (v: number) => {
    const s = clamp255(v) / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(c.r) + 0.7152 * lin(c.g) + 0.0722 * lin(c.b);
}

/** WCAG contrast ratio, 1 to 21, order of the colours does not matter. */
export function contrastRatio(a: Rgb, b: Rgb): number {
  const la = relativeLuminance(a);
  const lb = relativeLuminance(b);
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

export function rgbToHsl(c: Rgb): Hsl {
  const r = c.r / 255;
  const g = c.g / 255;
  const b = c.b / 255;
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const l = (max + min) / 2;
  const d = max - min;
  if (d === 0) return { h: 0, s: 0, l };
  const s = d / (1 - Math.abs(2 * l - 1));
  let h: number;
  if (max === r) h = ((g - b) / d) % 6;
  else if (max === g) h = (b - r) / d + 2;
  else h = (r - g) / d + 4;
  h *= 60;
  if (h < 0) h += 360;
  return { h, s, l };
}

export function hslToRgb({ h, s, l }: Hsl): Rgb {
  const c = (1 - Math.abs(2 * l - 1)) * s;
  const hp = (((h % 360) + 360) % 360) / 60;
  const x = c * (1 - Math.abs((hp % 2) - 1));
  const [r1, g1, b1] =
    hp < 1 ? [c, x, 0] : hp < 2 ? [x, c, 0] : hp < 3 ? [0, c, x] : hp < 4 ? [0, x, c] : hp < 5 ? [x, 0, c] : [c, 0, x];
  const m = l - c / 2;
  return { r: clamp255((r1 + m) * 255), g: clamp255((g1 + m) * 255), b: clamp255((b1 + m) * 255) };
}

export interface NearestColour {
  /** The adjusted colour as `#rrggbb`. */
  hex: string;
  /** Its contrast ratio against the fixed colour (unrounded). */
  ratio: number;
  /** Which way lightness moved. */
  direction: 'darker' | 'lighter';
  /** How far lightness moved (HSL, 0–1). */
  lightnessChange: number;
}

/** Lightness steps searched per direction: fine enough to hit every 8-bit value along the way. */
const STEPS = 1000;

/** Answers kept per (colour, against, target): a site repeats the same few colour pairs on every page. */
const nearestCache = new Map<string, NearestColour | undefined>();
const NEAREST_CACHE_SIZE = 5000;

/**
 * The colour nearest to `colour` along HSL lightness (same hue and saturation) whose contrast ratio
 * against `against` is at least `target`, searching darker and lighter and taking the smaller
 * change. The ratio is measured on the rounded 8-bit colour that is returned. Undefined only when
 * neither direction reaches the target (impossible for targets up to 4.58:1, since black or white
 * always reaches that against any colour).
 */
export function nearestPassingColour(colour: Rgb, against: Rgb, target: number): NearestColour | undefined {
  const key = `${toHex(colour)}${toHex(against)}${target}`;
  if (nearestCache.has(key)) return nearestCache.get(key);
  const found = searchNearest(colour, against, target);
  if (nearestCache.size >= NEAREST_CACHE_SIZE) nearestCache.clear();
  nearestCache.set(key, found);
  return found;
}

function searchNearest(colour: Rgb, against: Rgb, target: number): NearestColour | undefined {
  const hsl = rgbToHsl(colour);
  const start = contrastRatio(colour, against);
  if (start >= target) return { hex: toHex(colour), ratio: start, direction: 'darker', lightnessChange: 0 };
  const at = (direction: 'darker' | 'lighter', delta: number) => hslToRgb({ ...hsl, l: Math.min(1, Math.max(0, direction === 'darker' ? hsl.l - delta : hsl.l + delta)) });
  const search = (direction: 'darker' | 'lighter'): NearestColour | undefined => {
    const span = direction === 'darker' ? hsl.l : 1 - hsl.l;
    // Luminance moves one way with lightness, so along one direction the ratio is at most the
    // larger of its two ends: when the far end (black or white) misses, every step does.
    if (contrastRatio(at(direction, span), against) < target) return undefined;
    for (let i = 1; i <= STEPS; i++) {
      const delta = (span * i) / STEPS;
      const rgb = at(direction, delta);
      const ratio = contrastRatio(rgb, against);
      if (ratio >= target) return { hex: toHex(rgb), ratio, direction, lightnessChange: delta };
    }
    return undefined;
  };
  const darker = search('darker');
  const lighter = search('lighter');
  if (darker && lighter) return lighter.lightnessChange < darker.lightnessChange ? lighter : darker;
  return darker ?? lighter;
}

/** A measured ratio to two places, truncated (never rounded up past a threshold): 4.4999 → "4.49:1". */
export function formatRatio(ratio: number): string {
  return `${(Math.floor(ratio * 100 + 1e-9) / 100).toFixed(2)}:1`;
}
