/**
 * The offline enricher's fixed wording, as data: every sentence it writes, per rule, with `{slot}`s
 * that the describers fill in (text.ts `fill`) from what the engine measured. Who is affected and
 * the general fix per rule are the rule catalogue's guides (src/shared/rules), not repeated here.
 *
 * Element-specific fixes put each suggested piece of code on its own line after a lead-in line
 * that ends with one of the LEAD phrases, so that a person can copy it and a tool can apply it.
 * Change those phrases only together with whatever reads them.
 */

/** The lead-in phrases before a line of code, and what that line holds. */
export const LEAD = {
  /** The corrected element (HTML). */
  replaceElement: 'Replace the element with:',
  /** The element's corrected start tag (HTML). */
  replaceStartTag: 'Replace the start tag with:',
  /** Markup to insert just before the element (HTML). */
  addBefore: 'Add before the element:',
  /** Markup to insert just after the element (HTML). */
  addAfter: 'Add after the element:',
  /** One attribute (HTML). */
  addAttribute: 'Add this attribute to the element:',
  /** One CSS rule on one line; `nested` is NESTED_NOTE or empty. */
  css: 'Add this CSS{nested}:',
  /** A sketch of the element inside a label, when its HTML cannot be reused. */
  wrap: 'Wrap it like this:',
  /** After "Add this CSS" when the element is in a frame or shadow root. */
  nestedNote: ' (the element is inside a frame or shadow root: put the CSS in that document or component)',
} as const;

export const CRITERION = {
  known: 'WCAG {id} {title} (Level {level})',
  unknown: 'WCAG {id}',
} as const;

/** Every description ends with `tail`; findings to review add `review`. */
export const COMMON = {
  tail: ' This fails {criterion}.{review}',
  review: ' The checker could not decide this automatically{why}: a person should confirm it.',
  reviewWhy: ' ({reason})',
  /** The text of a rule without element-specific wording: the engine's help and the guide. */
  description: '{help} {who}{tail}',
  fixForElement: '{fix}\n\nFor this element ({selector}): {details}',
} as const;

export const CONTRAST = {
  defaultExpected: '4.5:1',
  subject: 'The text {text}',
  subjectUnknown: 'This text',
  font: ' at {size}{weight}',
  fontWeight: ' {weight} weight',
  need: 'it needs at least {expected}{large}{font}',
  large: ' (large text)',
  unmeasured: '{subject} could not be measured for contrast automatically.{why} {who}{tail}',
  unmeasuredCheck:
    'Check by hand that the text reaches a contrast ratio of {expected} against what is actually behind it (for text over an image or gradient, against its lightest and darkest parts), with a colour picker and a contrast checker.',
  unmeasuredFix: 'If it does not, darken the text or lighten what is behind it; over images, add a solid or semi-opaque background behind the text.',
  measured: '{subject} has a contrast ratio of {ratio} (text {fg} on background {bg}); {need}. {who}{tail}',
  nearest:
    'Raise the contrast to at least {expected}. Keeping the hue and changing only the lightness, the nearest text colour that reaches it on {bg} is {hex} ({ratio}), {direction} than {fg}. {lead}',
  noNearest: 'Raise the contrast to at least {expected}: darken the text or lighten the background.',
  background: 'Or keep the text colour and change the background to {hex} ({ratio}).',
  shared:
    'Where the colour comes from a shared class, custom property or design token, change it there so that every use is fixed, and check hover, focus and visited states too.',
} as const;

export const IMAGE = {
  placeholder: 'Describe what the image shows',
  buttonPlaceholder: 'Submit',
  description: 'The image{src} has no text alternative. {who}{tail}',
  buttonDescription: 'The image button{src} has no alternative text, so it has no name. {who}{tail}',
  fromFile: 'The text {alt} is only a suggestion taken from the file name {file}: check it against the image before you use it.',
  noWords: 'No useful text could be taken from the file name: replace the placeholder with what the image shows.',
  buttonNoWords: 'The text "Submit" is a placeholder: name the action the button performs (for example "Search").',
  lead: 'Add an alt attribute that says what the image shows or does.',
  buttonLead: 'Add an alt attribute that names what the button does.',
  advice: 'If the image is only decoration, use alt="" instead. If it is a link or button, describe where it goes or what it does, not how it looks.',
  buttonAdvice: 'Describe the action ("Search", "Send"), not the picture ("magnifying glass").',
} as const;

export const LABEL = {
  selectLabel: 'Choose an option',
  textareaLabel: 'Message',
  placeholder: 'Describe what to enter',
  kind: { select: 'select list', textarea: 'text area', radio: 'radio button', checkbox: 'checkbox', field: '{type} field' },
  fromName: "the field's name {name}",
  fromId: "the field's id {id}",
  fromPlaceholder: 'the placeholder',
  id: 'id {id}',
  name: 'name {name}',
  description: 'This {kind}{ids} has no label that names it. {who}{tail}',
  suggestion: 'The label text {label} is a suggestion from {source}: check that it says what to enter or choose.',
  noSuggestion: 'The label text {label} is a placeholder: write what the person should enter or choose.',
  labelFor: 'Add a visible label and tie it to the field with for="{id}".',
  wrapField: 'Wrap the field in a visible label (it has no id for a for attribute to point at).',
  advice: 'A placeholder is not a label: it disappears while typing. Use aria-label only where a visible label is impossible.',
} as const;

