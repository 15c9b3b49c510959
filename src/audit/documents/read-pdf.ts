/**
 * Reads a PDF's accessibility facts with pdf.js (Mozilla's parser, the one Firefox shows PDFs
 * with): its catalog and information dictionary, the structure tree, annotations and the text
 * layer of each page read. Runs inside the document worker thread (pdf-worker.ts), which bounds its
 * time and memory; call `readPdfInWorker` (read-in-worker.ts), not this, from a scan.
 */
import {
  type PagePicture,
  type PdfRect,
  type PictureTarget,
  MAX_ITEMS,
  MAX_MARKED,
  MAX_PAGES_DRAWN,
  MAX_PAGES_READ,
  type FieldFacts,
  type FigureFacts,
  type LinkFacts,
  type PageTabFacts,
  type PageTextFacts,
  type PdfFacts,
  type PdfReadResult,
  type TableFacts,
} from './pdf-facts.ts';
import { mcidOf, regionOf, type OpCodes } from './pdf-regions.ts';
import { readTabs } from './pdf-tabs.ts';
import { scrubberFor } from '../../shared/typed-values.ts';

/** Strings from the file, trimmed and cut: a title or alt text is shown, never a megabyte of it. */
const MAX_TEXT = 500;
/** Structure elements visited per page: a tree can be wide or deep on purpose. */
const MAX_NODES_PER_PAGE = 5_000;
const HEADING = /^H[1-6]?$/;
const IMAGE_OPS = ['paintImageXObject', 'paintInlineImageXObject', 'paintImageMaskXObject', 'paintImageXObjectRepeat', 'paintInlineImageXObjectGroup', 'paintSolidColorImageMask'] as const;

interface StructNode {
  role?: string;
  alt?: string;
  children?: Array<StructNode | { type: string; id: string }>;
  headers?: string[];
  scope?: string;
}

const clean = (s: unknown): string | null => {
  if (typeof s !== 'string') return null;
  const t = s.replace(/[\u0000-\u001f\u007f]+/g, ' ').replace(/\s+/g, ' ').trim();
  return t ? t.slice(0, MAX_TEXT) : null;
};

/** U+FFFD, private use and C0 controls: what a glyph without a Unicode mapping comes out as. */
function unmappableCount(s: string): number {
  let n = 0;
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (c === 0xfffd || (c >= 0xe000 && c <= 0xf8ff) || (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) || c >= 0xf0000) n++;
  }
  return n;
}

const isNode = (c: unknown): c is StructNode => typeof c === 'object' && c !== null && 'role' in c;

/** Every structure element of a page's tree with its path, depth first, at most MAX_NODES_PER_PAGE. */
function* walk(root: StructNode): Generator<{ node: StructNode; path: string }> {
  let visited = 0;
  const stack: Array<{ node: StructNode; path: string }> = [];
  const push = (node: StructNode, prefix: string) => {
    const seen = new Map<string, number>();
    const kids = (node.children ?? []).filter(isNode);
    const entries = kids.map((k) => {
      const n = (seen.get(k.role!) ?? 0) + 1;
      seen.set(k.role!, n);
      return { node: k, path: `${prefix}${prefix ? '/' : ''}${k.role}[${n}]` };
    });
    for (let i = entries.length - 1; i >= 0; i--) stack.push(entries[i]!);
  };
  push(root, '');
  while (stack.length && visited < MAX_NODES_PER_PAGE) {
    const e = stack.pop()!;
    visited++;
    yield e;
    push(e.node, e.path);
  }
}

/** The content ids (`p12_mc3`) under an element, and its annotations' ids. */
function contentOf(node: StructNode, out: { content: string[]; annotations: string[] }, depth = 0): void {
  if (depth > 50) return;
  for (const c of node.children ?? []) {
    if (isNode(c)) contentOf(c, out, depth + 1);
    else if (c.type === 'content') out.content.push(c.id);
    else if (c.type === 'annotation') out.annotations.push(c.id);
  }
}

function table(node: StructNode): { rows: number; columns: number; headerCells: number } {
  let rows = 0;
  let columns = 0;
  let headerCells = 0;
  const visit = (n: StructNode, depth: number) => {
    if (depth > 20) return;
    for (const c of (n.children ?? []).filter(isNode)) {
      if (c.role === 'TR') {
        rows++;
        const cells = (c.children ?? []).filter(isNode).filter((k) => k.role === 'TH' || k.role === 'TD');
        columns = Math.max(columns, cells.length);
        headerCells += cells.filter((k) => k.role === 'TH' || (k.headers?.length ?? 0) > 0 || !!k.scope).length;
      } else if (c.role !== 'Table') visit(c, depth + 1);
    }
  };
  visit(node, 0);
  return { rows, columns, headerCells };
}

