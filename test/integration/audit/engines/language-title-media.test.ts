import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeEngine } from '../../../../src/audit/engines/axe/axe.engine.ts';
import type { ScanEngine } from '../../../../src/audit/engines/engine.ts';
import { languageEngine } from '../../../../src/audit/engines/language/language.engine.ts';
import { mediaEngine } from '../../../../src/audit/engines/media/media.engine.ts';
import { titleEngine } from '../../../../src/audit/engines/title/title.engine.ts';
import { LANGUAGE_GUIDES } from '../../../../src/shared/rules/language.ts';
import { MEDIA_GUIDES } from '../../../../src/shared/rules/media.ts';
import { TITLE_GUIDES } from '../../../../src/shared/rules/title.ts';
import { ofRule, openFixtureScanner, type FixtureScanner, type ScannedResult } from '../../../helpers/scan-fixture.ts';
import { makeGif } from '../../../helpers/gif.ts';

let scanner: FixtureScanner;

/** A mono 16-bit WAV: a 440 Hz tone, or silence. */
function wav(seconds: number, tone: boolean): Buffer {
  const rate = 8000;
  const n = Math.round(seconds * rate);
  const buf = Buffer.alloc(44 + n * 2);
  buf.write('RIFF', 0);
  buf.writeUInt32LE(36 + n * 2, 4);
  buf.write('WAVEfmt ', 8);
  buf.writeUInt32LE(16, 16);
  buf.writeUInt16LE(1, 20);
  buf.writeUInt16LE(1, 22);
  buf.writeUInt32LE(rate, 24);
  buf.writeUInt32LE(rate * 2, 28);
  buf.writeUInt16LE(2, 32);
  buf.writeUInt16LE(16, 34);
  buf.write('data', 36);
  buf.writeUInt32LE(n * 2, 40);
  if (tone) for (let i = 0; i < n; i++) buf.writeInt16LE(Math.round(Math.sin((2 * Math.PI * 440 * i) / rate) * 12000), 44 + i * 2);
  return buf;
}