export const TARGET = {
  subject: 'This {what}{text}',
  subjectUnknown: 'This target',
  link: 'link',
  control: '{type} control',
  mobile: ' at the {width}px-wide mobile view',
  spacing: ', and the targets around it leave a safe clickable space of only {offset} across',
  description: '{what} measures {width} × {height} CSS px{where}; targets need at least {min} × {min} px or enough space around them{spacing}. {who}{tail}',
  moreWidth: '{more} more width ({pad}px more padding on the left and right)',
  moreHeight: '{more} more height ({pad}px more padding on the top and bottom)',
  and: ' and ',
  moreUnknown: 'a little more size',
  grow: 'Make it at least {min} × {min} CSS px: it needs {grow}, or a minimum size. {lead}',
  inlineBlock: 'Leave out display: inline-block if the element is already a block, flex or grid item.',
  narrow: 'If it is only this small on narrow screens, put the rule in the styles for those widths.',
  spaceApart: 'Or keep its size and space the targets apart, so that a {min}px circle centred on each target overlaps no other target or its circle{now}.',
  now: ' (now {offset})',
} as const;

export const LINK = {
  fromTitle: 'its title attribute',
  fromAddress: 'its address',
  fromSection: 'the section it points to',
  fromPageTitle: 'the page title',
  email: 'Email {address}',
  call: 'Call {number}',
  homePage: 'Home page',
  siteHomePage: '{host} home page',
  onHost: ' on {host}',
  pointsTo: ' (it points to {href})',
  vagueReview: 'The link text {text} is vague on its own{to}; the text around it may or may not say where it goes. {who}{tail}',
  vague: 'The link text {text} does not say where the link goes{to}. {who}{tail}',
  unnamed: 'This link{to} has no text or other accessible name, so it is announced only as "link". {who}{tail}',
  placeholder: 'Name of the page or file it opens',
  suggestion: 'The text {text} is a suggestion from {from}: check that it names the page or file the link opens.',
  noSuggestion: 'No destination could be read from the link: replace the placeholder with the name of the page or file it opens.',
  rewrite: 'Rewrite the link text so that it names its destination.',
  giveText: 'Give the link text that names its destination.',
  nameDestination: 'Make the link name its destination.',
  giveName: 'Give the link a name.',
  visibleWordsFirst: 'The label starts with the visible words, so voice control users can still say them.',
  betterStill: 'Better still, give an image inside the link an alt text naming the destination, or put visible text in the link.',
  hiddenText:
    'If the design needs the short words, keep them and add the rest as visually hidden text inside the link (a class that hides text visually but not from screen readers).',
} as const;

export const LANG = {
  invalid: 'The page declares its language as lang={current}, which is not a valid language tag. {who}{tail}',
  missing: 'The page does not declare the language of its text on the <html> element. {who}{tail}',
  likely: "Use a valid BCP 47 language tag: {fixed} is the likely meaning of {current}; check it is the language of the page's text.",
  noGuess: 'Use a valid BCP 47 language tag such as "en", "en-GB", "fr" or "de" for the language of the page\'s text.',
  add: 'Add the language of the page\'s text to the root element. "en" (English) is an example: use "fr", "de", "es" and so on for pages in other languages.',
  passages: 'Mark passages in another language with their own lang attribute, e.g. <span lang="fr">…</span>.',
} as const;

export interface Noun {
  one: string;
  many: string;
}
export const ELEMENT: Noun = { one: 'element', many: 'elements' };
export const ISSUE: Noun = { one: 'issue', many: 'issues' };
export const CRITERIA: Noun = { one: 'criterion', many: 'criteria' };

export const SUMMARY = {
  oneElement: '1 element affected.',
  alike: '{elements} affected, all alike: one fix to their shared markup or CSS should cover them.',
  spread: '{elements} affected in {templates} different places or patterns.',
  passing: '{elements} checked; no automated failure against {criterion} (the checks decide only part of it: a person must confirm it is met).',
  clean:
    '{name} scores {score}/100: no WCAG 2.2 A or AA failures were found by automated checks. Automated checks find only part of all barriers; test keyboard use and screen reader output by hand too.',
  found: '{name} scores {score}/100 with {confirmed} confirmed {issues}{review} against {criteria} WCAG {criteriaNoun} ({bySeverity}).{start}',
  toReview: ' and {review} to review by hand',
  start: ' Start with "{title}" ({elements}, {criterion}).',
} as const;
