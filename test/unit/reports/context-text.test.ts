import { describe, expect, it } from 'vitest';
import { contextText, stateText, viewportText } from '../../../src/reports/context-text.ts';

describe('state and viewport texts of the reports', () => {
  it('names the interaction that revealed an issue', () => {
    expect(stateText({ action: 'click', target: '#menu-button', label: 'Menu' })).toBe('after click on \u201cMenu\u201d (#menu-button)');
    expect(stateText({ action: 'click', target: '#t', label: '' })).toBe('after click (#t)');
    expect(stateText(null)).toBeNull();
    // A page's long label is shortened; whitespace folded.
    const long = stateText({ action: 'click', target: '#x', label: `A\n${'b'.repeat(500)}` })!;
    expect(long.length).toBeLessThan(120);
    expect(long).not.toContain('\n');
  });

  it('names the viewport, and nothing when there is one', () => {
    expect(viewportText('mobile')).toBe('mobile (390 \u00d7 844)');
    expect(viewportText('desktop')).toBe('desktop');
    expect(viewportText(1024)).toBe('1024 px wide');
    expect(viewportText(null)).toBeNull();
  });

  it('joins both', () => {
    expect(contextText({ state: { action: 'click', target: '#m', label: 'Menu' }, viewport: 'mobile' })).toBe('after click on \u201cMenu\u201d (#m), at mobile (390 \u00d7 844)');
    expect(contextText({ state: null, viewport: 800 })).toBe('at 800 px wide');
    expect(contextText({ state: null, viewport: null })).toBeNull();
  });
});
