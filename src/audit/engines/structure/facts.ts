/**
 * What the structure engine measures in the page, as plain JSON: the in-page collector fills
 * these and the pure deciders of this folder judge them in Node.
 */

/** An element, as axe identifies it (selector and shortened HTML). */
export interface ElementRef {
  selector: string;
  html: string;
}

/** A computed text style: font size in CSS px and numeric weight (400 normal, 700 bold). */
export interface TextStyle {
  size: number;
  weight: number;
}

export interface TableFact {
  ref: ElementRef;
  /** The first token of the table's role attribute, lower case, or null. */
  role: string | null;
  /** Rendered rows of this table (not of nested tables), and the most cells in one of them. */
  rows: number;
  cols: number;
  /** Rendered cells of this table. */
  th: number;
  td: number;
  caption: boolean;
  summary: boolean;
  /** Some cell has `scope`, `headers`, or role columnheader/rowheader. */
  scope: boolean;
  headersAttr: boolean;
  headerRoles: boolean;
  /** Rows inside `<thead>`, and how many of their cells are `<td>` with text. */
  theadRows: number;
  theadTextTd: number;
  theadTh: number;
  /** Rows outside `<thead>` holding at least one cell with text. */
  bodyRowsWithText: number;
  /** The first row's cells are all bold (or on a distinct background) where the other rows' are not. */
  firstRowStyled: boolean;
  /** The first column's body cells are all bold where the other columns' are not. */
  firstColStyled: boolean;
  /** Every cell of the first row has short, non-numeric text. */
  firstRowLabels: boolean;
  /** Share of the non-empty cells below the first row whose text is a number, amount or date. */
  numericShare: number;
  /** Cells with more than 150 characters of text. */
  longCells: number;
  /** What makes the table look like page layout: headings, landmarks, forms or layout tables in its cells. */
  layout: string[];
  /** One row of two or more cells, at least two of them holding block content (lists, paragraphs). */
  singleRowBlocks: boolean;
  /** The table sits in a cell of another table: which kind of cell, and whether that table has header cells. */
  nestedIn: 'th' | 'td' | null;
  outerHasTh: boolean;
  /** Header cells (`<th>` without an overriding role) with no accessible name. */
  emptyTh: ElementRef[];
  /** Leading rows made only of header cells. */
  headerRows: number;
  /** The most header cells opening one row below them, before its first data cell (levels of row headers). */
  rowHeaderLevels: number;
  /** A header cell spans more than one row or column. */
  spanningTh: boolean;
  /** Rows whose width in the table's grid (colspan and rowspan taken) differs from the most common one. */
  raggedRows: number;
  /** Rows below the header rows wider than them: their last cells are under no column header. */
  wideRows: number;
  /** The most common row width, in grid slots. */
  usualWidth: number;
}

export interface HeadingCandidate {
  ref: ElementRef;
  text: string;
  tag: string;
  style: TextStyle;
  /** Rendered lines (box height over line height), rounded. */
  lines: number;
  /** The element right after it, with its text style and length. */
  next: { tag: string; style: TextStyle; textLength: number; isHeading: boolean } | null;
}

export interface ListCandidate {
  ref: ElementRef;
  /** `br`: lines of one block separated by `<br>`; `siblings`: consecutive sibling blocks. */
  kind: 'br' | 'siblings';
  /** The start of each line (first ~16 characters, trimmed), in order. */
  lines: string[];
}

export interface ImageFact {
  ref: ElementRef;
  tag: string;
  /** The alt attribute (null when absent), title, src and role as written. */
  alt: string | null;
  title: string | null;
  src: string;
  role: string | null;
  ariaHidden: boolean;
  /** Text of the `<text>` elements of an SVG image given as a data: URL. */
  svgText: string | null;
  /** The accessible name as computed (null when it was not needed). */
  name: string | null;
  /** The image sits in a link or button: the link's href ('' for a button or a link without one), else null. */
  inControl: string | null;
  width: number;
  height: number;
  /** Nothing but the image (and other images) in its control, heading or nearest block: no text beside it. */
  alone: boolean;
  /** The image sits in a heading (h1–h6 or role=heading). */
  inHeading: boolean;
  /** Its file name, class or id, or a close ancestor's, says logo or brand, or it is the home link of a banner. */
  logo: boolean;
  /** A word of its file name, class or id naming a kind of image that informs (chart, diagram, map, logo…). */
  infoHint: string | null;
  /** The image is the only image of a `<figure>` whose `<figcaption>` has this text; null otherwise. */
  figureCaption: string | null;
}

/** Text put in the page by CSS `::before`/`::after` `content` (WCAG F87). */
export interface GeneratedContentFact {
  ref: ElementRef;
  pseudo: 'before' | 'after';
  /** The text inserted (string literals of `content`, as computed for this element). */
  text: string;
  /** The style rule's selector, and how many rendered elements it puts that text on. */
  rule: string;
  count: number;
  /** The pseudo-element's font family (icon fonts put glyphs in letters). */
  font: string;
}

/** Content hidden in a way that contradicts it being meant for everyone, or for screen readers. */
export interface HiddenContentFact {
  ref: ElementRef;
  /**
   * `aria-hidden`: visible text taken out of the accessibility tree;
   * `presentation`: role none/presentation on an element whose semantics carry meaning (F92);
   * `sr-hidden`: text marked as meant for screen readers (sr-only, visually-hidden, skip link) hidden
   * from everyone by display:none or visibility:hidden.
   */
  kind: 'aria-hidden' | 'presentation' | 'sr-hidden';
  /** The element's tag, and for `presentation` its role; for `sr-hidden` the class or id that names it and how it is hidden. */
  tag: string;
  detail: string;
  text: string;
}

/** Empty paragraphs, runs of line breaks and blank blocks used for vertical space, per region. */
export interface SpacerRegion {
  /** The first spacer of the region (where to look), and the region as a landmark or tag. */
  ref: ElementRef;
  region: string;
  emptyBlocks: number;
  brRuns: number;
}

/** An element whose only visible content is a CSS background image, or a status icon drawn beside text that does not say the status (WCAG F3). */
export interface BackgroundImageFact {
  ref: ElementRef;
  tag: string;
  url: string;
  width: number;
  height: number;
  /** For an icon beside text: the status word of its class or id (warning, error…) that the text does not say, and the text. */
  status: string | null;
  text: string;
}

export interface SensoryBlock {
  ref: ElementRef;
  text: string;
}

/** What the page holds that can identify a referenced thing without sight. */
export interface PageContext {
  /** Accessible names of buttons (at most 50). */
  buttonNames: string[];
  /** Rendered navigation landmarks. */
  navCount: number;
  /** Texts of headings (at most 100). */
  headingTexts: string[];
  /** Median font size of paragraph text, px (0 when the page has none). */
  bodyFontSize: number;
}

/** What `collectStructureFacts` reads: tables, heading- and list-like text, images, sensory text. */
export interface LayoutFacts {
  headings: HeadingCandidate[];
  lists: ListCandidate[];
  images: ImageFact[];
  sensory: SensoryBlock[];
  context: PageContext;
  /** Elements examined per check, to show where caps were hit. */
  examined: Record<string, number>;
}

/** What `collectContentFacts` reads: content put in by CSS, hidden from or shown only to AT. */
export interface ContentFacts {
  tables: TableFact[];
  generated: GeneratedContentFact[];
  hiddenContent: HiddenContentFact[];
  spacers: SpacerRegion[];
  backgrounds: BackgroundImageFact[];
  examined: Record<string, number>;
}

export type StructureFacts = LayoutFacts & ContentFacts;
