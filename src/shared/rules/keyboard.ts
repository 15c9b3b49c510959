import { ruleEntries } from './entry.ts';
import type { FixGuide } from './guide.ts';

export const KEYBOARD_RULES = {
  trap: 'keyboard-trap',
  focusVisible: 'focus-visible',
  notFocusable: 'interactive-not-focusable',
} as const;

export const KEYBOARD_GUIDES: Readonly<Record<string, FixGuide>> = {
  [KEYBOARD_RULES.trap]: {
    who: 'People who use a keyboard, a switch or voice control instead of a mouse get stuck: once focus enters the element, they cannot reach the rest of the page and often have to reload it.',
    fix: 'Let Tab and Shift+Tab move focus out of every component. Remove scripts that send focus back on blur or cancel Tab; a modal dialog may keep focus inside while open, but must close with Escape and with a button. If another key is needed, say which, next to the component.',
  },
  [KEYBOARD_RULES.focusVisible]: {
    who: 'Keyboard users, and people with low vision or attention difficulties, cannot tell which link or control Enter or Space will activate when focus is not shown.',
    fix: 'Do not remove the browser\'s focus outline (`outline: none`) without a replacement: style `:focus-visible` with an outline or border of at least 2px that contrasts with the background, e.g. `a:focus-visible { outline: 3px solid #1a5fb4; outline-offset: 2px; }`.',
  },
  [KEYBOARD_RULES.notFocusable]: {
    who: 'Keyboard and switch users cannot reach or activate a control that only responds to the mouse; screen reader users may not know it is a control at all.',
    fix: 'Use a real <button> (or <a href> for navigation), which is focusable and works with Enter and Space. If a custom element must be used, add tabindex="0", the right role and key handlers for Enter (and Space for buttons).',
  },
};

/** The keyboard engine's rules. */
export const KEYBOARD_CATALOGUE = ruleEntries('keyboard', [
  { id: KEYBOARD_RULES.trap, criteria: ['2.1.2'], severities: ['critical'] },
  { id: KEYBOARD_RULES.focusVisible, criteria: ['2.4.7'], severities: ['serious'] },
  { id: KEYBOARD_RULES.notFocusable, criteria: ['2.1.1'], severities: ['serious'] },
]);
