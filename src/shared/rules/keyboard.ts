import { ruleEntries } from './entry.ts';
import type { FixGuide } from './guide.ts';

export const KEYBOARD_RULES = {
  trap: 'keyboard-trap',
  focusVisible: 'focus-visible',
  notFocusable: 'interactive-not-focusable',
  activation: 'keyboard-activation',
  hoverOnly: 'hover-only',
  dialogFocus: 'dialog-focus',
  dialogEscape: 'dialog-escape',
  changeOnInput: 'change-on-input',
  visualOrder: 'focus-order-visual',
  focusableNoRole: 'focusable-no-role',
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
  [KEYBOARD_RULES.activation]: {
    who: 'Keyboard and switch users press Enter or Space to use a control; one that only reacts to a click does nothing for them, and screen reader users hear a button that does not work.',
    fix: 'Use a real <button> (it takes Enter and Space by itself). For a custom control with role="button", run its action on Enter (keydown) and Space (keyup) too; for role="link", on Enter.',
  },
  [KEYBOARD_RULES.hoverOnly]: {
    who: 'Keyboard users never hover: a sub-menu, tooltip or control that only appears under the mouse pointer stays out of their reach, and out of screen magnifier users\' sight.',
    fix: 'Show the content when its trigger receives keyboard focus too (`:focus-within` next to `:hover`, focus and blur handlers next to mouseover and mouseout), make the trigger focusable, or use a disclosure button with aria-expanded that opens it on Enter.',
  },
  [KEYBOARD_RULES.dialogFocus]: {
    who: 'When a dialog opens and focus stays behind it, keyboard and screen reader users do not know it opened and go on through the page it covers; when Tab leaves a modal dialog, they end up in content they cannot see.',
    fix: 'When the dialog opens, move focus to its first control (or its heading, with tabindex="-1"); keep Tab and Shift+Tab inside while it is open (a <dialog> opened with showModal() does both), and return focus to the control that opened it when it closes.',
  },
  [KEYBOARD_RULES.dialogEscape]: {
    who: 'Keyboard users expect Escape to close a dialog; where it does not, and its close button cannot be reached, they are stuck in it.',
    fix: 'Close the dialog on Escape (a <dialog> opened with showModal() does) and give it a close button that is a real <button>.',
  },
  [KEYBOARD_RULES.changeOnInput]: {
    who: 'Keyboard users go through the options of a list with the arrow keys: a form sent, a new page or a new window on the first change takes them somewhere they did not choose, and screen reader users may not notice where they are.',
    fix: 'Act on a choice only when the user confirms it: add a "Go" or submit button instead of acting on change, or say before the control what will happen when its value changes.',
  },
  [KEYBOARD_RULES.visualOrder]: {
    who: 'Keyboard users who can see the page follow focus with their eyes: when Tab jumps back and forth across what they see, they lose their place; screen reader users hear the content in an order other than the one shown.',
    fix: 'Put the elements in the source in the order they are shown, instead of moving them with floats, absolute positioning, `order` or `row-reverse`; or change the layout to follow the source.',
  },
  [KEYBOARD_RULES.focusableNoRole]: {
    who: 'Keyboard users land on an element that a tabindex put in the tab order, and screen reader users hear only its text, with no role: nothing says whether it is a button, a link or nothing at all, or what Enter will do.',
    fix: 'If it is a control, use a <button> (or <a href> for navigation), or give it the right role (role="button") and Enter and Space handlers. If it is not a control, remove its tabindex.',
  },
};

/** The keyboard engine's rules. */
export const KEYBOARD_CATALOGUE = ruleEntries('keyboard', [
  { id: KEYBOARD_RULES.trap, criteria: ['2.1.2'], severities: ['critical'] },
  { id: KEYBOARD_RULES.focusVisible, criteria: ['2.4.7'], severities: ['serious'] },
  { id: KEYBOARD_RULES.notFocusable, criteria: ['2.1.1'], severities: ['serious'] },
  { id: KEYBOARD_RULES.activation, criteria: ['2.1.1'], severities: ['serious'] },
  { id: KEYBOARD_RULES.hoverOnly, criteria: ['2.1.1'], severities: ['serious'] },
  { id: KEYBOARD_RULES.dialogFocus, criteria: ['2.4.3'], severities: ['serious'] },
  { id: KEYBOARD_RULES.dialogEscape, criteria: ['2.1.1'], severities: ['serious'] },
  { id: KEYBOARD_RULES.changeOnInput, criteria: ['3.2.2'], severities: ['serious'] },
  { id: KEYBOARD_RULES.visualOrder, criteria: ['2.4.3'], severities: ['moderate'] },
  { id: KEYBOARD_RULES.focusableNoRole, criteria: ['4.1.2'], severities: ['serious', 'moderate'] },
]);
