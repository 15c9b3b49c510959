/**
 * Word lists and lookup tables of the offline enricher: what names, file types and languages are
 * called, and which words carry no meaning. Plain data; the describers look values up here.
 */

/** Words that say nothing about what a file or field is (`IMG_4032.jpg`, `field-7`); dropped by wordsFrom. */
export const FILLER_WORDS: readonly string[] = [
  'img', 'image', 'dsc', 'dscn', 'pic', 'photo', 'file', 'scan', 'copy', 'final', 'thumb', 'thumbnail', 'small', 'large', 'medium',
  'web', 'min', 'edit', 'field', 'input', 'fld', 'txt', 'frm',
];

/** Further words dropped from an image's file name when suggesting its alt text. */
export const IMAGE_NAME_NOISE: readonly string[] = ['icon', 'ico', 'sprite'];
/** The same for an image button, whose alt text names an action. */
export const BUTTON_NAME_NOISE: readonly string[] = ['icon', 'ico', 'btn', 'button', 'submit', 'sprite'];
/** Words dropped from a field's id when suggesting its label. */
export const FIELD_ID_NOISE: readonly string[] = ['unlabeled', 'unlabelled'];

/** File types named after a link's destination: "Annual report (PDF)". */
export const DOC_TYPES: Readonly<Record<string, string>> = { pdf: 'PDF', doc: 'Word', docx: 'Word', xls: 'Excel', xlsx: 'Excel', csv: 'CSV', ppt: 'PowerPoint', pptx: 'PowerPoint', zip: 'ZIP', odt: 'ODT', ods: 'ODS', epub: 'EPUB' };

/** Path segments that name no page of their own. */
export const INDEX_PAGE = /^(index|default|home)(\.[a-z0-9]+)?$/i;

/** A label suggested from an input's type when its name and id say nothing. */
export const FIELD_LABELS: Readonly<Record<string, string>> = {
  email: 'Email address',
  tel: 'Phone number',
  search: 'Search',
  password: 'Password',
  url: 'Website address',
  number: 'Number',
  date: 'Date',
  'datetime-local': 'Date and time',
  month: 'Month',
  week: 'Week',
  time: 'Time',
  file: 'File to upload',
  color: 'Colour',
  range: 'Value',
  checkbox: 'Option',
  radio: 'Option',
};

/** Language names people write in lang attributes, and the tag they mean. */
export const LANGUAGE_NAMES: Readonly<Record<string, string>> = {
  english: 'en', german: 'de', deutsch: 'de', french: 'fr', francais: 'fr', 'français': 'fr', spanish: 'es', espanol: 'es', 'español': 'es',
  italian: 'it', italiano: 'it', dutch: 'nl', nederlands: 'nl', portuguese: 'pt', 'português': 'pt', swedish: 'sv', svenska: 'sv',
  danish: 'da', dansk: 'da', norwegian: 'no', norsk: 'no', finnish: 'fi', suomi: 'fi', polish: 'pl', polski: 'pl', czech: 'cs',
  greek: 'el', turkish: 'tr', russian: 'ru', japanese: 'ja', chinese: 'zh', korean: 'ko', arabic: 'ar', hebrew: 'he', hindi: 'hi',
};

/** The language suggested for a page that declares none (the wording calls it an example). */
export const EXAMPLE_LANG = 'en';

/** Elements that are inline by default: min-width and min-height need display: inline-block on them. */
export const INLINE_TAGS: ReadonlySet<string> = new Set(['a', 'span', 'label', 'abbr', 'b', 'i', 'em', 'strong', 'small', 'code', 'cite', 'u', 'sup', 'sub']);
