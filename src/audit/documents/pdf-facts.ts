/**
 * What the document audit reads from a PDF file: plain data, gathered by pdf.js in a worker thread
 * (read-pdf.ts) and judged by pure code (judge-pdf.ts). Nothing here is trusted beyond its shape:
 * strings come from the file and are cut to bounded lengths where they are read.
 */

/** Pages whose text, structure and annotations are read; the rest are counted, not read. */
export const MAX_PAGES_READ = 100;
/** Figures, tables, links and fields kept per document, so a hostile file cannot grow the facts. */
export const MAX_ITEMS = 200;
/** Pages without text whose drawing operators are read to tell a scan from a blank page. */
export const MAX_PAGES_DRAWN = 12;

/** One element of the structure tree, located by page and structure path (`Document/Sect[2]/Figure[1]`). */
export interface StructPlace {
  /** 1-based page number. */
  page: number;
  path: string;
  /** The marked-content ids (MCIDs) of its content on that page, at most MAX_MARKED: where it is drawn. */
  marked: number[];
}

/** Marked-content ids kept per element. */
export const MAX_MARKED = 64;

export interface FigureFacts extends StructPlace {
  /** Its `/Alt` (or `/ActualText`), trimmed; null when it has neither. */
  alt: string | null;
}

export interface TableFacts extends StructPlace {
  rows: number;
  /** The most cells in one row. */
  columns: number;
  /** `TH` cells, plus `TD` cells that name headers (`/Headers`) or a scope. */
  headerCells: number;
}

/** A rectangle on a page in PDF units (points, origin bottom left): x1, y1, x2, y2. */
export type PdfRect = [number, number, number, number];

export interface LinkFacts {
  page: number;
  rect: PdfRect | null;
  /** The annotation's object id (`12R`). */
  id: string;
  url: string | null;
  /** Its `/Contents`, trimmed; null when it has none. */
  contents: string | null;
  /** Inside a `Link` structure element (its text is then its name). */
  tagged: boolean;
  /** The text of that structure element's content on the page, when tagged (for the name). */
  text: string | null;
}

export interface FieldFacts {
  page: number;
  rect: PdfRect | null;
  id: string;
  /** `Tx` text, `Btn` button or box, `Ch` choice, `Sig` signature. */
  fieldType: string;
  /** Its `/TU` (the tooltip screen readers announce), trimmed; null when it has none. */
  description: string | null;
  hidden: boolean;
  /** Fully qualified field name (`/T`): not a description (it is meant for the program, not people). */
  name: string | null;
}

/** The order in which Tab moves through a page's links and fields, and the order the tags give them. */
export interface PageTabFacts {
  page: number;
  /**
   * The page's `/Tabs`: `S` structure order, `R` row order, `C` column order, `A` annotation
   * order, `W` widget order (PDF 2.0); null when the page does not say.
   */
  tabs: string | null;
  /** The ids of the page's visible links and fields, in the order of its `/Annots` array. */
  annotationOrder: string[];
  /** Those of them inside Link or Form tags, in the order the structure tree reaches them. */
  structureOrder: string[];
}

export interface PageTextFacts {
  page: number;
  /** Characters of the text layer, whitespace left out. */
  chars: number;
  /** Of those, the ones no reader can speak: U+FFFD, private use, C0 controls (a font without a Unicode map). */
  unmappable: number;
}

export interface PdfFacts {
  pageCount: number;
  pagesRead: number;
  /** `1.7`, `2.0`, … as the header says. */
  version: string | null;
  /** The information dictionary's `/Title`, else XMP's `dc:title`; trimmed, null when empty. */
  title: string | null;
  /** The viewer preferences' `DisplayDocTitle`; null when unset. */
  displayDocTitle: boolean | null;
  /** The catalog's `/Lang`; null when unset or empty. */
  lang: string | null;
  /** `MarkInfo /Marked true`. */
  marked: boolean;
  /** A structure tree reached from some page read. */
  tagged: boolean;
  /** Top-level and nested bookmarks (the outline), counted. */
  bookmarks: number;
  /** Heading elements (`H`, `H1`-`H6`) in the structure of the pages read. */
  headings: number;
  /** The file restricts what programs may do (it has permissions) and withholds text access for accessibility. */
  accessibilityBlocked: boolean;
  figures: FigureFacts[];
  tables: TableFacts[];
  links: LinkFacts[];
  fields: FieldFacts[];
  text: PageTextFacts[];
  /** Pages with no text that draw an image: scanned paper, or text turned into a picture. */
  imageOnlyPages: number[];
  /**
   * The text of a page read holds one of the values the reader was asked to look for (what a site's
   * login types, its set-up's secrets): the document then gets no pictures.
   */
  showsSecret: boolean;
  /** Pages with two or more visible links or fields in a tagged document, with their tab order; read when the page dictionaries could be. */
  tabOrder: PageTabFacts[];
}

/** What a finding's picture shows: a page, and on it the rectangle outlined (none: the whole page). */
export interface PictureTarget {
  /** Names the picture for the caller (its finding's rule and element). */
  key: string;
  page: number;
  rect?: PdfRect;
  /** Without a rect: the marked-content ids whose drawing is outlined (see pdf-regions.ts). */
  marked?: number[];
}

/** A rendered picture of a target, PNG. */
export interface PagePicture {
  key: string;
  png: Uint8Array;
  width: number;
  height: number;
}

/** Why a file could not be read as a PDF. */
export type PdfReadFailure =
  | { kind: 'encrypted'; message: string }
  | { kind: 'unreadable'; message: string };

/** `pictures`: those the caller asked for once it had the facts (see read-in-worker.ts). */
export type PdfReadResult = { kind: 'read'; facts: PdfFacts; pictures?: PagePicture[] } | PdfReadFailure;

/** The `%PDF-` header within the first kilobyte (as readers accept it), or not. */
export function looksLikePdf(bytes: Uint8Array): boolean {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 1024)).toString('latin1');
  return head.includes('%PDF-');
}
