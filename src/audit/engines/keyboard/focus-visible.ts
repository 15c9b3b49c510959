/**
 * Pure part of the focus-visible check (WCAG 2.4.7): what the measurements of one element, focused
 * and not focused, say. The engine measures; this decides.
 */

export interface FocusLook {
  /** A style that can be seen (outline, border, shadow, colours, underline, size...) differs between focused and not. */
  styleChanged: boolean;
  /** Focusing started an animation or transition on the element. */
  animates: boolean;
  /** Pixels around the element's box (a margin included) differ; `null`: not measured. */
  boxChanged: boolean | null;
  /** Pixels anywhere in the viewport differ; `null`: not measured. */
  viewportChanged: boolean | null;
  /** The viewport changes by itself (an animation, a video): a viewport difference proves nothing. */
  pageAnimates: boolean;
  /** The focused element is on screen, with a size, not transparent. */
  onScreen: boolean;
  /** A text field, where the text cursor (hidden in screenshots) may be the only indicator. */
  textEntry: boolean;
}

export type FocusVerdict = 'visible' | 'confirmed' | 'needs_review';

/**
 * Visible when the element's style, its surroundings or (ACT oj04fd) anything else in the
 * viewport changes with focus. Confirmed only when nothing in the viewport changes for an element
 * that is on screen and is not a text field; an element off screen, a text field, a page that
 * animates by itself or an element past the cap of screenshots is `needs_review`.
 */
export function focusVerdict(m: FocusLook): FocusVerdict {
  if (m.styleChanged || m.animates || m.boxChanged === true) return 'visible';
  if (m.viewportChanged === true) return m.pageAnimates ? 'needs_review' : 'visible';
  if (m.viewportChanged === null || m.boxChanged === null) return 'needs_review';
  if (!m.onScreen || m.textEntry || m.pageAnimates) return 'needs_review';
  return 'confirmed';
}