/** The text of each marked-content id on a page (`p12_mc3` → its text), from the text layer. */
function markedText(items: ReadonlyArray<Record<string, unknown>>): Map<string, string> {
  const out = new Map<string, string>();
  const open: string[] = [];
  for (const it of items) {
    if (it.type === 'beginMarkedContentProps' || it.type === 'beginMarkedContent') open.push(typeof it.id === 'string' ? it.id : '');
    else if (it.type === 'endMarkedContent') open.pop();
    else if (typeof it.str === 'string') {
      const id = open.findLast((x) => x !== '');
      if (id) out.set(id, `${out.get(id) ?? ''}${it.str}`);
    }
  }
  return out;
}

/** The MCIDs of an element's own content on its page, at most MAX_MARKED. */
function markedOf(node: StructNode): number[] {
  const inside = { content: [] as string[], annotations: [] as string[] };
  contentOf(node, inside);
  return inside.content.map(mcidOf).filter((m): m is number => m !== null).slice(0, MAX_MARKED);
}

/**
 * Each listed page's `/Tabs`, read from the page dictionaries (see pdf-tabs.ts). When they cannot
 * be read the list is emptied: a tab order that is not known is not judged.
 */
async function tabsOf(facts: PdfFacts, bytes: Uint8Array): Promise<void> {
  if (facts.tabOrder.length === 0) return;
  const tabs = await readTabs(bytes, facts.tabOrder.map((t) => t.page));
  if (!tabs) {
    facts.tabOrder = [];
    return;
  }
  for (const t of facts.tabOrder) t.tabs = tabs.get(t.page) ?? null;
}

/** Renders pictures of the document just read (see `readPdf`'s `then`). */
export type RenderPictures = (targets: readonly PictureTarget[]) => Promise<PagePicture[]>;

/** The widest picture, in pixels: a page region outlined, or a whole page. */
const PICTURE_WIDTH = 800;
/** Points kept around an outlined rectangle. */
const PICTURE_MARGIN = 48;
const OUTLINE = '#d1007a';

const validRect = (r: unknown): PdfRect | null =>
  Array.isArray(r) && r.length === 4 && r.every((n) => typeof n === 'number' && Number.isFinite(n)) ? (r as PdfRect) : null;

/**
 * The facts of one PDF given as bytes. A password-protected file is `encrypted`; a file pdf.js
 * cannot open is `unreadable`; past that, what a page will not give is left out, never thrown.
 * `then`, when given, runs with the facts while the document is still open, with a function that
 * renders pictures of its pages (the caller decides which, from the facts).
 */
export async function readPdf(bytes: Uint8Array, then?: (facts: PdfFacts, render: RenderPictures) => Promise<void>, secrets: readonly string[] = []): Promise<PdfReadResult> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  // pdf.js may take the buffer it is given; the tab-order reader needs the bytes after it.
  const task = pdfjs.getDocument({
    data: bytes.slice(),
    verbosity: 0,
    disableFontFace: true,
    useSystemFonts: false,
    enableXfa: false,
    stopAtErrors: false,
  });
  let doc: Awaited<typeof task.promise>;
  try {
    doc = await task.promise;
  } catch (err) {
    const name = (err as Error)?.name;
    const message = ((err as Error)?.message ?? String(err)).slice(0, 200);
    if (name === 'PasswordException') return { kind: 'encrypted', message: 'the file needs a password to open' };
    return { kind: 'unreadable', message: `not a readable PDF: ${message}` };
  }
  try {
    const OPS = pdfjs.OPS as unknown as OpCodes;
    const facts = await factsOf(doc, OPS, secrets);
    await tabsOf(facts, bytes);
    await then?.(facts, (targets) => renderPictures(doc, targets, OPS));
    return { kind: 'read', facts };
  } finally {
    await task.destroy().catch(() => {});
  }
}

interface NodeCanvas {
  width: number;
  height: number;
  getContext(kind: '2d'): CanvasRenderingContext2D;
  toBuffer(mime: 'image/png'): Uint8Array;
}

