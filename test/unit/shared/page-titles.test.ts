import { describe, expect, it } from 'vitest';
import { MIN_PAGES_SHARING_TITLE, normaliseTitle, sharedTitles } from '../../../src/shared/page-titles.ts';

const page = (url: string, title: string | null) => ({ url, title, ref: url });

describe('titles shared across a crawl', () => {
  it('folds case, width, whitespace and surrounding punctuation', () => {
    expect(normaliseTitle('  Home  |  ACME ')).toBe('home | acme');
    expect(normaliseTitle('— Ｈｏｍｅ —')).toBe('home');
    expect(normaliseTitle('...')).toBe('');
  });

  it('reports a title shared by at least three distinct pages, largest group first', () => {
    const groups = sharedTitles([
      page('/a', 'Acme'),
      page('/b', 'ACME '),
      page('/c', 'acme'),
      page('/d', 'Contact'),
      page('/e', 'Contact'),
      page('/f', 'Untitled'),
      page('/g', 'untitled'),
      page('/h', 'Untitled'),
      page('/i', 'Untitled'),
    ]);
    expect(groups.map((g) => [g.title, g.pages.map((p) => p.url)])).toEqual([
      ['Untitled', ['/f', '/g', '/h', '/i']],
      ['Acme', ['/a', '/b', '/c']],
    ]);
    expect(MIN_PAGES_SHARING_TITLE).toBe(3);
  });

  it('shows the title as most of its pages write it, whatever the order', () => {
    expect(sharedTitles([page('/b', ' ACME '), page('/a', 'Acme'), page('/c', 'Acme')])[0]!.title).toBe('Acme');
    expect(sharedTitles([page('/a', 'Acme'), page('/b', 'ACME'), page('/c', 'ACME')])[0]!.title).toBe('ACME');
  });

  it('counts a URL once and leaves out pages without a title', () => {
    expect(sharedTitles([page('/a', 'Docs'), page('/a', 'Docs'), page('/b', 'Docs'), page('/c', null), page('/d', '  ')])).toEqual([]);
    expect(sharedTitles([page('/a', 'Docs'), page('/b', 'Docs')], 2)).toHaveLength(1);
  });
});
