import { SEVERITIES } from '../contracts.ts';
import { AXE_ALSO_FAILS, AXE_ALSO_FAILS_IMAGE_CONTROL, AXE_BEST_PRACTICE_CRITERIA } from './axe-also-fails.ts';
import { AXE_RULE_CRITERIA } from './axe-criteria.ts';
import { ruleEntries } from './entry.ts';
import type { FixGuide } from './guide.ts';

/** Why an axe-core rule matters to people and how to fix it, for the rules seen most on real sites. */
export const AXE_GUIDES: Readonly<Record<string, FixGuide>> = {
  'image-alt': {
    who: 'Screen reader users hear nothing, or only the file name, for an image without a text alternative; so does anyone whose images are turned off or fail to load.',
    fix: 'Add an alt attribute that says what the image conveys (alt="Sales grew 20% in 2025"); use alt="" for purely decorative images.',
  },
  'input-image-alt': {
    who: 'An image button without alternative text has no name: screen reader users do not know what it does, and voice control users cannot name it to press it.',
    fix: 'Give the <input type="image"> an alt attribute naming its action, e.g. alt="Search".',
  },
  'role-img-alt': {
    who: 'Elements with role="img" need a name for screen reader users.',
    fix: 'Add aria-label or aria-labelledby describing the image.',
  },
  'svg-img-alt': {
    who: 'An SVG exposed as an image needs a text alternative.',
    fix: 'Add a <title> as the first child of the <svg> or an aria-label, or hide a decorative SVG with aria-hidden="true".',
  },
  'color-contrast': {
    who: 'Text with too little contrast is hard or impossible to read for people with low vision or color deficiencies, for many older people, and for everyone in bright light.',
    fix: 'Darken the text or lighten the background until the contrast ratio is at least 4.5:1 (3:1 for text of 24px, or 18.66px bold, and larger).',
  },
  label: {
    who: 'A form field without a label leaves screen reader users hearing only "edit text" and voice control users without a name to say; everyone loses the larger click area a label gives.',
    fix: 'Associate a visible <label for="id"> with the field, or wrap the field in its <label>; aria-label only when a visible label is impossible.',
  },
  'select-name': {
    who: 'A select list without a label has no name: screen reader users hear only "combo box" and voice control users cannot name it.',
    fix: 'Add a <label for="id"> for the select element.',
  },
  'button-name': {
    who: 'A button without an accessible name is announced only as "button": screen reader users cannot know what it does.',
    fix: 'Put visible text inside the button, or give an icon button aria-label="…" naming its action.',
  },
  'link-name': {
    who: 'Keyboard and screen reader users reach a link without an accessible name but hear only "link", and voice control users cannot target it.',
    fix: 'Give the link text content, or alt text on the image inside it, that says where it goes.',
  },
  'link-text-generic': {
    who: 'Screen reader users often list all links of a page, and keyboard users tab from link to link; "click here" or "read more" then says nothing about where each goes.',
    fix: 'Rewrite the link text so that it names its destination ("Read the 2025 annual report"), or add the missing words as visually hidden text inside the link.',
  },
  'target-size': {
    who: 'Small controls placed close together are hard to hit for people with tremors or limited dexterity, for people with low vision, and on a touch screen.',
    fix: 'Make the control at least 24 by 24 CSS pixels (padding counts), or leave enough space so that a 24px circle around it touches no other target.',
  },
  'target-size-mobile': {
    who: 'On a phone-sized screen these controls shrink or crowd together: people with tremors or limited dexterity, and anyone using a finger, hit the wrong one.',
    fix: 'Give the control at least 24 by 24 CSS pixels at narrow widths (min-width/min-height or padding in the mobile media query), or space the targets apart.',
  },
  'html-has-lang': {
    who: 'Without a page language, screen readers pronounce the text with the wrong voice and rules, and browsers cannot offer the right translation or hyphenation.',
    fix: 'Add the language to the root element: <html lang="en">.',
  },
  'html-lang-valid': {
    who: 'An invalid language code makes screen readers fall back to a default voice and pronounce the text wrongly.',
    fix: 'Use a valid BCP 47 language tag in the lang attribute, e.g. lang="en-GB".',
  },
  'valid-lang': {
    who: 'An invalid lang attribute on a part of the page gives screen readers the wrong pronunciation.',
    fix: 'Use a valid BCP 47 language tag for every lang attribute.',
  },
  'document-title': {
    who: 'The page title is the first thing a screen reader announces and what identifies a tab or bookmark.',
    fix: 'Add a <title> that names the page and the site, e.g. "Contact us – Example Ltd".',
  },
  'frame-title': {
    who: 'Screen reader users navigate frames by their title; an untitled frame gives no clue what it holds.',
    fix: 'Add a title attribute describing the content of the iframe.',
  },
  'aria-required-attr': {
    who: 'An ARIA role without its required attributes gives assistive technology an incomplete picture.',
    fix: 'Add the attributes the role requires (for example aria-checked on role="checkbox").',
  },
  'aria-valid-attr-value': {
    who: 'Invalid ARIA attribute values are ignored or misread by assistive technology.',
    fix: 'Correct the value, e.g. make aria-labelledby point to an existing id.',
  },
  'aria-hidden-focus': {
    who: 'Focusable content inside aria-hidden is reachable by keyboard but silent for screen readers.',
    fix: 'Remove focusable elements from the aria-hidden region, or make them unfocusable with tabindex="-1" or inert.',
  },
  list: {
    who: 'Screen readers announce lists and their length only when the list markup is valid.',
    fix: 'Let <ul> and <ol> contain only <li>, <script> or <template> elements.',
  },
  listitem: {
    who: 'A list item outside a list loses its list semantics.',
    fix: 'Place every <li> inside a <ul> or <ol>.',
  },
  'nested-interactive': {
    who: 'Controls nested inside other controls are not announced or reachable reliably.',
    fix: 'Do not put links, buttons or inputs inside another interactive element.',
  },
  'meta-viewport': {
    who: 'Blocking zoom stops people with low vision from enlarging the page.',
    fix: 'Remove user-scalable=no and maximum-scale below 2 from the viewport meta tag.',
  },
  'autocomplete-valid': {
    who: 'A correct autocomplete value lets browsers fill fields and helps people with cognitive or motor impairments.',
    fix: 'Use a valid autocomplete token such as "email", "given-name" or "postal-code".',
  },
  bypass: {
    who: 'Keyboard users must tab through every navigation link on every page without a way to skip to the content.',
    fix: 'Add a "Skip to main content" link at the top, or landmarks such as <main> and headings.',
  },
  'empty-heading': {
    who: 'Empty headings appear in screen readers\' heading lists without any text.',
    fix: 'Give the heading text, or remove it.',
  },
  tabindex: {
    who: 'A positive tabindex pulls the element ahead of everything else in the keyboard order: keyboard and screen reader users jump around the page in an order that no longer follows its meaning.',
    fix: 'Remove tabindex values above 0; put the elements in the source order you want them reached in, and use tabindex="0" or "-1" only.',
  },
  'heading-order': {
    who: 'Screen reader users navigate and skim a page by its heading levels; a skipped level (h2 to h4) suggests a missing section and misstates the structure.',
    fix: 'Use heading levels in order, one level deeper per sub-section; style headings with CSS instead of picking a level for its size.',
  },
  'empty-table-header': {
    who: 'Screen reader users hear a table header cell when moving through the cells it heads; an empty header tells them nothing about the data.',
    fix: 'Give the header cell text (visually hidden if need be), or make it a <td> if it heads nothing.',
  },
  'scope-attr-valid': {
    who: 'An invalid scope attribute does not tie the header to its cells, so screen readers may read data cells without their headers.',
    fix: 'Use scope only on <th> elements, with the value col, row, colgroup or rowgroup.',
  },
  'aria-treeitem-name': {
    who: 'A tree item without an accessible name is announced only by its role: screen reader users cannot tell the items apart.',
    fix: 'Give each treeitem text content, or an aria-label / aria-labelledby.',
  },
  'aria-dialog-name': {
    who: 'When a dialog without a name opens, screen reader users hear "dialog" and nothing about what it is for.',
    fix: 'Point aria-labelledby at the dialog\'s heading, or give it an aria-label.',
  },
  'aria-text': {
    who: 'role="text" hides the role of everything inside it: a link or button inside is reached by the keyboard but not announced as one.',
    fix: 'Use role="text" only on elements without focusable content, or move the control out of it.',
  },
  'td-headers-attr': {
    who: 'Broken table header references make data cells announce the wrong headers.',
    fix: 'Let every id in the headers attribute point to a header cell of the same table.',
  },
  'th-has-data-cells': {
    who: 'Table headers that describe no cells confuse screen reader table navigation.',
    fix: 'Make sure every header cell describes data cells, or mark it up as a data cell.',
  },
};

