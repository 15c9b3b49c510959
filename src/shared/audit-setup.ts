/** How pages are rendered and checked: read by the scanner and stated in every report. */
export const DESKTOP_VIEWPORT = { width: 1280, height: 800 } as const;
export const MOBILE_VIEWPORT = { width: 390, height: 844 } as const;

export const STANDARD = 'WCAG 2.2 Level A and AA';

export const BROWSER_SETUP =
  `Chromium (headless) at ${DESKTOP_VIEWPORT.width}\u00d7${DESKTOP_VIEWPORT.height}, ` +
  `with a ${MOBILE_VIEWPORT.width}\u00d7${MOBILE_VIEWPORT.height} mobile pass for target sizes`;
