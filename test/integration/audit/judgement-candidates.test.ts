import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeEngine } from '../../../src/audit/engines/axe/axe.engine.ts';
import { JUDGEMENT_CAPS } from '../../../src/shared/judgement.ts';
import { openFixtureScanner, type FixtureScanner } from '../../helpers/scan-fixture.ts';

const GIF = 'data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7';

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Opening hours – Springfield Library</title></head><body>
<nav><a href="/">Home</a> <a href="/about">About us</a></nav>
<main><h1>Opening hours</h1>
<p>We open at nine. <a href="/holidays">Click here</a> for the holidays.</p>
<p><img id="vague" src="/img/IMG_0042.jpg" alt="picture" width="100" height="80"></p>
<p><img id="decorative" src="${GIF}" alt="" width="100" height="80"><img id="tiny" src="${GIF}" alt="dot" width="2" height="2"></p>
<p><a href="/logo"><img id="axe-fails" src="${GIF}" width="100" height="80"></a></p>
<form><label for="q">Field 1</label><input id="q" placeholder="e.g. 2024"></form>
<p>The library's motto is <i>carpe diem quam minimum credula postero</i>, as they say.</p>
<p>Press the round green button on the right to continue.</p>
<h2>Section</h2><p>About the reading room.</p>
<div style="display:none"><a href="/hidden">Hidden link</a></div>
</main></body></html>`;

describe('candidates of AI-assisted judgement', () => {
  let scanner: FixtureScanner;
  beforeAll(async () => {
    scanner = await openFixtureScanner();
  });
  afterAll(async () => scanner?.close());

  it('collects nothing unless asked (offline)', async () => {
    const r = await scanner.scan(PAGE, { engines: [axeEngine] });
    expect(r.candidates).toBeUndefined();
  });

  it('collects each kind with its context, and skips what is hidden, tiny, empty or already decided', async () => {
    const r = await scanner.scan(PAGE, { engines: [axeEngine], judgementCandidates: true });
    const c = r.candidates!;
    expect(c.pageLang).toBe('en');
    const of = (kind: string) => c.candidates.filter((x) => x.kind === kind);

    expect(of('title').map((x) => x.text)).toEqual(['Opening hours – Springfield Library']);
    expect(of('title')[0]!.context).toContain('Main heading: Opening hours');

    expect(of('alt').map((x) => x.text)).toEqual(['picture']);
    expect(of('alt')[0]!.selector).toContain('vague');
    expect(of('alt')[0]!.extra).toMatchObject({ file: 'IMG_0042.jpg' });

    const links = of('link');
    expect(links.map((x) => x.text)).toEqual(['Home', 'About us', 'Click here']);
    expect(links.find((x) => x.text === 'Click here')!.context).toBe('We open at nine. Click here for the holidays.');
    expect(links.find((x) => x.text === 'Click here')!.extra).toMatchObject({ destination: '/holidays' });

    expect(of('heading').map((x) => x.text)).toEqual(['Opening hours', 'Section']);
    expect(of('heading')[1]!.context).toBe('About the reading room.');

    expect(of('label').map((x) => [x.text, x.extra?.placeholder])).toEqual([['Field 1', 'e.g. 2024']]);

    expect(of('lang').map((x) => x.text)).toContain('carpe diem quam minimum credula postero');
    expect(of('lang')[0]!.extra).toMatchObject({ pageLang: 'en' });

    expect(of('sensory').map((x) => x.text)).toEqual(['Press the round green button on the right to continue.']);

    // The image axe already failed (no alt, in a link) is not asked about; nor is the link axe failed.
    expect(JSON.stringify(c.candidates)).not.toContain('axe-fails');
    expect(JSON.stringify(c.candidates)).not.toContain('Hidden link');
  });

  it('bounds the candidates per kind and the length of every text', async () => {
    const links = Array.from({ length: 200 }, (_, i) => `<li><a href="/p${i}">Link ${i} ${'word '.repeat(100)}</a></li>`).join('');
    const r = await scanner.scan(`<!doctype html><html lang="en"><head><title>${'T'.repeat(1000)}</title></head><body><main><ul>${links}</ul></main></body></html>`, {
      engines: [axeEngine],
      judgementCandidates: true,
    });
    const c = r.candidates!.candidates;
    expect(c.filter((x) => x.kind === 'link')).toHaveLength(JUDGEMENT_CAPS.perKind.link);
    for (const x of c) {
      expect(x.text.length).toBeLessThanOrEqual(JUDGEMENT_CAPS.text);
      expect(x.context.length).toBeLessThanOrEqual(JUDGEMENT_CAPS.context);
      expect(x.html.length).toBeLessThanOrEqual(JUDGEMENT_CAPS.html);
    }
  });

  it('survives a page that breaks its own DOM APIs', async () => {
    const r = await scanner.scan(
      `<!doctype html><html lang="en"><head><title>Hostile</title></head><body><p><a href="/x">Go</a></p>
       <script>Element.prototype.closest = function () { throw new Error('no'); }; document.querySelectorAll = function () { throw new Error('no'); };</script></body></html>`,
      { engines: [], judgementCandidates: true },
    );
    expect(r.kind).toBe('scanned');
    expect(r.candidates).toBeUndefined();
  });
});
