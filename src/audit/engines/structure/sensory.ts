import type { PageContext } from './facts.ts';

const UI_NOUN = String.raw`buttons?|links?|menus?|navigation|nav(?:igation)? bar|sidebar|side bar|icons?|boxe?s?|panels?|columns?|tabs?|fields?|forms?|toolbar|arrows?|images?|pictures?|photos?|logos?|banner|widgets?|controls?|switch|checkbox|slider`;
const SHAPE = String.raw`round|rounded|circular|square|triangular|triangle|star|circle|diamond|hexagon|oval`;
const COLOUR = String.raw`red|green|blue|yellow|orange|purple|violet|pink|grey|gray|black|white|brown`;
const SIDE = String.raw`(?:top|bottom|upper|lower)?[\s-]?(?:right|left)`;

/**
 * "the <thing> on the right", "the menu to the left", "the button in the top right corner":
 * a horizontal position (reading order does not convey it), after a noun.
 */
const THING_AT_SIDE = new RegExp(
  String.raw`\b(?:the|a)\s+((?:[\p{L}-]+\s+){0,3}?([\p{L}-]+))\s+(?:(?:on|to|at)\s+the\s+${SIDE}(?:[\s-]hand)?(?:\s+(?:side|corner|column|panel|edge|margin|pane))?|in\s+the\s+${SIDE}(?:[\s-]hand)?\s+(?:side|corner|column|panel|edge|margin|pane)|(?:on|to)\s+your\s+(?:right|left))\b(?!\s+(?:of\s+(?:the\s+)?(?:decimal|equals?|operator|assignment)|thing|track|answer|way|time|place|path|direction|person|people|reasons?|moment|words?|one|order|format|spot|level|amount)\b)`,
  'iu',
);
/** "the round button", "the green link", "the star icon". */
const SHAPE_OR_COLOUR_THING = new RegExp(String.raw`\b(?:the|a)\s+(${SHAPE}|${COLOUR})[\s-]+(?:shaped\s+|coloured\s+|colored\s+)?(${UI_NOUN})\b`, 'iu');
/** "underneath the star", "next to the red circle", "beside the arrow". */
const NEAR_SHAPE = new RegExp(
  String.raw`\b(?:above|below|underneath|beneath|under|beside|next to)\s+the\s+(?:(?:${COLOUR})\s+)?(${SHAPE}|arrow|icon|logo)\b`,
  'iu',
);

/** "click the square", "tap the red circle": an action on a shape named by nothing else. */
const ACT_ON_SHAPE = new RegExp(
  String.raw`\b(?:click|tap|press|select|choose|hit|touch)\s+(?:on\s+)?the\s+(?:(?:${COLOUR})\s+)?(${SHAPE})\b(?![\s-]+(?:brackets?|roots?|meters?|metres?|feet|miles|numbers?|matrix|matrices|wave|dance|brace|braces|${UI_NOUN})\b)`,
  'iu',
);
/** "when you hear the beep", "after the tone", "listen for the chime": a cue given by sound only. */
const SOUND_CUE = new RegExp(
  String.raw`\b(?:(?:when|after|once|until|as soon as)\s+you\s+hear\s+(?:the|a|an)\s+(?:[\p{L}-]+\s+)?|(?:after|at|wait for|listen for)\s+the\s+(?:[\p{L}-]+\s+)?)(beeps?|tones?|chimes?|bells?|buzz|buzzer|ding|ping|alarm|signal|sound)\b`,
  'iu',
);
/** "required fields are marked in red", "the dates in green are available": meaning carried by colour only. */
const COLOUR_MEANING = new RegExp(
  String.raw`\b(?:(?:shown|marked|highlighted|displayed|printed|written|coloured|colored|indicated|labell?ed|appears?)\s+in\s+(${COLOUR})\b(?!\s+(?:and|or|with|by)\b)|(?:items?|fields?|text|words?|entries|rows?|options?|cells?|dates?|days?|links?|seats?|products?|questions?)\s+(?:in|with\s+an?)\s+(${COLOUR})(?:\s+(?:background|border|text|colou?r|font))?\s+(?:are|is|mean|means|indicate|indicates|show|shows|have|has|need|needs|must)\b)`,
  'iu',
);

/** "The green mushrooms are OK to eat. The red mushrooms will kill you.": one kind of thing told apart by colour. */
const COLOUR_CONTRAST = new RegExp(String.raw`\bthe\s+(${COLOUR})\s+([\p{L}-]{3,})\b[^]{0,200}?\bthe\s+(?!\1\b)(?:${COLOUR})\s+\2\b`, 'iu');

/** Sources (flags `iu`) of the patterns, for the page to preselect text blocks with. */
export const SENSORY_PATTERN_SOURCES: readonly string[] = [THING_AT_SIDE.source, SHAPE_OR_COLOUR_THING.source, NEAR_SHAPE.source, ACT_ON_SHAPE.source, SOUND_CUE.source, COLOUR_MEANING.source, COLOUR_CONTRAST.source];

/** Source of a cheap pattern the page uses to pick text nodes worth a look. */
export const SENSORY_HINT_SOURCE = String.raw`\b(?:right|left|round|square|circular|triangle|triangular|star|circle|diamond|oval|red|green|blue|yellow|orange|purple|pink|grey|gray|hear|beeps?|tones?|chimes?|buzzer)\b`;