/** Each target's page rendered (a rectangle outlined and cropped with a margin); a page that will not render is left out. */
async function renderPictures(doc: PdfDocument, targets: readonly PictureTarget[], OPS: OpCodes): Promise<PagePicture[]> {
  const factory = (doc as unknown as { canvasFactory: { create(w: number, h: number): { canvas: NodeCanvas; context: CanvasRenderingContext2D } } }).canvasFactory;
  const out: PagePicture[] = [];
  for (let t of targets) {
    try {
      const page = await doc.getPage(t.page);
      // A tagged element without a rectangle: the region its marked content draws, when measurable.
      if (!t.rect && t.marked?.length) {
        const rect = await regionOf(page as unknown as Parameters<typeof regionOf>[0], new Set(t.marked), OPS);
        if (rect) t = { ...t, rect };
      }
      const base = page.getViewport({ scale: 1 });
      const scale = Math.min(2, PICTURE_WIDTH / Math.max(1, t.rect ? Math.min(base.width, Math.abs(t.rect[2] - t.rect[0]) + 2 * PICTURE_MARGIN) : base.width));
      const viewport = page.getViewport({ scale });
      const full = factory.create(Math.ceil(viewport.width), Math.ceil(viewport.height));
      await page.render({ canvasContext: full.context, canvas: full.canvas, viewport } as unknown as Parameters<typeof page.render>[0]).promise;
      let canvas = full.canvas;
      if (t.rect) {
        // The rectangle in the rendered page's pixels, outlined, then the region around it cut out.
        const [x1, y1] = viewport.convertToViewportPoint(t.rect[0], t.rect[1]) as [number, number];
        const [x2, y2] = viewport.convertToViewportPoint(t.rect[2], t.rect[3]) as [number, number];
        const [left, top, right, bottom] = [Math.min(x1, x2), Math.min(y1, y2), Math.max(x1, x2), Math.max(y1, y2)];
        full.context.strokeStyle = OUTLINE;
        full.context.lineWidth = 3;
        full.context.strokeRect(left - 3, top - 3, right - left + 6, bottom - top + 6);
        const m = PICTURE_MARGIN * scale;
        const sx = Math.max(0, Math.floor(left - m));
        const sy = Math.max(0, Math.floor(top - m));
        const sw = Math.min(full.canvas.width - sx, Math.ceil(right - left + 2 * m));
        const sh = Math.min(full.canvas.height - sy, Math.ceil(bottom - top + 2 * m));
        if (sw > 0 && sh > 0) {
          const crop = factory.create(sw, sh);
          crop.context.drawImage(full.canvas as unknown as CanvasImageSource, sx, sy, sw, sh, 0, 0, sw, sh);
          canvas = crop.canvas;
        }
      }
      out.push({ key: t.key, png: canvas.toBuffer('image/png'), width: canvas.width, height: canvas.height });
      page.cleanup();
    } catch {
      // A page that will not render has no picture; the finding stands without one.
    }
  }
  return out;
}

type PdfDocument = Awaited<ReturnType<(typeof import('pdfjs-dist/legacy/build/pdf.mjs'))['getDocument']>['promise']>;

