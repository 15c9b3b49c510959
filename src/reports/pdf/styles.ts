/** The report's palette and type scale. */
import type { FontName } from './document.ts';

/** Palette: every text colour has at least 4.5:1 contrast on white and on the fills below. */
export const COLORS = {
  ink: '#1b1f24',
  muted: '#4b5563',
  navy: '#1f3a5f',
  accent: '#24507a',
  link: '#1d4ed8',
  good: '#1e6b34',
  white: '#ffffff',
  rule: '#d5dbe3',
  ruleStrong: '#1f3a5f',
  headFill: '#e6ecf2',
  zebra: '#f6f8fa',
  codeFill: '#f1f3f5',
  boxFill: '#eef2f7',
  failFill: '#fbeaea',
  reviewFill: '#fdf3dc',
  grid: '#e3e7ec',
} as const;

export const SEVERITY_COLOR = {
  critical: '#a4161a',
  serious: '#b33c00',
  moderate: '#8a5a00',
  minor: '#3f4f63',
} as const;

export interface TextStyle {
  font: FontName;
  size: number;
  color: string;
  lineGap: number;
  align?: 'left' | 'right' | 'center';
}

const st = (font: FontName, size: number, color: string, lineGap: number): TextStyle => ({ font, size, color, lineGap });

/** The type scale. */
export const STYLES = {
  h1: st('bold', 30, COLORS.navy, 2),
  h2: st('bold', 17, COLORS.navy, 2),
  h3: st('bold', 12, COLORS.ink, 1.5),
  h4: st('bold', 9.5, COLORS.navy, 1),
  body: st('regular', 9.5, COLORS.ink, 2.5),
  bodyBold: st('bold', 9.5, COLORS.ink, 2.5),
  small: st('regular', 8, COLORS.muted, 1.5),
  cell: st('regular', 8, COLORS.ink, 1),
  cellBold: st('bold', 8, COLORS.ink, 1),
  cellHead: st('bold', 8, COLORS.ink, 1),
  cellMono: st('mono', 7.5, COLORS.ink, 1),
  cellMuted: st('regular', 7.5, COLORS.muted, 1),
  mono: st('mono', 7.8, COLORS.ink, 1.5),
  link: st('regular', 9, COLORS.link, 2),
  label: st('bold', 7.5, COLORS.muted, 1),
} as const;

export const withStyle = (base: TextStyle, over: Partial<TextStyle> = {}): TextStyle => ({ ...base, ...over });