const THING_NOUNS_NEEDING_LABEL = new Set(['button', 'buttons', 'link', 'links', 'icon', 'icons', 'box', 'boxes', 'field', 'fields', 'control', 'controls', 'switch', 'checkbox', 'slider', 'tab', 'tabs']);
const NAV_NOUNS = new Set(['menu', 'menus', 'navigation', 'sidebar', 'side bar', 'nav bar', 'navigation bar', 'toolbar']);
/** Words that, before "on the right/left", name something that is not a page element. */
const NOT_A_THING = new Set(['one', 'ones', 'other', 'others', 'same', 'first', 'second', 'second', 'rule', 'shift', 'turn', 'bit', 'bits', 'hand', 'foot', 'party', 'wing', 'side', 'expression', 'operand', 'argument', 'value', 'number', 'term']);

export interface SensoryReference {
  /** The phrase found, as written (at most 160 characters). */
  phrase: string;
  /** The noun it points at, lower case. */
  noun: string;
  kind: 'position' | 'shape-or-colour' | 'near-shape' | 'sound' | 'colour-meaning';
}

/** The sentence around a match, for the quoted-label test. */
function sentenceAround(text: string, index: number, length: number): string {
  const before = text.slice(0, index);
  const start = Math.max(before.lastIndexOf('. '), before.lastIndexOf('! '), before.lastIndexOf('? ')) + 1;
  const rest = text.slice(index + length);
  const endRel = rest.search(/[.!?](\s|$)/);
  return text.slice(start, index + length + (endRel < 0 ? rest.length : endRel + 1));
}

/** A quoted label ("Submit", 'Next', “Help”) in the sentence names the thing without sight. */
function hasQuotedLabel(sentence: string): boolean {
  return /["“”«»„][^"“”«»„]{2,60}["“”«»„]|(?:^|\s)'[^']{2,40}'/.test(sentence);
}

/**
 * Text that points at something only by its position, shape or colour ("the menu on the right",
 * "click the round button", "underneath the star"), where the page offers no other way to find
 * it: no quoted label in the same sentence, no heading or single landmark with the thing's name,
 * no single button of that kind (WCAG 1.3.3). Always `needs_review`: a person must check whether
 * the thing is identifiable otherwise.
 */
export function sensoryReference(text: string, ctx: PageContext): SensoryReference | null {
  const t = text.replace(/\s+/g, ' ').trim();
  if (t.length < 8) return null;
  const tries: Array<{ re: RegExp; kind: SensoryReference['kind']; nounGroup: number; qualifierGroup?: number }> = [
    { re: THING_AT_SIDE, kind: 'position', nounGroup: 2 },
    { re: SHAPE_OR_COLOUR_THING, kind: 'shape-or-colour', nounGroup: 2, qualifierGroup: 1 },
    { re: NEAR_SHAPE, kind: 'near-shape', nounGroup: 1 },
    { re: ACT_ON_SHAPE, kind: 'shape-or-colour', nounGroup: 1 },
    { re: SOUND_CUE, kind: 'sound', nounGroup: 1 },
    { re: COLOUR_MEANING, kind: 'colour-meaning', nounGroup: 1 },
    { re: COLOUR_CONTRAST, kind: 'colour-meaning', nounGroup: 1 },
  ];
  for (const { re, kind, nounGroup, qualifierGroup } of tries) {
    const m = re.exec(t);
    if (!m) continue;
    // The colour-meaning pattern has its colour in one of two groups.
    const noun = (m[nounGroup] ?? m[nounGroup + 1] ?? '').toLowerCase();
    if (kind === 'position' && (NOT_A_THING.has(noun) || /^\d/.test(noun))) continue;
    const sentence = sentenceAround(t, m.index, m[0].length);
    if (hasQuotedLabel(sentence) && kind !== 'sound' && kind !== 'colour-meaning') continue;
    // A sound cue the text also shows ("when you hear the beep or see the light") is not sound only.
    if (kind === 'sound' && /\b(?:or|and)\s+(?:see|when|a|the)\b[^.]*\b(?:light|message|flash|screen|text|notification|vibrat\w*)\b/iu.test(sentence)) continue;
    // Colour with a second cue ("marked in red and with an asterisk") is not colour only.
    if (kind === 'colour-meaning' && /\b(?:asterisk|\*|bold|underlined|icon|symbol|label|text saying|word)\b/iu.test(sentence)) continue;
    if (kind !== 'sound' && kind !== 'colour-meaning' && identifiableOtherwise(noun, qualifierGroup !== undefined ? m[qualifierGroup]!.toLowerCase() : null, ctx)) continue;
    return { phrase: m[0].slice(0, 160), noun, kind };
  }
  return null;
}

function identifiableOtherwise(noun: string, qualifier: string | null, ctx: PageContext): boolean {
  const base = noun.replace(/s$/, '');
  const headingNames = ctx.headingTexts.map((h) => h.toLowerCase());
  if (NAV_NOUNS.has(noun) || NAV_NOUNS.has(base)) {
    if (ctx.navCount === 1) return true;
    if (headingNames.some((h) => h.includes(base))) return true;
  }
  if (base === 'button') {
    if (ctx.buttonNames.length === 1) return true;
    if (qualifier && ctx.buttonNames.some((n) => n.toLowerCase().includes(qualifier))) return true;
  }
  // A heading naming the thing ("Examples" for "the star menu" is not enough, the noun itself is).
  if (!THING_NOUNS_NEEDING_LABEL.has(noun) && headingNames.some((h) => new RegExp(String.raw`\b${escapeRe(base)}`, 'iu').test(h))) return true;
  return false;
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
