import { ruleEntries } from './entry.ts';
import type { FixGuide } from './guide.ts';

export const REFLOW_RULES = {
  clipped: 'text-clipped-zoom',
  horizontal: 'reflow-horizontal-scroll',
  spacingClipped: 'text-spacing-clipped',
  spacingOverlap: 'text-spacing-overlap',
  orientation: 'orientation-locked',
} as const;

export const REFLOW_GUIDES: Readonly<Record<string, FixGuide>> = {
  [REFLOW_RULES.clipped]: {
    who: 'People with low vision who zoom the page to 200% lose the text this box cuts off: it is neither shown nor reachable by scrolling.',
    fix: 'Let the box grow with its text: use min-height instead of a fixed height, avoid overflow: hidden on text containers (or use overflow: auto), and size boxes in em or rem rather than px. Cut single lines on purpose only with white-space: nowrap and text-overflow: ellipsis, with the full text available.',
  },
  [REFLOW_RULES.horizontal]: {
    who: 'People who zoom to 400% (or use a phone) must scroll sideways on every line to read, and lose their place; people with low vision and motor impairments are hit hardest.',
    fix: 'Let content wrap at 320 CSS px: use fluid widths (max-width: 100%, flexible grids, flex-wrap), no fixed widths in px on containers, overflow-wrap: anywhere for long words and URLs; tables, code and maps may scroll inside their own box (overflow-x: auto).',
  },
  [REFLOW_RULES.spacingClipped]: {
    who: 'People with dyslexia or low vision who widen the spacing of lines, letters and words (a user style sheet or a browser extension) lose the text this box cuts off.',
    fix: 'Let text boxes grow with their text: no fixed heights on boxes of text (use min-height), no overflow: hidden on them, widths that let lines wrap; size in em or rem.',
  },
  [REFLOW_RULES.spacingOverlap]: {
    who: 'People with dyslexia or low vision who widen the spacing of lines, letters and words cannot read text that then runs over other text.',
    fix: 'Let the box grow with its text (min-height instead of height, no absolute positioning of the text that follows it), so that text pushes what follows down instead of running over it.',
  },
  [REFLOW_RULES.orientation]: {
    who: 'People whose phone or tablet is fixed to a wheelchair or a stand in one orientation cannot use a page that works in the other orientation only.',
    fix: 'Let the page work in portrait and landscape: do not call screen.orientation.lock(), do not rotate the page with a transform or hide its content in one orientation, and drop "please rotate your device" screens.',
  },
};

/** The reflow engine's rules. */
export const REFLOW_CATALOGUE = ruleEntries('reflow', [
  { id: REFLOW_RULES.clipped, criteria: ['1.4.4'], severities: ['serious'] },
  { id: REFLOW_RULES.horizontal, criteria: ['1.4.10'], severities: ['serious'] },
  { id: REFLOW_RULES.spacingClipped, criteria: ['1.4.12'], severities: ['serious'] },
  { id: REFLOW_RULES.spacingOverlap, criteria: ['1.4.12'], severities: ['serious'] },
  { id: REFLOW_RULES.orientation, criteria: ['1.3.4'], severities: ['serious'] },
]);
