/**
 * The document audit's judgement: a PDF's facts (pdf-facts.ts) in, findings and passed rules out.
 * Pure. A finding's "element" is where it is in the file: the document itself (`pdf:document`), or
 * a page and structure path (`page 3: Sect[1]/Figure[2]`), or a page's n-th link or field, so an
 * issue keeps its identity when the same file is exported again.
 */
import type { FindingDraft, PassedRule } from '../../shared/findings.ts';
import { ownFinding, understandingUrl, type EngineResult, type OwnFindingInput } from '../engines/engine.ts';
import { fileNameAlt, strictPlaceholderAlt } from '../engines/structure/images.ts';
import type { PageTabFacts, PdfFacts, PdfRect } from './pdf-facts.ts';

export const DOCUMENT_ENGINE = 'document';

/** A tagged document this long (pages) with this much text and no heading is worth a person's look. */
const HEADINGS_FROM_PAGES = 3;
const HEADINGS_FROM_CHARS = 3_000;
/** A document this long without bookmarks: PDF2's reason for them. */
const BOOKMARKS_FROM_PAGES = 10;
/** A page whose text is at least this share unspeakable characters (and at least MIN_CHARS of them). */
const UNMAPPABLE_SHARE = 0.3;
const UNMAPPABLE_MIN_CHARS = 20;

const technique = (id: string) => `https://www.w3.org/WAI/WCAG22/Techniques/pdf/${id}`;
const DOCUMENT = 'pdf:document';
const listPages = (pages: readonly number[]) => (pages.length > 12 ? `${pages.slice(0, 12).join(', ')} and ${pages.length - 12} more` : pages.join(', '));
const quote = (s: string) => JSON.stringify(s.length > 120 ? `${s.slice(0, 120)}…` : s);

type Input = Omit<OwnFindingInput, 'type' | 'severity' | 'criterion'> & Partial<Pick<OwnFindingInput, 'type' | 'severity' | 'criterion'>>;

