import { ruleEntries } from './entry.ts';
import type { FixGuide } from './guide.ts';

/**
 * Who is affected by each rule of the document audit (PDF files a site links to), and how to fix
 * it. The sources are WCAG's PDF techniques (PDF1-PDF23) and PDF/UA-1's machine-checkable
 * requirements; docs/checks.md names them per rule.
 */
export const DOCUMENT_GUIDES: Readonly<Record<string, FixGuide>> = {
  'pdf-untagged': {
    who: 'Without tags a PDF is a picture of a page to assistive technology: screen readers guess the reading order and cannot tell headings, lists, tables or figures from body text; reflow for magnifier users does not work.',
    fix: 'Export with tags from the authoring program (Word: "Document structure tags for accessibility"; LibreOffice: "Universal Accessibility (PDF/UA)"; InDesign: "Create Tagged PDF"), or add tags in Acrobat (Accessibility > Autotag Document) and check the order and tags by hand. The file then has a structure tree and MarkInfo /Marked true.',
  },
  'pdf-title-missing': {
    who: 'Screen readers announce a document by its title and windows, tabs and assistive technology lists show it: a file with no title shows as a file name such as "2024_final_v3.pdf", which does not tell people what they opened.',
    fix: 'Set the document\'s title in the authoring program (File > Properties > Title) before exporting, and make the viewer show it: in Acrobat, File > Properties > Initial View > Show: Document Title (DisplayDocTitle true).',
  },
  'pdf-title-not-displayed': {
    who: 'The viewer shows and announces the file name instead of the title the document has: a name meant for a file system rarely tells people what the document is.',
    fix: 'Set DisplayDocTitle to true in the viewer preferences (Acrobat: File > Properties > Initial View > Window Options > Show: Document Title; most PDF/UA exports set it).',
  },
  'pdf-lang-missing': {
    who: 'Without a document language, screen readers read the text with the user\'s default voice: a French document read with English pronunciation rules is hard or impossible to understand, and braille translation picks the wrong contraction tables.',
    fix: 'Set the document language in the authoring program (Word: Review > Language; Acrobat: File > Properties > Advanced > Reading Options > Language) so the catalog has /Lang, for example "en-GB".',
  },
  'pdf-no-text-layer': {
    who: 'A page that is only a picture (a scan of paper, or text saved as an image) has nothing a screen reader can read, cannot be searched, enlarged without blurring, or read aloud, and cannot be copied into a translation tool.',
    fix: 'Publish the document from its source file rather than a scan. If only paper exists, run optical character recognition (Acrobat: Scan & OCR > Recognize Text), correct the recognised text, then tag the document and check it.',
  },
  'pdf-figure-alt-missing': {
    who: 'Screen reader users hear nothing, or only "figure", for a picture, chart or diagram without alternative text, and miss what it shows.',
    fix: 'Give each Figure tag alternative text that says what the picture conveys (Acrobat: Accessibility > Set Alternate Text; Word: right click > Edit Alt Text before exporting). A purely decorative picture is marked as an artifact instead, not left as a Figure without text.',
  },
  'pdf-figure-alt-meaningless': {
    who: 'Screen reader users hear a file name ("image1.png") or a word such as "picture" instead of what the figure shows, and miss its content as surely as with no text at all.',
    fix: 'Replace the alternative text with what the figure conveys (Acrobat: Accessibility > Set Alternate Text; Word: Edit Alt Text, and untick "Mark as decorative" only for real content). Converters that fill in the image\'s file name need their alternative text set at the source.',
  },
  'pdf-tab-order': {
    who: 'Keyboard and screen reader users move through a page\'s links and fields with Tab: when that order is not the reading order they fill a form in the wrong sequence or miss a field, and the focus jumps around the page.',
    fix: 'Set the page\'s tab order to follow the document structure (Acrobat: Page Thumbnails > Page Properties > Tab Order: Use Document Structure; PDF/UA exports do this), so each page has /Tabs /S, and check that the tags are in reading order.',
  },
  'pdf-table-headers-missing': {
    who: 'Screen readers read a table\'s cells one after another; without header cells they cannot say which row and column a value belongs to, so a table of figures becomes a list of numbers.',
    fix: 'Tag the header row (and header column) cells as TH with a scope (Word: mark the first row as a header row, "Repeat as header row"; Acrobat: Table Editor > Table Cell Properties > Header cell), then export again.',
  },
  'pdf-link-description-missing': {
    who: 'A screen reader announces a link with no text or description as "link" or as its address, so people cannot tell where it goes before they follow it.',
    fix: 'Make the link\'s text say where it goes, and tag it: a Link tag holding the text and the link annotation, with the annotation\'s /Contents describing it (Word and LibreOffice do both when the document is exported with tags).',
  },
  'pdf-field-description-missing': {
    who: 'A form field without a name is announced as "edit text" or "check box" alone: screen reader users cannot tell what to type or tick.',
    fix: 'Give every field a tooltip (Acrobat: Prepare Form > field Properties > General > Tooltip), which becomes its /TU, the name assistive technology announces; say what the field asks, as its visible label does.',
  },
  'pdf-text-unmappable': {
    who: 'The text is drawn with fonts that have no Unicode mapping: screen readers read out nonsense or nothing, and search, copy and reflow fail.',
    fix: 'Embed fonts with a Unicode mapping (ToUnicode) when exporting: use the authoring program\'s own PDF export with standard fonts, avoid "print to PDF" of symbol or legacy fonts, and check that text copied from the PDF pastes as readable text.',
  },
  'pdf-access-blocked': {
    who: 'The file\'s security settings forbid extracting its text, and readers that honour them give screen readers and other assistive technology nothing to read.',
    fix: 'Remove the restrictions, or at least allow "Enable text access for screen reader devices" (Acrobat: File > Properties > Security; the permission bit for accessibility or for copying).',
  },
  'pdf-headings-missing': {
    who: 'In a long document without headings, screen reader users cannot jump from section to section or get an outline: they have to listen from the start to find anything.',
    fix: 'Use the authoring program\'s heading styles (Heading 1, Heading 2, …) for section titles, so the export tags them H1, H2, …; in Acrobat, retag visual headings as headings.',
  },
  'pdf-bookmarks-missing': {
    who: 'In a long document without bookmarks, people who navigate by keyboard, screen magnifier users and people with cognitive disabilities have no table of contents to move through it.',
    fix: 'Export with bookmarks made from the headings (Word: Save as PDF > Options > Create bookmarks using: Headings).',
  },
};

