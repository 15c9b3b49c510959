import { describe, expect, it } from 'vitest';
import { functionWordShares, judgeLanguage, proseOnly, windows } from '../../../../../src/audit/engines/language/detect.ts';
import { detectorCodesFor, expectedScripts, primarySubtag, subtagOf } from '../../../../../src/audit/engines/language/tags.ts';

const ENGLISH =
  'The library opens at nine in the morning and closes at six in the evening. Members can borrow up to ten books at a time, and they may renew them online if nobody else has asked for them. ' +
  'Children under twelve should be accompanied by an adult. We are closed on public holidays, but the book drop outside the main entrance is always available for returns.';
const FRENCH =
  "La bibliothèque ouvre à neuf heures du matin et ferme à six heures du soir. Les membres peuvent emprunter jusqu'à dix livres à la fois, et ils peuvent les renouveler en ligne si personne ne les a demandés. " +
  "Les enfants de moins de douze ans doivent être accompagnés par un adulte. Nous sommes fermés les jours fériés, mais la boîte de retour devant l'entrée principale est toujours disponible.";
const GERMAN =
  'Die Bibliothek öffnet um neun Uhr morgens und schließt um sechs Uhr abends. Mitglieder können bis zu zehn Bücher auf einmal ausleihen und sie online verlängern, wenn niemand sonst sie vorgemerkt hat. ' +
  'Kinder unter zwölf Jahren sollten von einem Erwachsenen begleitet werden. An Feiertagen ist die Bibliothek geschlossen, aber der Rückgabekasten am Haupteingang steht immer zur Verfügung.';
const DANISH =
  'Biblioteket åbner klokken ni om morgenen og lukker klokken seks om aftenen. Medlemmer kan låne op til ti bøger ad gangen, og de kan forny dem på nettet, hvis ingen andre har bestilt dem. ' +
  'Børn under tolv år skal være ledsaget af en voksen. Vi har lukket på helligdage, men afleveringskassen ved hovedindgangen er altid åben for aflevering af bøger.';

describe('language tags', () => {
  it('takes the primary subtag, lower-cased, and ignores what is not a language', () => {
    expect(primarySubtag('en-US')).toBe('en');
    expect(primarySubtag('EN')).toBe('en');
    expect(primarySubtag('zh_Hant_TW')).toBe('zh');
    expect(primarySubtag('i-lux')).toBeNull();
    expect(primarySubtag('foobar')).toBeNull();
    expect(primarySubtag('')).toBeNull();
    expect(primarySubtag('zxx')).toBeNull();
    expect(primarySubtag(null)).toBeNull();
  });

  it('maps subtags to the detector codes, with macrolanguages, aliases and confusable neighbours', () => {
    const known = ['eng', 'fra', 'bos', 'hrv', 'srp', 'ind', 'zlm', 'arb', 'cmn'];
    expect([...detectorCodesFor('en', known)]).toEqual(['eng']);
    expect([...detectorCodesFor('hr', known)].sort()).toEqual(['bos', 'hrv', 'srp']);
    expect(detectorCodesFor('ms', known).has('ind')).toBe(true);
    expect(detectorCodesFor('ar', known).has('arb')).toBe(true);
    expect(detectorCodesFor('da', known).size).toBe(0);
    expect(subtagOf('eng')).toBe('en');
    expect(subtagOf('arb')).toBe('ar');
    expect(subtagOf('cmn')).toBe('zh');
  });

  it('knows the scripts of single-script languages and honours script subtags', () => {
    expect(expectedScripts('ja')).toEqual(['Han', 'Kana']);
    expect(expectedScripts('ru')).toEqual(['Cyrillic']);
    expect(expectedScripts('sr-Latn')).toEqual(['Latin']);
    expect(expectedScripts('sr')).toBeNull();
    expect(expectedScripts('en')).toEqual(['Latin']);
  });
});

describe('text preparation', () => {
  it('drops identifiers, addresses and numbers, keeps prose', () => {
    expect(proseOnly('Call run_cell() or InteractiveShell.run_cell at https://x.org/a, or mail a@b.io; see %magic and --help 42 times.')).toBe('Call or at or mail see and times.');
  });

  it('cuts text into windows at spaces', () => {
    const w = windows(ENGLISH, 100, 10);
    expect(w.length).toBeGreaterThan(2);
    expect(w.join(' ').replace(/\s+/g, ' ')).toBe(ENGLISH.replace(/\s+/g, ' '));
  });

  it('counts each language\'s own function words', () => {
    expect(functionWordShares(ENGLISH).shares.eng).toBeGreaterThan(0.12);
    expect(functionWordShares(FRENCH).shares.fra).toBeGreaterThan(0.12);
    expect(functionWordShares(FRENCH).shares.eng).toBeLessThan(0.03);
  });
});