/** The findings and passes of one PDF. */
export function judgePdf(facts: PdfFacts): Required<Pick<EngineResult, 'findings' | 'passes'>> {
  const findings: FindingDraft[] = [];
  const passes: PassedRule[] = [];
  const checked = new Map<string, { help: string; criterion: string; elements: number }>();
  const check = (ruleId: string, help: string, criterion: string, elements: number) => checked.set(ruleId, { help, criterion, elements });
  const fail = (rule: { ruleId: string; severity: OwnFindingInput['severity']; criterion: string; type?: OwnFindingInput['type'] }, f: Input) =>
    findings.push(ownFinding({ type: 'confirmed', ...rule, ...f, data: { engine: DOCUMENT_ENGINE, ...f.data } } as OwnFindingInput));
  const scope = facts.pagesRead < facts.pageCount ? ` (the first ${facts.pagesRead} of ${facts.pageCount} pages were read)` : '';

  // Tags: the structure tree is how a PDF tells assistive technology what each part is.
  check('pdf-untagged', 'The document is tagged', '1.3.1', 1);
  if (!facts.tagged) {
    fail({ ruleId: 'pdf-untagged', severity: 'serious', criterion: '1.3.1' }, {
      ruleId: 'pdf-untagged',
      selector: DOCUMENT,
      html: `PDF ${facts.version ?? ''}, ${facts.pageCount} page${facts.pageCount === 1 ? '' : 's'}, no structure tree`.replace('  ', ' '),
      help: 'PDF documents must be tagged',
      description: 'The document has no tags (no structure tree), so its headings, lists, tables, figures and reading order reach no assistive technology',
      failureSummary: `No page read has structure tags${scope}${facts.marked ? '; the file says it is tagged (MarkInfo /Marked) all the same' : ''}.${facts.links.length ? ` None of its ${facts.links.length} link${facts.links.length === 1 ? '' : 's'} is tied to its text.` : ''}`,
      helpUrl: technique('PDF9'),
    });
  } else if (!facts.marked) {
    fail({ ruleId: 'pdf-untagged', severity: 'serious', criterion: '1.3.1', type: 'needs_review' }, {
      ruleId: 'pdf-untagged',
      selector: DOCUMENT,
      html: 'MarkInfo /Marked is not true',
      help: 'PDF documents must be tagged',
      description: 'The document has tags but does not declare itself tagged, and some readers then ignore the tags',
      failureSummary: 'The catalog has no MarkInfo dictionary with /Marked true. Check the document in a screen reader, and set it (PDF/UA requires it).',
      helpUrl: technique('PDF9'),
    });
  }

  // Title (PDF18).
  check('pdf-title-missing', 'The document has a title', '2.4.2', 1);
  if (!facts.title) {
    fail({ ruleId: 'pdf-title-missing', severity: 'serious', criterion: '2.4.2' }, {
      ruleId: 'pdf-title-missing',
      selector: DOCUMENT,
      html: 'Title: (none)',
      help: 'PDF documents must have a title',
      description: 'The document has no title in its information dictionary or metadata',
      failureSummary: 'Neither the document information dictionary\'s /Title nor the XMP metadata\'s dc:title is set: readers show the file name instead.',
      helpUrl: technique('PDF18'),
    });
  } else {
    check('pdf-title-not-displayed', 'The viewer shows the document\'s title', '2.4.2', 1);
    if (facts.displayDocTitle !== true) {
      fail({ ruleId: 'pdf-title-not-displayed', severity: 'moderate', criterion: '2.4.2', type: 'needs_review' }, {
        ruleId: 'pdf-title-not-displayed',
        selector: DOCUMENT,
        html: `Title: ${quote(facts.title)}; DisplayDocTitle: ${facts.displayDocTitle === false ? 'false' : 'not set'}`,
        help: 'PDF viewers should show the document\'s title',
        description: 'The document has a title, but viewers are not asked to show it, so they show and announce the file name',
        failureSummary: `The title ${quote(facts.title)} is set, but the viewer preferences do not set DisplayDocTitle to true. Check that the file name alone would tell people what the document is, or set DisplayDocTitle.`,
        helpUrl: technique('PDF18'),
      });
    }
  }

  // Language (PDF16).
  check('pdf-lang-missing', 'The document has a language', '3.1.1', 1);
  if (!facts.lang) {
    fail({ ruleId: 'pdf-lang-missing', severity: 'serious', criterion: '3.1.1' }, {
      ruleId: 'pdf-lang-missing',
      selector: DOCUMENT,
      html: 'Lang: (none)',
      help: 'PDF documents must have a language',
      description: 'The document does not say which language it is in',
      failureSummary: 'The document catalog has no /Lang entry: screen readers read it in the user\'s default language.',
      helpUrl: technique('PDF16'),
    });
  }

  // Pages that are only pictures (scans): no text, an image drawn, and no alternative text for it.
  const describedPages = new Set(facts.figures.filter((f) => f.alt).map((f) => f.page));
  const scanned = facts.imageOnlyPages.filter((p) => !describedPages.has(p));
  check('pdf-no-text-layer', 'Every page has text', '1.1.1', facts.pagesRead);
  if (scanned.length > 0) {
    const all = scanned.length === facts.pagesRead;
    fail({ ruleId: 'pdf-no-text-layer', severity: 'critical', criterion: '1.1.1' }, {
      ruleId: 'pdf-no-text-layer',
      selector: DOCUMENT,
      html: `pages without text: ${listPages(scanned)}`,
      help: 'PDF pages must have real text, not only a picture of it',
      description: all ? 'The document is a picture of pages (a scan): it has no text at all' : 'Some pages are only a picture (a scan) with no text',
      failureSummary: `Page${scanned.length === 1 ? '' : 's'} ${listPages(scanned)} of ${facts.pageCount} draw${scanned.length === 1 ? 's' : ''} an image and ha${scanned.length === 1 ? 's' : 've'} no text layer and no alternative text: nothing on ${scanned.length === 1 ? 'it' : 'them'} can be read out, searched or reflowed.`,
      helpUrl: technique('PDF7'),
      data: { pages: scanned.slice(0, 100), picture: { page: scanned[0] } },
    });
  }

  // Text that cannot be mapped to Unicode.
  const garbled = facts.text.filter((t) => t.chars >= UNMAPPABLE_MIN_CHARS && t.unmappable / t.chars >= UNMAPPABLE_SHARE);
  check('pdf-text-unmappable', 'The text maps to Unicode', '1.3.1', facts.text.filter((t) => t.chars > 0).length);
  if (garbled.length > 0) {
    const worst = garbled.reduce((a, b) => (b.unmappable / b.chars > a.unmappable / a.chars ? b : a));
    fail({ ruleId: 'pdf-text-unmappable', severity: 'serious', criterion: '1.3.1' }, {
      ruleId: 'pdf-text-unmappable',
      selector: DOCUMENT,
      html: `pages with unreadable text: ${listPages(garbled.map((g) => g.page))}`,
      help: 'PDF text must map to Unicode characters',
      description: 'Text is drawn with fonts that have no Unicode mapping, so it cannot be read out',
      failureSummary: `On page ${worst.page}, ${worst.unmappable} of ${worst.chars} characters come out as private-use, replacement or control characters when the text is extracted.`,
      helpUrl: understandingUrl('info-and-relationships'),
      data: { pages: garbled.map((g) => g.page).slice(0, 100), picture: { page: worst.page } },
    });
  }

  // Permissions that keep assistive technology from the text.
  check('pdf-access-blocked', 'Assistive technology may read the text', '4.1.2', 1);
  if (facts.accessibilityBlocked) {
    fail({ ruleId: 'pdf-access-blocked', severity: 'serious', criterion: '4.1.2' }, {
      ruleId: 'pdf-access-blocked',
      selector: DOCUMENT,
      html: 'permissions: no text access for accessibility, no copying',
      help: 'PDF security settings must let assistive technology read the text',
      description: 'The file\'s permissions forbid extracting its text, for accessibility too',
      failureSummary: 'The encryption dictionary\'s permissions clear both "copy" and "extract for accessibility": readers that honour them give screen readers nothing.',
      helpUrl: understandingUrl('name-role-value'),
    });
  }

  if (facts.tagged) {
    // Figures without alternative text (PDF1).
    check('pdf-figure-alt-missing', 'Figures have alternative text', '1.1.1', facts.figures.length);
    for (const f of facts.figures.filter((x) => !x.alt)) {
      fail({ ruleId: 'pdf-figure-alt-missing', severity: 'serious', criterion: '1.1.1' }, {
        ruleId: 'pdf-figure-alt-missing',
        selector: `page ${f.page}: ${f.path}`,
        html: '<Figure> without /Alt or /ActualText',
        help: 'PDF figures must have alternative text',
        description: 'A Figure tag has no alternative text',
        failureSummary: `The figure at ${f.path} on page ${f.page} has neither /Alt nor /ActualText.`,
        helpUrl: technique('PDF1'),
        data: { picture: { page: f.page, marked: f.marked } },
      });
    }
    // Alternative text that is a file name or a placeholder word (F30).
    const described = facts.figures.filter((x) => x.alt);
    check('pdf-figure-alt-meaningless', 'Figures\' alternative text describes them', '1.1.1', described.length);
    for (const f of described) {
      const fn = fileNameAlt(f.alt, '');
      if (!fn) continue;
      const word = fn.kind === 'placeholder';
      fail({ ruleId: 'pdf-figure-alt-meaningless', severity: 'serious', criterion: '1.1.1', type: !word || strictPlaceholderAlt(fn.alt) ? 'confirmed' : 'needs_review' }, {
        ruleId: 'pdf-figure-alt-meaningless',
        selector: `page ${f.page}: ${f.path}`,
        html: `<Figure /Alt ${quote(fn.alt)}>`,
        help: word ? 'Do not use a placeholder word as a figure\'s alternative text' : 'Do not use a file name as a figure\'s alternative text',
        description: 'A figure\'s alternative text must say what the figure conveys; a file name or a word such as "image" does not',
        failureSummary: word
          ? `The figure at ${f.path} on page ${f.page} has the alternative text ${quote(fn.alt)}, which only says that there is a picture. Describe what it conveys, or tag it as an artifact if it is decorative.`
          : `The figure at ${f.path} on page ${f.page} has the alternative text ${quote(fn.alt)}, a file name${fn.kind === 'camera-name' ? ' given by a camera or screenshot tool' : ''}, not a description of the figure.`,
        helpUrl: 'https://www.w3.org/WAI/WCAG22/Techniques/failures/F30',
        data: { picture: { page: f.page, marked: f.marked } },
      });
    }
    // Data tables without header cells (PDF6).
    const grids = facts.tables.filter((t) => t.rows >= 2 && t.columns >= 2);
    check('pdf-table-headers-missing', 'Tables have header cells', '1.3.1', grids.length);
    for (const t of grids.filter((x) => x.headerCells === 0)) {
      fail({ ruleId: 'pdf-table-headers-missing', severity: 'serious', criterion: '1.3.1' }, {
        ruleId: 'pdf-table-headers-missing',
        selector: `page ${t.page}: ${t.path}`,
        html: `<Table> ${t.rows} rows × ${t.columns} columns, no TH`,
        help: 'PDF tables must have header cells',
        description: 'A table has no header cells',
        failureSummary: `The table at ${t.path} on page ${t.page} (${t.rows} rows, ${t.columns} columns) has no TH cell and no cell that names its headers.`,
        helpUrl: technique('PDF6'),
        data: { picture: { page: t.page, marked: t.marked } },
      });
    }
    // Headings in a long document (PDF9): whether it has sections is for a person to say.
    const chars = facts.text.reduce((n, t) => n + t.chars, 0);
    if (facts.pageCount >= HEADINGS_FROM_PAGES && chars >= HEADINGS_FROM_CHARS) {
      check('pdf-headings-missing', 'A long document has headings', '1.3.1', facts.headings);
      if (facts.headings === 0) {
        fail({ ruleId: 'pdf-headings-missing', severity: 'moderate', criterion: '1.3.1', type: 'needs_review' }, {
          ruleId: 'pdf-headings-missing',
          selector: DOCUMENT,
          html: `${facts.pageCount} pages, no H or H1-H6 tag`,
          help: 'Long PDF documents should mark their section titles as headings',
          description: 'A long tagged document has no heading tags',
          failureSummary: `None of the ${facts.pagesRead} pages read has a heading tag. If the document has section titles, tag them as headings.`,
          helpUrl: technique('PDF9'),
        });
      }
    }
  }

  // Bookmarks in a long document (PDF2).
  if (facts.pageCount >= BOOKMARKS_FROM_PAGES) {
    check('pdf-bookmarks-missing', 'A long document has bookmarks', '2.4.5', facts.bookmarks);
    if (facts.bookmarks === 0) {
      fail({ ruleId: 'pdf-bookmarks-missing', severity: 'moderate', criterion: '2.4.5', type: 'needs_review' }, {
        ruleId: 'pdf-bookmarks-missing',
        selector: DOCUMENT,
        html: `${facts.pageCount} pages, no outline`,
        help: 'Long PDF documents should have bookmarks',
        description: 'A long document has no bookmarks',
        failureSummary: `The document has ${facts.pageCount} pages and no bookmarks (outline). Check whether another way (a linked table of contents) leads into it.`,
        helpUrl: technique('PDF2'),
      });
    }
  }

  // Links (PDF11, PDF13): a name from the Link tag's text, or the annotation's /Contents. In an
  // untagged document no link's text is tied to it: that is the untagged finding, not one per link.
  const nth = new Map<number, number>();
  if (facts.tagged) check('pdf-link-description-missing', 'Links have a description', '2.4.4', facts.links.length);
  for (const l of facts.tagged ? facts.links : []) {
    const n = (nth.get(l.page) ?? 0) + 1;
    nth.set(l.page, n);
    if (l.contents || (l.tagged && l.text)) continue;
    fail({ ruleId: 'pdf-link-description-missing', severity: 'serious', criterion: '2.4.4' }, {
      ruleId: 'pdf-link-description-missing',
      selector: `page ${l.page}: link ${n}`,
      html: `<Link>${l.url ? ` to ${l.url.slice(0, 200)}` : ''}`,
      help: 'PDF links must have a description',
      description: l.tagged ? 'A link\'s tag holds no text and its annotation has no /Contents' : 'A link is not in a Link tag and its annotation has no /Contents',
      failureSummary: l.tagged
        ? `Link ${n} on page ${l.page} has no text in its Link tag and no /Contents: it is announced as "link" alone.`
        : `Link ${n} on page ${l.page} is not tagged and has no /Contents: assistive technology has nothing to announce for it.`,
      helpUrl: technique('PDF11'),
      data: { picture: { page: l.page, ...(l.rect ? { rect: l.rect } : {}) } },
    });
  }

  // Form fields (PDF12): the tooltip (/TU) is the field's name.
  const fields = facts.fields.filter((f) => !f.hidden && f.fieldType !== 'Sig');
  const nthField = new Map<number, number>();
  check('pdf-field-description-missing', 'Form fields have a name', '4.1.2', fields.length);
  for (const f of fields) {
    const n = (nthField.get(f.page) ?? 0) + 1;
    nthField.set(f.page, n);
    if (f.description) continue;
    fail({ ruleId: 'pdf-field-description-missing', severity: 'serious', criterion: '4.1.2' }, {
      ruleId: 'pdf-field-description-missing',
      selector: `page ${f.page}: field ${n}`,
      html: `<Widget ${f.fieldType}${f.name ? ` T=${quote(f.name)}` : ''}>`,
      help: 'PDF form fields must have a name',
      description: 'A form field has no tooltip (/TU), the name assistive technology announces',
      failureSummary: `Field ${n} on page ${f.page}${f.name ? ` (${quote(f.name)})` : ''} has no /TU: it is announced by its type alone.`,
      helpUrl: technique('PDF12'),
      data: { picture: { page: f.page, ...(f.rect ? { rect: f.rect } : {}) } },
    });
  }

  // Tab order (PDF3): Tab must visit a page's links and fields in the order the tags read them.
  check('pdf-tab-order', 'Tab follows the reading order', '2.4.3', facts.tabOrder.length);
  for (const t of facts.tabOrder) {
    const order = tabSequence(t, facts);
    if (!order) continue;
    const stated = t.tabs !== null;
    fail({ ruleId: 'pdf-tab-order', severity: 'serious', criterion: '2.4.3', type: stated ? 'confirmed' : 'needs_review' }, {
      ruleId: 'pdf-tab-order',
      selector: `page ${t.page}: tab order`,
      html: `/Tabs ${stated ? `/${t.tabs}` : '(none)'}; ${t.annotationOrder.length} links and fields`,
      help: 'The tab order of a PDF page must follow its structure',
      description: 'Tab moves through the page\'s links and fields in another order than the tags read them',
      failureSummary: stated
        ? `Page ${t.page} sets /Tabs /${t.tabs} (${TAB_NAMES[t.tabs!] ?? 'an unknown order'}), so Tab reaches the ${order.at} of its links and fields before the ${order.before}, against the order of its tags. Set /Tabs /S.`
        : `Page ${t.page} has links and fields but no /Tabs entry: viewers then choose the order, and in the order they are listed Tab reaches the ${order.at} before the ${order.before}, against the order of its tags. Set /Tabs /S (PDF/UA requires it).`,
      helpUrl: technique('PDF3'),
      data: { picture: { page: t.page } },
    });
  }

  const failed = new Set(findings.map((f) => f.ruleId));
  for (const [ruleId, c] of checked) {
    if (!failed.has(ruleId) && c.elements > 0) passes.push({ ruleId, help: c.help, wcagCriterion: c.criterion, elements: c.elements });
  }
  return { findings, passes };
}