async function factsOf(doc: PdfDocument, OPS: Record<string, number>, secrets: readonly string[]): Promise<PdfFacts> {
  // Compared without whitespace, as the page text is: a PDF places words, not spaces.
  const scrub = scrubberFor(secrets.map((v) => v.replace(/\s+/g, '')));
  const soft = async <T>(p: Promise<T>, fallback: T): Promise<T> => p.catch(() => fallback);
  const meta = await soft(doc.getMetadata(), { info: {}, metadata: null } as unknown as Awaited<ReturnType<PdfDocument['getMetadata']>>);
  const info = (meta.info ?? {}) as Record<string, unknown>;
  const xmpTitle = (() => {
    try {
      return meta.metadata?.get('dc:title');
    } catch {
      return null;
    }
  })();
  const markInfo = await soft(doc.getMarkInfo(), null);
  const prefs = await soft(doc.getViewerPreferences(), null);
  const outline = await soft(doc.getOutline(), null);
  const permissions = await soft(doc.getPermissions(), null);
  const countOutline = (items: ReadonlyArray<{ items?: unknown[] }> | null, depth = 0): number =>
    !items || depth > 20 ? 0 : items.reduce((n, i) => n + 1 + countOutline((i.items ?? []) as Array<{ items?: unknown[] }>, depth + 1), 0);
  const display = prefs instanceof Map ? prefs.get('DisplayDocTitle') : (prefs as Record<string, unknown> | null)?.DisplayDocTitle;
  // PermissionFlag.COPY_FOR_ACCESSIBILITY (bit 10) and COPY (bit 5): with neither, a reader that
  // honours the file's wishes gives assistive technology no text.
  const accessibilityBlocked = permissions !== null && !permissions.has(512) && !permissions.has(16);

  const facts: PdfFacts = {
    pageCount: doc.numPages,
    pagesRead: Math.min(doc.numPages, MAX_PAGES_READ),
    version: clean(info.PDFFormatVersion),
    title: clean(info.Title) ?? clean(xmpTitle),
    displayDocTitle: typeof display === 'boolean' ? display : null,
    lang: clean(info.Language),
    marked: (markInfo instanceof Map ? markInfo.get('Marked') : (markInfo as { Marked?: unknown } | null)?.Marked) === true,
    tagged: false,
    bookmarks: countOutline(outline as Array<{ items?: unknown[] }> | null),
    headings: 0,
    accessibilityBlocked,
    figures: [],
    tables: [],
    links: [],
    fields: [],
    text: [],
    imageOnlyPages: [],
    tabOrder: [],
    showsSecret: false,
  };
  const seenPlaces = new Set<string>();
  let drawn = 0;
  for (let n = 1; n <= facts.pagesRead; n++) {
    const page = await doc.getPage(n).catch(() => null);
    if (!page) continue;
    const content = await soft(page.getTextContent({ includeMarkedContent: true }), { items: [] } as unknown as Awaited<ReturnType<typeof page.getTextContent>>);
    const items = content.items as unknown as Array<Record<string, unknown>>;
    const text = items.map((i) => (typeof i.str === 'string' ? i.str : '')).join('').replace(/\s+/g, '');
    const pageText: PageTextFacts = { page: n, chars: [...text].length, unmappable: unmappableCount(text) };
    facts.text.push(pageText);
    if (scrub && !facts.showsSecret) facts.showsSecret = scrub(text) !== text;
    if (pageText.chars === 0 && drawn < MAX_PAGES_DRAWN) {
      drawn++;
      const ops = await soft(page.getOperatorList(), null);
      const imageOps = new Set(IMAGE_OPS.map((o) => OPS[o]).filter((o): o is number => o !== undefined));
      if (ops?.fnArray.some((f) => imageOps.has(f))) facts.imageOnlyPages.push(n);
    }
    const annotations = (await soft(page.getAnnotations(), [])) as Array<Record<string, unknown>>;
    const tree = (await soft(page.getStructTree(), null)) as StructNode | null;
    const taggedAnnotations = new Map<string, string | null>();
    if (tree && (tree.children?.length ?? 0) > 0) {
      facts.tagged = true;
      const texts = markedText(items);
      for (const { node, path } of walk(tree)) {
        const role = node.role ?? '';
        const key = `${path}`;
        if (HEADING.test(role)) facts.headings++;
        if (role === 'Figure' && facts.figures.length < MAX_ITEMS && !seenPlaces.has(`F ${key}`)) {
          seenPlaces.add(`F ${key}`);
          facts.figures.push({ page: n, path, marked: markedOf(node), alt: clean(node.alt) } satisfies FigureFacts);
        }
        if (role === 'Table' && facts.tables.length < MAX_ITEMS && !seenPlaces.has(`T ${key}`)) {
          seenPlaces.add(`T ${key}`);
          facts.tables.push({ page: n, path, marked: markedOf(node), ...table(node) } satisfies TableFacts);
        }
        if (role === 'Link' || role === 'Form') {
          const inside = { content: [] as string[], annotations: [] as string[] };
          contentOf(node, inside);
          const name = clean(node.alt) ?? clean(inside.content.map((id) => texts.get(id) ?? '').join(' '));
          for (const a of inside.annotations) taggedAnnotations.set(a.replace(/^pdfjs_internal_id_/, ''), name);
        }
      }
    }
    const interactive: string[] = [];
    for (const a of annotations) {
      const id = String(a.id ?? '');
      const contents = clean((a.contentsObj as { str?: unknown } | undefined)?.str);
      if (a.subtype === 'Link' && facts.links.length < MAX_ITEMS) {
        facts.links.push({
          page: n,
          rect: validRect(a.rect),
          id,
          url: typeof a.url === 'string' ? a.url.slice(0, 2000) : null,
          contents,
          tagged: taggedAnnotations.has(id),
          text: taggedAnnotations.get(id) ?? null,
        } satisfies LinkFacts);
        interactive.push(id);
      } else if (a.subtype === 'Widget' && facts.fields.length < MAX_ITEMS) {
        facts.fields.push({
          page: n,
          rect: validRect(a.rect),
          id,
          fieldType: typeof a.fieldType === 'string' ? a.fieldType : 'unknown',
          description: clean(a.alternativeText),
          hidden: a.hidden === true || (typeof a.annotationFlags === 'number' && (a.annotationFlags & 2) !== 0),
          name: clean(a.fieldName),
        } satisfies FieldFacts);
        if (!facts.fields.at(-1)!.hidden) interactive.push(id);
      }
    }
    if (facts.tagged && interactive.length >= 2 && facts.tabOrder.length < MAX_ITEMS) {
      const kept = new Set(interactive);
      facts.tabOrder.push({ page: n, tabs: null, annotationOrder: interactive, structureOrder: [...taggedAnnotations.keys()].filter((id) => kept.has(id)) } satisfies PageTabFacts);
    }
    page.cleanup();
  }
  return facts;
}
