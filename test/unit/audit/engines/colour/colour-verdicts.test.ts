import { describe, expect, it } from 'vitest';
import { fieldVerdicts, linkVerdict, needsTextBlock, reddish, type FieldFacts, type LinkFacts } from '../../../../../src/audit/engines/colour/colour-scan.ts';
import { parseCssColour } from '../../../../../src/audit/engines/pixel-contrast/luminance.ts';

const link = (over: Partial<LinkFacts> = {}): LinkFacts => ({
  axeSelector: 'a',
  id: 0,
  inTextBlock: true,
  linkColour: 'rgb(51, 51, 170)',
  textColour: 'rgb(0, 0, 0)',
  sameBackground: true,
  distinct: false,
  pseudo: false,
  text: 'link',
  ...over,
});

describe('linkVerdict (F73)', () => {
  it("confirms axe's undecided link when nothing but a colour under 3:1 marks it", () => {
    expect(linkVerdict(link(), 2.1)).toMatchObject({ outcome: 'confirmed', contrast: 2.1 });
  });

  it("withdraws axe's undecided result for a link with another mark, the text's own colour, or 3:1", () => {
    expect(linkVerdict(link({ distinct: true }), 2.1).outcome).toBe('drop');
    expect(linkVerdict(link(), 1).outcome).toBe('drop');
    expect(linkVerdict(link(), 3).outcome).toBe('drop');
  });

  it('leaves it undecided with generated content, a background of its own, or a colour it cannot read', () => {
    expect(linkVerdict(link({ pseudo: true }), 2.1).outcome).toBe('keep');
    expect(linkVerdict(link({ sameBackground: false }), 2.1).outcome).toBe('keep');
    expect(linkVerdict(link(), null).outcome).toBe('keep');
  });

  it('asks for review of a link on a line of its own inside text, and reports nothing about links it decides as passing', () => {
    expect(linkVerdict(link({ axeSelector: null, inTextBlock: false }), 2.1).outcome).toBe('needs_review');
    expect(linkVerdict(link({ axeSelector: null, inTextBlock: false }), 3.2).outcome).toBe('keep');
    expect(linkVerdict(link({ axeSelector: null, distinct: true }), 2.1).outcome).toBe('keep');
  });

  it("asks axe whether a link is in text only for a link it would report outside axe's results", () => {
    expect(needsTextBlock(link({ axeSelector: null, inTextBlock: false }), 2.1)).toBe(true);
    expect(needsTextBlock(link({ axeSelector: null, inTextBlock: false }), 4)).toBe(false);
    expect(needsTextBlock(link(), 2.1)).toBe(false);
  });
});

const parse = (c: string) => parseCssColour(c)?.rgb;
const field = (id: number, border: string, over: Partial<FieldFacts> = {}): FieldFacts => ({
  id,
  group: 0,
  colours: { 'border-top-color': border, 'background-color': 'rgb(255, 255, 255)' },
  shape: '1|1|1|1|false|false|0|400/normal/none',
  textCue: false,
  label: `Field ${id}`,
  ...over,
});

describe('fieldVerdicts (F81)', () => {
  it('reports the fields told apart only by a red border, even when they are the most', () => {
    const grey = 'rgb(118, 118, 118)';
    const red = 'rgb(223, 48, 52)';
    expect(fieldVerdicts([field(1, red), field(2, grey), field(3, red)], parse).map((v) => v.id)).toEqual([1, 3]);
    expect(fieldVerdicts([field(1, red), field(2, grey)], parse)[0]).toMatchObject({ id: 1, differs: { 'border-top-color': [red, grey] } });
  });

  it('reports nothing where a text says it, where more than colour differs, or where all fields look alike', () => {
    const grey = 'rgb(118, 118, 118)';
    const red = 'rgb(223, 48, 52)';
    expect(fieldVerdicts([field(1, red, { textCue: true }), field(2, grey)], parse)).toEqual([]);
    expect(fieldVerdicts([field(1, red, { shape: '2|2|2|2|false|false|0|400/normal/none' }), field(2, grey)], parse)).toEqual([]);
    expect(fieldVerdicts([field(1, grey), field(2, grey)], parse)).toEqual([]);
    expect(fieldVerdicts([field(1, red)], parse)).toEqual([]);
    // Two colours, neither red, as many of each: no telling which set is marked.
    expect(fieldVerdicts([field(1, 'rgb(0, 0, 255)'), field(2, grey)], parse)).toEqual([]);
  });

  it('takes red to orange, saturated, as the colour of an error', () => {
    expect(reddish([223, 48, 52])).toBe(true);
    expect(reddish([255, 120, 0])).toBe(true);
    expect(reddish([118, 118, 118])).toBe(false);
    expect(reddish([250, 225, 225])).toBe(false);
  });
});