/**
 * axe-core's rules, under the criterion of `AXE_RULE_CRITERIA`, then the best-practice rules with
 * a documented WCAG failure under theirs (`AXE_BEST_PRACTICE_CRITERIA`); each also fails the
 * criteria of `AXE_ALSO_FAILS` (or the best-practice table's further ones), and may fail those of
 * `AXE_ALSO_FAILS_IMAGE_CONTROL` (an image link or button without a name). Their severity is
 * axe's impact for each element, so any severity. `color-contrast` is also reported by the
 * pixel-contrast engine, which measures on screen what axe left undecided (same criterion, axe's
 * severity).
 */
export const AXE_CATALOGUE = ruleEntries('axe', [
  ...Object.entries(AXE_RULE_CRITERIA).map(([id, criterion]) => ({ id, criteria: [criterion], severities: SEVERITIES, alsoFails: AXE_ALSO_FAILS[id] ?? [], mayAlsoFail: AXE_ALSO_FAILS_IMAGE_CONTROL[id] ?? [] })),
  ...Object.entries(AXE_BEST_PRACTICE_CRITERIA).map(([id, [criterion, ...more]]) => ({ id, criteria: [criterion!], severities: SEVERITIES, alsoFails: more })),
]);

/** axe's `target-size` run again at a phone's viewport, reported under its own id. */
export const TARGET_SIZE_MOBILE_CATALOGUE = ruleEntries('target-size-mobile', [
  { id: 'target-size-mobile', criteria: [AXE_RULE_CRITERIA['target-size']!], severities: SEVERITIES },
]);
