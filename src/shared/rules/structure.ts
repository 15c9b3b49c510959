import { ruleEntries } from './entry.ts';
import type { FixGuide } from './guide.ts';

/** Who is affected by each rule of this engine, and how to fix it. */
export const STRUCTURE_GUIDES: Readonly<Record<string, FixGuide>> = {
  'table-no-headers': {
    who: 'Screen reader users hear a data table without header cells as a stream of values: nothing tells them which column or row a number belongs to.',
    fix: 'Mark the header row or column with <th> cells (scope="col" or scope="row" where both exist); keep <td> for data.',
  },
  'layout-table-semantics': {
    who: 'A table used for page layout that carries <th>, <caption>, summary or scope is announced as a data table: screen reader users hear rows, columns and headers that mean nothing.',
    fix: 'Lay the page out with CSS instead; if the table must stay, remove the data-table markup and add role="presentation".',
  },
  'layout-table': {
    who: 'Content laid out in a table is read cell by cell, row by row: when that order differs from the visual one, screen reader and keyboard users meet it out of sequence.',
    fix: 'Lay the page out with CSS; if the table must stay, check that it reads in a meaningful order row by row and add role="presentation".',
  },
  'table-nested': {
    who: 'A table inside a cell of another data table loses its relation to the outer headers: screen reader users cannot tell which outer row or column its values belong to.',
    fix: 'Flatten the data into one table (with more rows or columns), or move the inner table out next to the outer one with its own caption.',
  },
  'table-empty-header': {
    who: 'An empty header cell gives screen reader users a blank header for its row or column.',
    fix: 'Put text in the header cell (visually hidden text is fine), or make a truly empty corner cell a <td>.',
  },
  'table-complex-headers': {
    who: 'In a table with headers on several levels, screen readers may read a data cell with only one of its headers, or the wrong one, unless each cell is tied to all of them.',
    fix: 'Give each header cell an id and each data cell a headers attribute listing the ids of all its headers (H43); for headers that span a group, scope="colgroup" or "rowgroup" with <colgroup>/<tbody> groups may do.',
  },
  'table-ragged-rows': {
    who: 'Screen readers move through a table by its grid: when rows hold different numbers of cells, cells are announced under no header or under the wrong one, and "column 4 of 5" stops matching what is seen.',
    fix: 'Make every row fill the same columns: add the missing cells (empty <td> where there is no value), remove extra ones, and check colspan and rowspan.',
  },
  'visual-heading-not-marked': {
    who: 'Text that only looks like a heading is not in the page outline: screen reader users who jump from heading to heading skip it and miss the section.',
    fix: 'Mark it up as a heading of the right level (<h2>, <h3>…) and style the heading with CSS.',
  },
  'list-not-marked': {
    who: 'Lines typed with bullets or numbers are read as plain text: screen reader users are not told there is a list or how many items it has.',
    fix: 'Use <ul> (or <ol> for numbered items) with one <li> per item, and draw bullets with CSS.',
  },
  'image-alt-filename': {
    who: 'Screen reader users hear a file name such as "IMG_1234.jpg", or a word such as "image" or "spacer", instead of what the image shows.',
    fix: 'Replace the alt text with a short description of what the image conveys, or alt="" if it is decorative.',
  },
  'image-hidden-has-alt': {
    who: 'An image hidden from assistive technology (role="presentation", aria-hidden or alt="") that carries text: if the image conveys something, screen reader users miss it.',
    fix: 'If the image is informative, remove role="presentation"/aria-hidden and keep a good alt; if it is decorative, use alt="" and drop the leftover alt or title text.',
  },
  'image-of-text': {
    who: 'Text drawn into an image cannot be resized, recoloured or respaced by people with low vision or dyslexia, and blurs when zoomed.',
    fix: 'Use real text styled with CSS (or inline SVG text) instead of an image of text, unless it is a logo or the exact look is essential.',
  },
  'sensory-reference': {
    who: 'Instructions that name things only by where they are or how they look ("the button on the right", "the green icon") cannot be followed by people who cannot see the layout, or when it reflows on a phone.',
    fix: 'Name the thing by its visible label or heading as well ("the Search button on the right", "the Help menu").',
  },
  'image-empty-alt-informative': {
    who: 'An informative image (a logo, chart, diagram or map) marked as decorative is skipped by screen readers: its users miss what it conveys.',
    fix: 'Give the image an alt text that says what it conveys (the organisation for a logo, the finding for a chart); keep alt="" only for images that add nothing.',
  },
  'background-image-informative': {
    who: 'Information shown only by a CSS background image has no text alternative: screen reader users miss it, and it disappears in high contrast modes.',
    fix: 'Put informative images in the HTML as <img> with alt text (or give the element role="img" and an aria-label); keep CSS backgrounds for decoration.',
  },
  'css-generated-content': {
    who: 'Words inserted by CSS (::before/::after content) are lost when users turn off or replace the page styles, and some assistive technology does not read them.',
    fix: 'Put text that carries information in the HTML; keep CSS generated content for decoration (quotes, bullets, icons).',
  },
  'aria-hidden-content': {
    who: 'Visible text inside aria-hidden="true" is skipped by screen readers: their users miss content everyone else reads.',
    fix: 'Remove aria-hidden from content meant for everyone; use it only for decoration or for a visual copy of text that is also in the page for screen readers.',
  },
  'presentation-role-semantics': {
    who: 'A heading, list or data table given role="presentation" or role="none" loses its meaning: screen reader users cannot jump to the heading, hear the list\'s size or the table\'s headers.',
    fix: 'Remove role="presentation"/"none" from elements whose structure conveys meaning; style them with CSS instead.',
  },
  'sr-text-hidden': {
    who: 'Text meant for screen readers (skip links, extra link text, instructions) hidden with display:none or visibility:hidden is hidden from screen readers too: nobody gets it.',
    fix: 'Hide such text visually with a clip-based "visually hidden" class (position:absolute; clip; 1px size) instead of display:none, and let skip links show on focus.',
  },
  'spacer-markup': {
    who: 'Empty paragraphs and runs of line breaks are announced by screen readers as blank lines, and add structure that is not there.',
    fix: 'Remove the empty paragraphs and extra <br>, and make the space with CSS margins or padding.',
  },
};

