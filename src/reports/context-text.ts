/**
 * How an issue's context reads in the reports: the interaction state that revealed it and the
 * viewport it was found at. The texts come partly from the page (a button's label, a selector):
 * they are shortened here and printed as text (the workbook passes them through `safeCell`).
 */
import type { InteractionState, ViewportName } from '../shared/contracts.ts';

const short = (s: string, max: number) => {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > max ? `${t.slice(0, max - 1)}\u2026` : t;
};

/** e.g. `after click on “Menu” (#menu-button)`; null for the page as loaded. */
export function stateText(state: InteractionState | null | undefined): string | null {
  if (!state || typeof state !== 'object') return null;
  const label = short(String(state.label ?? ''), 80);
  const target = short(String(state.target ?? ''), 120);
  return `after ${short(String(state.action ?? 'click'), 20)}${label ? ` on \u201c${label}\u201d` : ''}${target ? ` (${target})` : ''}`;
}

/** e.g. `mobile (390 × 844)`, `1024 px wide`; null when the crawl checked one viewport only. */
export function viewportText(viewport: ViewportName | null | undefined): string | null {
  if (viewport === null || viewport === undefined) return null;
  if (viewport === 'mobile') return 'mobile (390 \u00d7 844)';
  if (viewport === 'desktop') return 'desktop';
  return typeof viewport === 'number' && Number.isFinite(viewport) ? `${Math.round(viewport)} px wide` : null;
}

/** State and viewport in one line (`after click on “Menu” (#menu-button), at mobile (390 × 844)`), or null when neither applies. */
export function contextText(c: { state?: InteractionState | null; viewport?: ViewportName | null }): string | null {
  const state = stateText(c.state);
  const viewport = viewportText(c.viewport);
  if (state && viewport) return `${state}, at ${viewport}`;
  return state ?? (viewport ? `at ${viewport}` : null);
}