const TAB_NAMES: Record<string, string> = { R: 'row order', C: 'column order', A: 'annotation order', W: 'widget order' };
const ordinal = (n: number) => `${n}${n % 10 === 1 && n % 100 !== 11 ? 'st' : n % 10 === 2 && n % 100 !== 12 ? 'nd' : n % 10 === 3 && n % 100 !== 13 ? 'rd' : 'th'}`;

/**
 * Where the order Tab follows on a page departs from the tags' order: the first item in tab order
 * that the tags put later (as "the 3rd" before "the 2nd" in the tags' numbering), or null when
 * the two agree or cannot be compared. `/Tabs /S` follows the tags by definition; without `/Tabs`
 * the order the annotations are listed in is taken, as most viewers do.
 */
function tabSequence(t: PageTabFacts, facts: PdfFacts): { at: string; before: string } | null {
  if (t.tabs === 'S' || t.structureOrder.length < 2) return null;
  const rects = new Map<string, PdfRect>();
  for (const x of [...facts.links, ...facts.fields]) if (x.page === t.page && x.rect) rects.set(x.id, x.rect);
  const widgets = new Set(facts.fields.filter((f) => f.page === t.page).map((f) => f.id));
  let viewer: string[];
  if (t.tabs === 'R' || t.tabs === 'C') {
    if (!t.annotationOrder.every((id) => rects.has(id))) return null;
    viewer = t.tabs === 'R' ? rowOrder(t.annotationOrder, rects) : columnOrder(t.annotationOrder, rects);
  } else if (t.tabs === 'W') viewer = [...t.annotationOrder.filter((id) => widgets.has(id)), ...t.annotationOrder.filter((id) => !widgets.has(id))];
  else viewer = t.annotationOrder;
  const tagged = new Set(t.structureOrder);
  const seq = viewer.filter((id) => tagged.has(id));
  const rank = new Map(t.structureOrder.map((id, i) => [id, i + 1]));
  for (let i = 1; i < seq.length; i++) {
    const prev = rank.get(seq[i - 1]!)!;
    const here = rank.get(seq[i]!)!;
    if (here < prev) return { at: ordinal(prev), before: ordinal(here) };
  }
  return null;
}

