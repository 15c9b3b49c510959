import { describe, expect, it } from 'vitest';
import { isNotFoundView } from '../../../../src/audit/links/rendered-view.ts';

describe('an app\'s rendered "not found" view', () => {
  const view = (heading: string, title = 'Shop', words = 20) => ({ heading, title, words });

  it('is one when its main heading or a part of its title says so and it shows little', () => {
    for (const h of ['Page not found', 'Not Found', '404', 'Error 404', '404 - Page not found', 'Product not found', 'Oops! We can’t find that page', 'This page does not exist', 'No such page']) {
      expect(isNotFoundView(view(h.replace('’', "'"))), h).toBe(true);
    }
    expect(isNotFoundView(view('', 'Not found | Shop'))).toBe(true);
    expect(isNotFoundView(view('Oops', '404 – Shop'))).toBe(true);
  });

  it('is conservative: content, or a heading that only mentions it, keeps the page', () => {
    expect(isNotFoundView(view('Page not found', 'Shop', 500))).toBe(false);
    for (const h of ['Products', 'How to fix 404 errors on your site', 'Not found what you need? Ask us', 'Lost and found', 'Found 404 results for "shoes"', '']) {
      expect(isNotFoundView(view(h)), h).toBe(false);
    }
    expect(isNotFoundView(view('Home', 'Shop – the not found collection of rare books'))).toBe(false);
  });
});