describe('judging the language of a text', () => {
  it('finds text in its declared language a match, whatever the region or case of the tag', () => {
    expect(judgeLanguage('en', ENGLISH, { scope: 'page' }).kind).toBe('match');
    expect(judgeLanguage('EN-gb', ENGLISH, { scope: 'page' }).kind).toBe('match');
    expect(judgeLanguage('fr-CA', FRENCH, { scope: 'page' }).kind).toBe('match');
    expect(judgeLanguage('de', GERMAN, { scope: 'page' }).kind).toBe('match');
  });

  it('confirms a long text in another major language', () => {
    const v = judgeLanguage('fr', ENGLISH, { scope: 'page' });
    expect(v).toMatchObject({ kind: 'mismatch', outcome: 'confirmed', declared: 'fr', detected: { code: 'eng', subtag: 'en' } });
    expect(judgeLanguage('en', GERMAN, { scope: 'page' })).toMatchObject({ kind: 'mismatch', outcome: 'confirmed', detected: { subtag: 'de' } });
  });

  it('confirms English under a language the detector does not know (Danish), but cannot name Danish under English', () => {
    expect(judgeLanguage('da', ENGLISH, { scope: 'page' })).toMatchObject({ kind: 'mismatch', outcome: 'confirmed', detected: { subtag: 'en' } });
    // Danish is not in the detector: it may at most say the text is not English.
    const v = judgeLanguage('en', DANISH, { scope: 'page' });
    if (v.kind === 'mismatch') expect(v.outcome).toBe('needs_review');
  });

  it('never claims a mismatch for Danish text tagged Danish, nor for English tagged as an English-like language', () => {
    expect(judgeLanguage('da', DANISH, { scope: 'page' }).kind).not.toBe('mismatch');
    expect(judgeLanguage('sco', ENGLISH, { scope: 'page' }).kind).not.toBe('mismatch');
  });

  it('gives no verdict on short text, and only a review on text under 250 letters', () => {
    expect(judgeLanguage('nl', 'The Dutch word "gezellig" has no equivalent in English.', { scope: 'page' })).toMatchObject({ kind: 'undetermined', reason: 'too-short' });
    const part = judgeLanguage('fr', 'literally it means that he went to bed early, and that is what they say about it.', { scope: 'part' });
    expect(part).toMatchObject({ kind: 'mismatch', outcome: 'needs_review' });
  });

  it('never confirms when asked for review only (passages without lang)', () => {
    expect(judgeLanguage('fr', ENGLISH, { scope: 'part', reviewOnly: true })).toMatchObject({ kind: 'mismatch', outcome: 'needs_review' });
  });

  it('tells a page in a single-script language by its script', () => {
    const v = judgeLanguage('ja', ENGLISH, { scope: 'page' });
    expect(v).toMatchObject({ kind: 'mismatch', outcome: 'confirmed', evidence: { byScript: true } });
    const ru = 'Библиотека открывается в девять часов утра и закрывается в шесть часов вечера. Читатели могут брать до десяти книг одновременно и продлевать их через интернет.';
    expect(judgeLanguage('ru', ru, { scope: 'page' }).kind).toBe('match');
    expect(judgeLanguage('en', ru, { scope: 'page' })).toMatchObject({ kind: 'mismatch', detected: { subtag: 'ru' } });
  });

  it('tells Japanese from Chinese by kana, and does not use trigrams on Han text', () => {
    const ja = '図書館は朝九時に開き、夕方六時に閉まります。会員は一度に十冊まで本を借りることができ、ほかの人が予約していなければオンラインで延長できます。十二歳未満の子どもは大人と一緒に来てください。祝日は休館ですが、正面入口の返却ポストはいつでも利用できます。'.repeat(2);
    expect(judgeLanguage('ja', ja, { scope: 'page' }).kind).toBe('match');
    expect(judgeLanguage('zh', ja, { scope: 'page' })).toMatchObject({ kind: 'mismatch', detected: { subtag: 'ja' } });
  });

  it('stays silent on mixed scripts and on text with too little prose, like code', () => {
    const code = 'x = foo_bar(1) ; self.run_cell(raw_cell, store_history=False) ; InteractiveShell.instance() ; %timeit np.dot(a, b) '.repeat(10);
    expect(judgeLanguage('fr', code, { scope: 'page' }).kind).toBe('undetermined');
    expect(judgeLanguage('xx-invalid-', ENGLISH, { scope: 'page' }).kind).not.toBe('mismatch');
  });
});
