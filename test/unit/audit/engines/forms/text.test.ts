import { describe, expect, it } from 'vitest';
import {
  containsWords,
  explainsAsterisk,
  labelInName,
  labelWords,
  nonDescriptiveLabel,
  normaliseLabel,
  requiredMarker,
} from '../../../../../src/audit/engines/forms/text.ts';

describe('label normalisation', () => {
  it.each([
    ['  ACT   rules  ', 'act rules'],
    ['Next…', 'next'],
    ['>>> ** Submit ** <<<', 'submit'],
    ['💡 Submit 💡', 'submit'],
    ['compose \u00a0\u00a0\n email', 'compose email'],
    ['non-standard', 'nonstandard'],
    ['e\u2011mail', 'email'],
    ['Name — required', 'name required'],
    ['11×3=33', '11 3 33'],
    ['123.555.0123', '123 555 0123'],
    ['Ｅｍａｉｌ', 'email'],
    ['* : -', ''],
  ])('%j → %j', (raw, norm) => expect(normaliseLabel(raw)).toBe(norm));

  it('finds whole words in order only', () => {
    expect(containsWords(labelWords('Next Page in the list'), labelWords('Next page'))).toBe(true);
    expect(containsWords(labelWords('Discover Italy'), labelWords('Discover It'))).toBe(false);
    expect(containsWords(labelWords('how are you'), labelWords('you how are'))).toBe(false);
    expect(containsWords(labelWords('Download the specification'), labelWords('Download specification'))).toBe(false);
    expect(containsWords([], [])).toBe(true);
  });
});

describe('label in name (ACT 2ee8b8)', () => {
  it.each([
    ['ACT rules', 'ACT rules'],
    ['ACT rules', '  ACT   rules  '],
    ['ACT rules', 'act Rules'],
    ['Next Page', 'Next Page in the list'],
    ['Hello world', 'Hello world'],
    ['Next…', 'Next'],
    ['>>> ** Submit ** <<<', '💡 Submit 💡'],
    ['Search by date (YYYY-MM-DD)', 'Search by date'],
    ['Email *', 'Email address'],
    ['Email (required)', 'Your email'],
    ['nonstandard', 'non-standard'],
  ])('passes %j named %j', (visible, name) => expect(labelInName(visible, name).verdict).toBe('pass'));

  it.each([
    ['ACT rules', 'WCAG'],
    ['The full label', 'the full'],
    ['Discover It', 'Discover Italy'],
    ['justice', 'just ice'],
    ['W C A G', 'WCAG'],
    ['Proof of 2×2=4', 'Proof of two multiplied by two is four'],
    ['you how are', 'how are you'],
    ['Download specification', 'Download the specification'],
    ['2021', '20 21'],
    ['2 0 2 3', 'two zero two three'],
    ['Download gizmo specification', 'Download specification'],
  ])('fails %j named %j', (visible, name) => expect(labelInName(visible, name).verdict).toBe('fail'));

  it('does not judge a one-character symbol, no text, or an abbreviation the name spells out', () => {
    expect(labelInName('X', 'anything')).toEqual({ verdict: 'skip', why: 'single-character' });
    expect(labelInName('', 'Find')).toEqual({ verdict: 'skip', why: 'no-text' });
    expect(labelInName('…', 'Find')).toEqual({ verdict: 'skip', why: 'no-text' });
    expect(labelInName('University Ave.', 'University Avenue')).toEqual({ verdict: 'skip', why: 'abbreviation' });
  });

  it('leaves long visible text (a card) to review', () => {
    const visible = 'Our new report on accessibility in public sector websites across Europe in 2025';
    expect(labelInName(visible, 'Read the report').verdict).toBe('review');
  });

  it('leaves numbers-and-symbols text whose numbers the name spells out in order to review', () => {
    expect(labelInName('€100 / €1', 'Previously 100, now 1 euro').verdict).toBe('review');
    expect(labelInName('2021', '20 21').verdict).toBe('fail');
    expect(labelInName('123.555.0123', '1 2 3. 5 5 5. 0 1 2 3').verdict).toBe('fail');
  });

  it('gives the normalised texts it compared', () => {
    expect(labelInName('Ready…', 'Go')).toEqual({ verdict: 'fail', visible: 'ready', name: 'go' });
  });
});

describe('descriptive labels and required markers', () => {
  it.each([
    ['*', 'no-words'],
    [': -', 'no-words'],
    ['Field', 'generic'],
    ['Enter text', 'generic'],
    ['Info:', 'generic'],
    ['Input', 'generic'],
  ])('%j is not descriptive (%s)', (name, why) => expect(nonDescriptiveLabel(name)).toBe(why));

  it.each(['First name', 'Date of birth', 'Email address', 'Search', ''])('%j is left alone', (name) => expect(nonDescriptiveLabel(name)).toBeUndefined());

  it('reads required markers', () => {
    expect(requiredMarker('Name *')).toBe('asterisk');
    expect(requiredMarker('Name (required)')).toBe('word');
    expect(requiredMarker('Mandatory field')).toBe('word');
    expect(requiredMarker('Name')).toBeUndefined();
    expect(requiredMarker('Requirements')).toBeUndefined();
  });

  it('recognises an explanation of the asterisk', () => {
    expect(explainsAsterisk('Fields marked * are required')).toBe(true);
    expect(explainsAsterisk('* mandatory')).toBe(true);
    expect(explainsAsterisk('Name *')).toBe(false);
  });
});
