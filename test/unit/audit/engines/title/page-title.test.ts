import { describe, expect, it } from 'vitest';
import { duplicateTitles, genericFrameTitle, genericTitle, isHomePath, normaliseTitle, unrelatedTitle } from '../../../../../src/audit/engines/title/title.ts';

describe('generic page titles', () => {
  const url = 'https://example.org/services/parking.html';

  it('confirms authoring-tool defaults and placeholders, whatever the case or trailing punctuation', () => {
    for (const t of ['Untitled Document', 'untitled', 'Insert title here', 'Document', 'React App', 'Vite + React + TS', 'New Page 1', 'Lorem ipsum dolor sit amet', '  Page   Title. ']) {
      expect(genericTitle(t, url), t).toMatchObject({ rule: 'title-generic', outcome: 'confirmed' });
    }
  });

  it('asks for review of vague words, file names, addresses and titles without letters', () => {
    expect(genericTitle('index.html', url)).toMatchObject({ outcome: 'needs_review', kind: 'file-name' });
    expect(genericTitle('report_2023.PDF', url)).toMatchObject({ kind: 'file-name' });
    expect(genericTitle('https://example.org/a', url)).toMatchObject({ kind: 'url' });
    expect(genericTitle('localhost:3000', url)).toMatchObject({ kind: 'url' });
    expect(genericTitle('Test page', url)).toMatchObject({ kind: 'vague' });
    expect(genericTitle('— | —', url)).toMatchObject({ kind: 'no-letters' });
  });

  it('accepts "Home" on the home page only', () => {
    expect(genericTitle('Home', 'https://example.org/')).toBeNull();
    expect(genericTitle('Home', 'https://example.org/index.html')).toBeNull();
    expect(genericTitle('Welcome', 'https://example.org/fr/')).toBeNull();
    expect(genericTitle('Home', url)).toMatchObject({ outcome: 'needs_review', kind: 'home-word' });
    expect(isHomePath('https://example.org/about/')).toBe(false);
  });

  it('leaves descriptive titles and empty ones (axe document-title) alone', () => {
    for (const t of ['Clementine harvesting season', 'Opening hours – Springfield Library', 'Document management – Acme', 'Title IX compliance', '']) {
      expect(genericTitle(t, url), t).toBeNull();
    }
  });
});

describe('titles unrelated to their page', () => {
  const text = 'Clementines will be ready to harvest from late October through February. Order early to get yours.';

  it('asks for review when no topic word of the title appears on the page', () => {
    expect(unrelatedTitle('First title is incorrect', text)).toMatchObject({ rule: 'title-unrelated', outcome: 'needs_review' });
  });

  it('matches words by their stem, ignoring case, accents and stop words', () => {
    expect(unrelatedTitle('Clementine harvesting season', text)).toBeNull();
    expect(unrelatedTitle('Apple HARVESTING', text)).toBeNull();
    expect(unrelatedTitle('Récolte', 'la recolte des clementines commence en octobre et finit en fevrier cette annee')).toBeNull();
  });

  it('says nothing on pages with too little text or titles in scripts without spaces', () => {
    expect(unrelatedTitle('Something else', 'Sign in')).toBeNull();
    expect(unrelatedTitle('東京の天気', text)).toBeNull();
  });
});

describe('duplicate titles across a crawl', () => {
  it('groups distinct pages by normalised, case-folded title, first spelling kept', () => {
    const dup = duplicateTitles([
      { url: 'https://x.org/a', title: 'Acme  Widgets' },
      { url: 'https://x.org/b', title: 'acme widgets ' },
      { url: 'https://x.org/a#top', title: 'Acme Widgets' },
      { url: 'https://x.org/c', title: 'Contact – Acme' },
      { url: 'https://x.org/d', title: '' },
      { url: 'https://x.org/e', title: null },
      { url: 'https://x.org/f', title: '  ' },
    ]);
    expect([...dup.entries()]).toEqual([['Acme Widgets', ['https://x.org/a', 'https://x.org/b']]]);
  });

  it('does not count the same page twice', () => {
    expect(duplicateTitles([{ url: 'https://x.org/a', title: 'A' }, { url: 'https://x.org/a#b', title: 'A' }]).size).toBe(0);
  });

  it('normalises whitespace and Unicode forms', () => {
    expect(normaliseTitle('  Caf\u0065\u0301\u00a0 menu ')).toBe('Café menu');
  });
});

describe('frame names that do not describe the frame (H64)', () => {
  it('flags names that only say "frame", placeholders, file names and addresses', () => {
    for (const t of ['iframe', 'IFrame 2', 'frame_1', 'Embedded content', 'widget', 'Untitled', 'about:blank', 'title of iframe']) expect(genericFrameTitle(t), t).toBe('frame-word');
    expect(genericFrameTitle('map.html')).toBe('file-name');
    expect(genericFrameTitle('https://www.youtube.com/embed/xyz')).toBe('url');
    expect(genericFrameTitle('1234')).toBe('no-letters');
  });

  it('passes names that say what the frame holds', () => {
    for (const t of ['Map of the library', 'YouTube video player', 'Payment form', 'Contact form widget', 'Embedded map of Springfield', '']) expect(genericFrameTitle(t), t).toBeNull();
  });
});