/** Rows from the top (PDF's y grows upwards), left to right in a row: R order for left-to-right text. */
function rowOrder(ids: readonly string[], rects: ReadonlyMap<string, PdfRect>): string[] {
  const byTop = [...ids].sort((a, b) => rects.get(b)![3] - rects.get(a)![3]);
  const rows: string[][] = [];
  let floor = Infinity;
  for (const id of byTop) {
    const [, y1, , y2] = rects.get(id)!;
    // A new row starts below the middle of the row above.
    if (y2 <= floor || !rows.length) {
      rows.push([id]);
      floor = (y1 + y2) / 2;
    } else rows.at(-1)!.push(id);
  }
  return rows.flatMap((r) => r.sort((a, b) => rects.get(a)![0] - rects.get(b)![0]));
}

/** Columns from the left, top to bottom in a column: C order. */
function columnOrder(ids: readonly string[], rects: ReadonlyMap<string, PdfRect>): string[] {
  const byLeft = [...ids].sort((a, b) => rects.get(a)![0] - rects.get(b)![0]);
  const cols: string[][] = [];
  let edge = -Infinity;
  for (const id of byLeft) {
    const [x1, , x2] = rects.get(id)!;
    if (x1 >= edge || !cols.length) {
      cols.push([id]);
      edge = (x1 + x2) / 2;
    } else cols.at(-1)!.push(id);
  }
  return cols.flatMap((c) => c.sort((a, b) => rects.get(b)![3] - rects.get(a)![3]));
}