/**
 * The document audit's rules. Each is decided from the file itself; where the file cannot show
 * the failure (a long document with no headings may have no sections), the rule is `needs_review`.
 */
export const DOCUMENT_CATALOGUE = ruleEntries('document', [
  // PDF9 and PDF/UA-1: structure is conveyed only by tags. Untagged, nothing of it reaches assistive technology.
  { id: 'pdf-untagged', criteria: ['1.3.1'], severities: ['serious'] },
  // PDF18: the title in the document information dictionary, shown by DisplayDocTitle.
  { id: 'pdf-title-missing', criteria: ['2.4.2'], severities: ['serious'] },
  { id: 'pdf-title-not-displayed', criteria: ['2.4.2'], severities: ['moderate'] },
  // PDF16: the document language in the catalog's /Lang.
  { id: 'pdf-lang-missing', criteria: ['3.1.1'], severities: ['serious'] },
  // PDF7 (OCR) and F65's reasoning for images without text: a page that is only a picture.
  { id: 'pdf-no-text-layer', criteria: ['1.1.1'], alsoFails: ['1.3.1'], severities: ['critical'] },
  // PDF1: alternative text on Figure tags.
  { id: 'pdf-figure-alt-missing', criteria: ['1.1.1'], severities: ['serious'] },
  // F30: a text alternative that is a file name or a placeholder word is not an alternative.
  { id: 'pdf-figure-alt-meaningless', criteria: ['1.1.1'], severities: ['serious'] },
  // PDF3 and PDF/UA-1 (a page with annotations has /Tabs /S): Tab follows the structure order.
  { id: 'pdf-tab-order', criteria: ['2.4.3'], severities: ['serious'] },
  // PDF6: table header cells.
  { id: 'pdf-table-headers-missing', criteria: ['1.3.1'], severities: ['serious'] },
  // PDF11 / PDF13: link text and the annotation's /Contents.
  { id: 'pdf-link-description-missing', criteria: ['2.4.4'], alsoFails: ['4.1.2'], severities: ['serious'] },
  // PDF12: a field's name in its /TU.
  { id: 'pdf-field-description-missing', criteria: ['4.1.2'], severities: ['serious'] },
  // PDF/UA-1: text whose characters cannot be mapped to Unicode.
  { id: 'pdf-text-unmappable', criteria: ['1.3.1'], severities: ['serious'] },
  // PDF/UA-1: the permission that lets assistive technology read the text.
  { id: 'pdf-access-blocked', criteria: ['4.1.2'], severities: ['serious'] },
  // PDF9: headings in a tagged document; whether the document has sections needs a person.
  { id: 'pdf-headings-missing', criteria: ['1.3.1'], severities: ['moderate'] },
  // PDF2: bookmarks, one of the multiple ways into a long document.
  { id: 'pdf-bookmarks-missing', criteria: ['2.4.5'], severities: ['moderate'] },
]);
