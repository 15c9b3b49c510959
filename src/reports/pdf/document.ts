/**
 * The pdfkit document itself: its type, the embedded fonts (PDF/UA wants every font embedded, and
 * the 14 standard fonts never are), and the fix that keeps the XMP copy of the document info valid XML.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type PDFDocument from 'pdfkit';

export type Doc = InstanceType<typeof PDFDocument>;
export type FontName = 'regular' | 'bold' | 'mono';

const require = createRequire(import.meta.url);
const FONT_FILES: Record<FontName, string> = {
  regular: 'dejavu-fonts-ttf/ttf/DejaVuSans.ttf',
  bold: 'dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf',
  mono: 'dejavu-fonts-ttf/ttf/DejaVuSansMono.ttf',
};
let fontData: Record<FontName, Buffer> | null = null;

/** The three DejaVu faces, read once per process. */
export function fonts(): Record<FontName, Buffer> {
  fontData ??= {
    regular: readFileSync(require.resolve(FONT_FILES.regular)),
    bold: readFileSync(require.resolve(FONT_FILES.bold)),
    mono: readFileSync(require.resolve(FONT_FILES.mono)),
  };
  return fontData;
}

/** The names the fonts are registered under. */
export const FONT_ID: Record<FontName, string> = { regular: 'Sans', bold: 'Sans-Bold', mono: 'Mono' };

export function registerFonts(doc: Doc): void {
  const data = fonts();
  for (const name of Object.keys(FONT_ID) as FontName[]) doc.registerFont(FONT_ID[name], data[name]);
  doc.font(FONT_ID.regular);
}

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
const escapeXml = (v: string) => v.replace(/[&<>"']/g, (c) => XML_ESCAPES[c]!);

/**
 * pdfkit copies the document info (Title, Subject, ...) into the XMP metadata without escaping it,
 * so a title like "a & b" would make the XMP (which PDF/UA requires for dc:title) invalid XML. The
 * info dictionary itself is written first, unescaped as it should be; only the XMP copy is escaped.
 */
export function escapeXmpInfo(doc: Doc): void {
  const d = doc as unknown as { _addInfo(): void; info: Record<string, unknown> };
  const addInfo = d._addInfo;
  if (typeof addInfo !== 'function') return;
  d._addInfo = function (this: typeof d) {
    const saved = { ...this.info };
    for (const [k, v] of Object.entries(this.info)) if (typeof v === 'string') this.info[k] = escapeXml(v);
    try {
      addInfo.call(this);
    } finally {
      this.info = saved;
    }
  };
}