beforeAll(async () => {
  scanner = await openFixtureScanner();
  const serve = (body: Buffer, type: string) => (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => {
    const range = /bytes=(\d+)-(\d*)/.exec(req.headers.range ?? '');
    if (range) {
      const start = Number(range[1]);
      const end = range[2] ? Number(range[2]) : body.length - 1;
      res.writeHead(206, { 'content-type': type, 'accept-ranges': 'bytes', 'content-range': `bytes ${start}-${end}/${body.length}`, 'content-length': end - start + 1 });
      res.end(body.subarray(start, end + 1));
      return;
    }
    res.writeHead(200, { 'content-type': type, 'accept-ranges': 'bytes', 'content-length': body.length });
    res.end(body);
  };
  scanner.server.route('/tone.wav', serve(wav(6, true), 'audio/wav'));
  scanner.server.route('/short-tone.wav', serve(wav(2, true), 'audio/wav'));
  scanner.server.route('/silence.wav', serve(wav(6, false), 'audio/wav'));
  scanner.server.route('/forever.gif', serve(makeGif({ frames: 4, delayCs: 50, loops: 0 }), 'image/gif'));
  scanner.server.route('/twice.gif', serve(makeGif({ frames: 4, delayCs: 50, loops: 1 }), 'image/gif'));
  scanner.server.route('/long-twice.gif', serve(makeGif({ frames: 4, delayCs: 100, loops: 1 }), 'image/gif'));
  scanner.server.route('/still.gif', serve(makeGif({ frames: 1, delayCs: 0 }), 'image/gif'));
  scanner.server.route('/captions.vtt', serve(Buffer.from('WEBVTT\n\n00:00.000 --> 00:05.000\n[Tone]\n'), 'text/vtt'));
});
afterAll(async () => {
  await scanner?.close();
});

const doc = (lang: string | null, body: string, title = 'Springfield Library opening hours') =>
  `<!doctype html><html${lang === null ? '' : ` lang="${lang}"`}><head><meta charset="utf-8"><title>${title}</title></head><body><main>${body}</main></body></html>`;

/** Rule id → outcome, per selector. */
function at(result: ScannedResult, ruleId: string): Record<string, string> {
  return Object.fromEntries(ofRule(result, ruleId).map((f) => [f.elementSelector, f.type]));
}

const ENGLISH =
  '<p>The library opens at nine in the morning and closes at six in the evening. Members can borrow up to ten books at a time, and they may renew them online if nobody else has asked for them.</p>' +
  '<p>Children under twelve should be accompanied by an adult. We are closed on public holidays, but the book drop outside the main entrance is always available for returns.</p>';
const FRENCH_SENTENCES =
  "La bibliothèque ouvre à neuf heures du matin et ferme à six heures du soir. Les membres peuvent emprunter jusqu'à dix livres à la fois, et ils peuvent les renouveler en ligne.";
const GERMAN = '<p>Die Bibliothek öffnet um neun Uhr morgens und schließt um sechs Uhr abends. Mitglieder können bis zu zehn Bücher ausleihen.</p>';

describe('language engine', () => {
  const scan = (html: string) => scanner.scan(html, { engines: [languageEngine] });

  it('confirms a page whose lang names another language than its text, for languages the detector knows or not', async () => {
    for (const lang of ['fr', 'da']) {
      const r = await scan(doc(lang, ENGLISH));
      const [f] = ofRule(r, 'lang-mismatch');
      expect(f, lang).toMatchObject({ type: 'confirmed', wcagCriterion: '3.1.1', elementSelector: 'html' });
      expect(f!.elementHtml).toBe(`<html lang="${lang}">`);
      expect(f!.failureSummary).toContain('reads as English');
      expect(f!.data).toMatchObject({ declared: lang, detected: 'en' });
      expect(String(f!.data.sample).length).toBeLessThanOrEqual(160);
    }
  });

  it('passes a page in its language, whatever the region subtag or case', async () => {
    for (const lang of ['en', 'en-GB', 'EN']) expect((await scan(doc(lang, ENGLISH))).findings, lang).toEqual([]);
  });

  it('leaves short pages, missing or invalid lang (axe rules), hidden text and code alone', async () => {
    expect((await scan(doc('nl', '<p>The Dutch word "gezellig" has no equivalent in English.</p>'))).findings).toEqual([]);
    expect((await scan(doc(null, ENGLISH))).findings).toEqual([]);
    expect((await scan(doc('foobar', ENGLISH))).findings).toEqual([]);
    expect((await scan(doc('fr', `<p>${FRENCH_SENTENCES}</p><div style="display:none">${ENGLISH}</div><pre>${ENGLISH.replace(/<\/?p>/g, '')}</pre>`))).findings).toEqual([]);
    expect((await scan(doc('fr', `<p>${FRENCH_SENTENCES}</p><div translate="no">${ENGLISH}</div>`))).findings).toEqual([]);
  });

  it('reads text marked with its own lang apart from the page, and checks it against that lang', async () => {
    // The English passages carry their own lang: the page's own text is French.
    const r = await scan(
      doc(
        'fr',
        `<p>${FRENCH_SENTENCES}</p><div lang="en" id="en-ok">${ENGLISH}</div>` +
          '<p lang="de" id="wrong-part">Children under twelve should be accompanied by an adult, and the book drop outside is always open for returns.</p>' +
          `<div lang="de" id="de-ok">${GERMAN}</div>`,
      ),
    );
    expect(ofRule(r, 'lang-mismatch')).toEqual([]);
    expect(at(r, 'lang-of-parts-mismatch')).toEqual({ '#wrong-part': 'needs_review' });
    expect(ofRule(r, 'lang-of-parts-mismatch')[0]!.wcagCriterion).toBe('3.1.2');
  });

  it('asks for review of a passage in another language without lang, not of the same passage with lang', async () => {
    const r = await scan(doc('en', `${ENGLISH}<p id="unmarked">${FRENCH_SENTENCES}</p><p lang="fr" id="marked">${FRENCH_SENTENCES}</p>`));
    expect(at(r, 'lang-change-unmarked')).toEqual({ '#unmarked': 'needs_review' });
    expect(ofRule(r, 'lang-change-unmarked')[0]!.failureSummary).toContain('reads as French');
  });

  it('confirms a long passage in another language, or a long run of a script the page language is not written in, without lang (issue 43)', async () => {
    const longFrench =
      `${FRENCH_SENTENCES} Les enfants de moins de douze ans doivent être accompagnés par un adulte. Nous sommes fermés les jours fériés, mais la boîte de retour devant l'entrée principale est toujours disponible pour les livres.`;
    const r = await scan(
      doc(
        'en',
        `${ENGLISH}<blockquote id="fr-long">${longFrench}</blockquote>` +
          '<p id="ar-long">The notice read: يرجى من جميع الزوار تسجيل الدخول عند مكتب الاستقبال قبل الدخول إلى المبنى الرئيسي in the lobby.</p>' +
          `<blockquote lang="fr" id="fr-marked">${longFrench}</blockquote>`,
      ),
    );
    expect(at(r, 'lang-change-unmarked')).toEqual({ '#fr-long': 'confirmed', '#ar-long': 'confirmed' });
    expect(ofRule(r, 'lang-change-unmarked').every((f) => !f.data.review)).toBe(true);
  });

  it('asks for review of short passages in another language or script inside a paragraph, not of names, terms or code', async () => {
    const r = await scan(
      doc(
        'en',
        `${ENGLISH}<p id="fr-quote">As Saint-Exupéry put it, “L’essentiel est invisible pour les yeux, on ne voit bien qu’avec le cœur”, and we agree.</p>` +
          '<p id="ru-quote">Tolstoy opens with «Все счастливые семьи похожи друг на друга» in his novel.</p>' +
          '<p id="he-run">The sign at the door said שלום עליכם to every visitor.</p>' +
          '<p id="ok-marked">As Saint-Exupéry put it, <q lang="fr">L’essentiel est invisible pour les yeux, on ne voit bien qu’avec le cœur</q>.</p>' +
          '<p id="ok-ru-marked">Tolstoy opens with <span lang="ru">«Все счастливые семьи похожи друг на друга»</span>.</p>' +
          '<p id="ok-terms">Let α and β be the angles; the café in Zürich served a naïve latte, c’est la vie. Run <code>print("Привет мир, как дела")</code> to test.</p>',
      ),
    );
    expect(at(r, 'lang-change-unmarked')).toEqual({ '#fr-quote': 'needs_review', '#ru-quote': 'needs_review', '#he-run': 'needs_review' });
    expect(ofRule(r, 'lang-change-unmarked').find((f) => f.elementSelector === '#ru-quote')!.failureSummary).toContain('Cyrillic');
  });

  it('finds right-to-left text laid out left to right, and left-to-right text forced right to left', async () => {
    const r = await scan(
      doc(
        'en',
        `${ENGLISH}<p lang="ar" id="ar-ltr">الإعفاء الإلكتروني من التأشيرة للزوار</p><p lang="ar" dir="rtl" id="ar-rtl">الإعفاء الإلكتروني من التأشيرة للزوار</p>` +
          '<p dir="rtl" id="en-rtl">Electronic visa waiver for visitors</p><p id="en-ltr">Electronic visa waiver for visitors</p>' +
          '<p lang="he" id="he-mixed">ההרשמה לכנס באתר Eventbrite נסגרת ביום חמישי</p>',
      ),
    );
    expect(at(r, 'text-direction-mismatch')).toEqual({ '#ar-ltr': 'needs_review', '#en-rtl': 'needs_review', '#he-mixed': 'needs_review' });
    expect(ofRule(r, 'text-direction-mismatch')[0]!.wcagCriterion).toBe('1.3.2');
  });
});

describe('title engine', () => {
  const scan = (title: string, path?: string, body = ENGLISH) => scanner.scan(doc('en', body, title), { engines: [titleEngine], path });

  it('confirms authoring-tool default titles', async () => {
    const [f] = ofRule(await scan('Untitled Document'), 'title-generic');
    expect(f).toMatchObject({ type: 'confirmed', wcagCriterion: '2.4.2' });
    expect(f!.elementHtml).toContain('<title>');
    expect(f!.data).toMatchObject({ title: 'Untitled Document', kind: 'placeholder' });
  });

  it('asks for review of file names and of "Home" off the home page, not on it', async () => {
    expect(ofRule(await scan('index.html'), 'title-generic')[0]).toMatchObject({ type: 'needs_review', data: { kind: 'file-name' } });
    expect(ofRule(await scan('Home', '/library/hours.html'), 'title-generic')[0]).toMatchObject({ type: 'needs_review' });
    expect((await scan('Home', '/')).findings).toEqual([]);
  });

  it('asks for review of a frame whose name says only that it is a frame, under 4.1.2, and passes named or hidden ones (issue 43)', async () => {
    const body = `${ENGLISH}<iframe id="f1" title="iframe" srcdoc="<p>Map</p>"></iframe><iframe id="f2" title="Map of the library" srcdoc="<p>Map</p>"></iframe>` +
      '<iframe id="f3" aria-label="frame 2" srcdoc="<p>Video</p>"></iframe><iframe id="f4" title="iframe" aria-hidden="true" srcdoc="<p>x</p>"></iframe><iframe id="f5" title="embed" style="display:none"></iframe>';
    const r = await scan('Library opening hours', undefined, body);
    expect(at(r, 'frame-title-generic')).toEqual({ '#f1': 'needs_review', '#f3': 'needs_review' });
    expect(ofRule(r, 'frame-title-generic')[0]).toMatchObject({ wcagCriterion: '4.1.2', data: { frameTitle: 'iframe', kind: 'frame-word' } });
    expect(r.findings.filter((f) => f.ruleId !== 'frame-title-generic')).toEqual([]);
  });

  it('asks for review of a title sharing no word with the page, and passes titles that describe it', async () => {
    expect(ofRule(await scan('Quarterly tax filing'), 'title-unrelated')[0]).toMatchObject({ type: 'needs_review', wcagCriterion: '2.4.2' });
    expect((await scan('Library opening hours')).findings).toEqual([]);
  });
});

describe('media engine', () => {
  const scan = (body: string, engines: ScanEngine[] = [mediaEngine]) => scanner.scan(doc('en', body), { engines });
  const missing = (r: ScannedResult, ruleId: string) => ofRule(r, ruleId)[0]?.data.missing;

  it('asks for a transcript of audio with sound, and not when one is linked or written next to it, or when it is silent', async () => {
    const bare = await scan('<h1>Interview</h1><audio controls src="/tone.wav" id="a"></audio>');
    expect(at(bare, 'audio-transcript-missing')).toEqual({ '#a': 'needs_review' });
    expect(ofRule(bare, 'audio-transcript-missing')[0]!).toMatchObject({ wcagCriterion: '1.2.1', wcagCriteria: ['1.2.1'], data: { audio: 'yes' } });
    expect(missing(bare, 'audio-transcript-missing')).toEqual(['a transcript (text of what is said and heard)']);
    expect((await scan('<audio controls src="/tone.wav"></audio> <a href="/t.html">Read the transcript</a>')).findings).toEqual([]);
    expect((await scan(`<audio controls src="/tone.wav"></audio>${ENGLISH}`)).findings).toEqual([]);
    expect((await scan('<audio controls src="/silence.wav"></audio>')).findings).toEqual([]);
    // An audio element without controls that does not play is not on the page at all.
    expect((await scan('<audio src="/tone.wav"></audio>')).findings).toEqual([]);
  });

  it('asks for captions and audio description of video with sound, replacing axe\'s video-caption, and for an alternative of video without sound', async () => {
    const r = await scan('<video controls src="/tone.wav" id="v" width="320" height="180"></video>', [axeEngine, mediaEngine]);
    expect(at(r, 'video-captions-missing')).toEqual({ '#v': 'needs_review' });
    expect(at(r, 'video-audio-description-missing')).toEqual({ '#v': 'needs_review' });
    expect(ofRule(r, 'video-audio-description-missing')[0]!.wcagCriterion).toBe('1.2.5');
    // Nothing names or describes it: 1.1.1's descriptive identification is missing too (issue 43).
    expect(ofRule(r, 'video-captions-missing')[0]!.wcagCriteria).toEqual(['1.2.2', '1.1.1']);
    const named = await scan('<video controls src="/tone.wav" title="Our launch event" width="320" height="180"></video>');
    expect(ofRule(named, 'video-captions-missing')[0]!.wcagCriteria).toEqual(['1.2.2']);
    expect(ofRule(r, 'video-caption')).toEqual([]);
    const captioned = await scan('<video controls src="/tone.wav" width="320" height="180"><track kind="captions" src="/captions.vtt" srclang="en"></video><a href="/t.html">Transcript</a>');
    expect(captioned.findings).toEqual([]);
    const silent = await scan('<video controls src="/silence.wav" id="s" width="320" height="180"></video>', [axeEngine, mediaEngine]);
    expect(at(silent, 'video-only-alternative-missing')).toEqual({ '#s': 'needs_review' });
    expect(ofRule(silent, 'video-captions-missing')).toEqual([]);
    expect(ofRule(silent, 'video-caption')).toEqual([]);
    expect((await scan('<video controls src="/tone.wav" style="display:none"></video>')).findings).toEqual([]);
  });

  it('puts played media back as it was', async () => {
    let state: unknown;
    const spy: ScanEngine = {
      id: 'spy',
      stage: 'CustomChecks',
      async run({ page }) {
        state = await page.evaluate(() => {
          const v = document.querySelector('video')!;
          return { paused: v.paused, muted: v.muted, time: v.currentTime, rate: v.playbackRate };
        });
        return { findings: [] };
      },
    };
    await scan('<video controls src="/tone.wav" width="320" height="180"></video>', [mediaEngine, spy]);
    expect(state).toEqual({ paused: true, muted: false, time: 0, rate: 1 });
  });

  it('confirms sound that starts by itself with no control anywhere, and not with controls, a short clip, muted, or other controls on the page', async () => {
    const r = await scan('<audio autoplay src="/tone.wav" id="auto"></audio><p>Welcome to our shop.</p>');
    expect(at(r, 'autoplay-audio-no-control')).toEqual({ '#auto': 'confirmed' });
    expect(ofRule(r, 'autoplay-audio-no-control')[0]!.wcagCriterion).toBe('1.4.2');
    for (const body of [
      '<audio autoplay controls src="/tone.wav"></audio><a href="/t.html">Transcript</a>',
      '<audio autoplay src="/short-tone.wav"></audio>',
      '<audio autoplay muted src="/tone.wav"></audio>',
      '<audio autoplay src="/tone.wav" id="x"></audio><button type="button">Stop the music</button>',
      '<audio autoplay src="/silence.wav"></audio>',
    ]) {
      expect(ofRule(await scan(body), 'autoplay-audio-no-control'), body).toEqual([]);
    }
  });

  it('confirms an animated GIF that moves past five seconds with nothing to stop it; asks for review beside a pause button; passes still, short and tiny ones', async () => {
    const r = await scan(`
      <p><img id="forever" src="/forever.gif" alt="A tree" width="80" height="80"></p>
      <p><img id="long" src="/long-twice.gif" alt="A train" width="80" height="80"></p>
      <div><img id="paused" src="/forever.gif?b" alt="A cat" width="80" height="80"><button type="button">Pause animation</button></div>
      <p><img id="short" src="/twice.gif" alt="A dog" width="80" height="80"> <img id="still" src="/still.gif" alt="A bird" width="80" height="80">
        <img id="tiny" src="/forever.gif?c" alt="" width="16" height="16"></p>`);
    expect(at(r, 'animated-image-no-pause')).toEqual({ '#forever': 'confirmed', '#long': 'confirmed', '#paused': 'needs_review' });
    const forever = ofRule(r, 'animated-image-no-pause').find((f) => f.elementSelector === '#forever')!;
    expect(forever.wcagCriterion).toBe('2.2.2');
    expect(forever.failureSummary).toContain('loops for ever');
    expect(forever.data).toMatchObject({ frames: 4, cycleMs: 2000, plays: null });
    expect(ofRule(r, 'animated-image-no-pause').find((f) => f.elementSelector === '#long')!.failureSummary).toContain('moves for 8.0 s');
  });

  it('asks for a transcript next to links to audio and video files', async () => {
    const r = await scan('<p><a href="/interview.mp3" id="mp3">Listen to the interview</a></p><p><a href="/interview.mov" id="mov">Watch the interview</a></p>');
    expect(at(r, 'media-link-alternative-missing')).toEqual({ '#mp3': 'needs_review', '#mov': 'needs_review' });
    expect(ofRule(r, 'media-link-alternative-missing').map((f) => f.wcagCriterion).sort()).toEqual(['1.2.1', '1.2.3']);
    expect((await scan('<p><a href="/interview.mp3">Listen to the interview</a> or <a href="/interview.html">read the transcript</a></p>')).findings).toEqual([]);
  });
});

describe('guides', () => {
  it('name who is affected and how to fix it, for every rule', () => {
    const rules = [
      'lang-mismatch',
      'lang-of-parts-mismatch',
      'lang-change-unmarked',
      'text-direction-mismatch',
      'title-generic',
      'title-unrelated',
      'frame-title-generic',
      'video-captions-missing',
      'video-audio-description-missing',
      'video-only-alternative-missing',
      'audio-transcript-missing',
      'media-link-alternative-missing',
      'autoplay-audio-no-control',
      'animated-image-no-pause',
    ];
    const all = { ...LANGUAGE_GUIDES, ...TITLE_GUIDES, ...MEDIA_GUIDES };
    for (const r of rules) expect(all[r]?.who && all[r]?.fix, r).toBeTruthy();
  });
});
