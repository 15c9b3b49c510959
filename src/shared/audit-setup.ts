/** How pages are rendered and checked: read by the scanner and stated in every report. */
export const DESKTOP_VIEWPORT = { width: 1280, height: 800 } as const;
export const MOBILE_VIEWPORT = { width: 390, height: 844 } as const;

export const STANDARD = 'WCAG 2.2 Level A and AA';

export const BROWSER_SETUP =
  `Chromium (headless) at ${DESKTOP_VIEWPORT.width}\u00d7${DESKTOP_VIEWPORT.height}, ` +
  `with a ${MOBILE_VIEWPORT.width}\u00d7${MOBILE_VIEWPORT.height} mobile pass for target sizes`;

/**
 * The service's own checks beside axe-core, by engine id (src/audit/engines; a unit test keeps
 * the two lists together), as reports name them.
 */
export const OWN_CHECKS: Readonly<Record<string, string>> = {
  'pixel-contrast': 'contrast measured on the rendered pixels',
  colour: 'use of colour',
  forms: 'forms, labels and error messages',
  structure: 'headings, landmarks and structure',
  language: 'language of the page and its parts',
  title: 'page titles',
  media: 'media alternatives',
  keyboard: 'keyboard operation, focus and content on hover',
  reflow: 'reflow, resized text, text spacing and orientation',
  'target-size-mobile': 'target sizes at 390 px',
};