/** The structure engine's rules. */
export const STRUCTURE_CATALOGUE = ruleEntries('structure', [
  { id: 'table-no-headers', criteria: ['1.3.1'], severities: ['serious'] },
  { id: 'layout-table-semantics', criteria: ['1.3.1'], severities: ['moderate'] },
  { id: 'layout-table', criteria: ['1.3.2'], severities: ['minor'] },
  { id: 'table-nested', criteria: ['1.3.1'], severities: ['moderate'] },
  { id: 'table-empty-header', criteria: ['1.3.1'], severities: ['minor'] },
  // H43 (headers and id for complex tables) is sufficient for 1.3.1; F91 (headers not marked up
  // correctly) where the cells are not tied to all their headers.
  { id: 'table-complex-headers', criteria: ['1.3.1'], severities: ['moderate'] },
  // H51 (table markup presents tabular information) and the HTML table model: rows of unequal
  // width leave cells under no header (F91 where they are data).
  { id: 'table-ragged-rows', criteria: ['1.3.1'], severities: ['moderate'] },
  { id: 'visual-heading-not-marked', criteria: ['1.3.1'], severities: ['moderate'] },
  { id: 'list-not-marked', criteria: ['1.3.1'], severities: ['moderate'] },
  { id: 'image-alt-filename', criteria: ['1.1.1'], severities: ['serious'] },
  { id: 'image-hidden-has-alt', criteria: ['1.1.1'], severities: ['moderate'] },
  { id: 'image-of-text', criteria: ['1.4.5'], mayAlsoFail: ['1.1.1'], severities: ['moderate'] },
  { id: 'sensory-reference', criteria: ['1.3.3'], severities: ['moderate'] },
  { id: 'image-empty-alt-informative', criteria: ['1.1.1'], severities: ['serious'] },
  { id: 'background-image-informative', criteria: ['1.1.1'], severities: ['moderate'] },
  { id: 'css-generated-content', criteria: ['1.3.1'], severities: ['moderate'] },
  { id: 'aria-hidden-content', criteria: ['1.3.1'], severities: ['serious'] },
  { id: 'presentation-role-semantics', criteria: ['1.3.1'], severities: ['serious'] },
  { id: 'sr-text-hidden', criteria: ['1.3.1'], severities: ['moderate'] },
  { id: 'spacer-markup', criteria: ['1.3.1'], severities: ['minor'] },
]);
