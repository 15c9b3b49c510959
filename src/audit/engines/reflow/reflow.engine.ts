import type { CDPSession, Page } from 'playwright';
import { DESKTOP_VIEWPORT } from '../../../shared/audit-setup.ts';
import type { FindingDraft } from '../../../shared/findings.ts';
import { ensureInPage } from '../../session/in-page.ts';
import { oneLineBox, reflowOutcome, textClipState, usedLineHeight, type ClipHit } from './geometry.ts';
import { ownFinding, understandingUrl, type EngineResult, type PageSession, type ScanEngine } from '../engine.ts';
import { nextLayout, targetSizeHere, wantsPhoneTargetSize } from '../target-size-mobile/target-size-mobile.engine.ts';
import { REFLOW_RULES } from '../../../shared/rules/reflow.ts';
import { afterResize, orientationState, orientationVerdict, PORTRAIT, rotationDegrees, type OrientationState } from './orientation.ts';
import { orientationFinding, spacingFindings } from './spacing-orientation-findings.ts';
import { scanOverflow } from './overflow.ts';
import { reflowRegistry, type ReflowRegistry } from './registry.ts';
import { recordSpill, scanSpill, setTextSpacing, TEXT_SPACING_CSS, type SpillHit } from './text-spacing.ts';
import type { AuditWindow } from '../page-helpers.ts';

/**
 * Zoom, reflow, text spacing and orientation, by resizing the viewport (styles are added only for
 * the text spacing, and taken away again):
 *
 * - `text-clipped-zoom` (1.4.4): browser zoom at 200% gives a page half as many CSS pixels
 *   wide and high, with the same layout (media queries included) as a viewport of that size; so
 *   the page is laid out at half the desktop viewport (640×400 for 1280×800, what ACT 59br37
 *   uses) and every box that hides its overflow (`overflow: hidden | clip`) is checked for text
 *   it cuts: a line crossing its edge, or some lines shown and others cut off. ACT's exceptions
 *   hold: `white-space: nowrap` with an ellipsis (horizontal), a box one line high (vertical);
 *   line clamps, visually hidden text (boxes of 1–2 px), `aria-hidden` and text scrolled inside
 *   a scrolling box are left out. Clipped only when zoomed: `confirmed`; clipped at 100% too,
 *   or with an expand control next to it: `needs_review`. Then the browser's text size is doubled
 *   at the desktop width (Chromium's default font size, `Page.setFontSizes`: what em, rem and %
 *   font sizes follow, while px heights and line heights stay): text cut only then is
 *   `needs_review`, since page zoom alone satisfies 1.4.4.
 * - `reflow-horizontal-scroll` (1.4.10): at 320 CSS px wide (1280 px at 400%) the page must
 *   not scroll sideways; the elements where the overflow starts (the widest box crossing the
 *   right edge whose parent fits, or the element whose text sticks out) are reported, at most
 *   three. Two-dimensional content (tables, images, maps, video, code, toolbars) is
 *   `needs_review`, as is a wide element with no text past the edge; text that needs sideways
 *   scrolling to be read is `confirmed`. Boxes that scroll sideways inside the page are reported
 *   only for text lines wider than the box (confirmed) or text past their edge (needs review).
 *
 * - `text-spacing-clipped`, `text-spacing-overlap` (1.4.12, F104): the spacing of 1.4.12 is added
 *   at 100% as one constructed style sheet and laid out once (text-spacing.ts): text that a box now
 *   cuts (same test and exceptions as 1.4.4, on the boxes found at 100%) or that now spills out of
 *   a box of fixed height over the text after it. Only what the spacing caused: `confirmed`, but
 *   for a cut next to an expand control or an overlap with an absolutely positioned box.
 * - `orientation-locked` (1.3.4): the layout at 200% is landscape; the page is then laid out once
 *   at a phone's viewport in portrait (screen orientation emulated, orientation.ts) and the two
 *   compared: a quarter turn of its content (ACT b33eff), its text hidden, `orientation.lock()`.
 *
 * One pass through the layouts, each set once: at the desktop width the page as it is, with the
 * text spacing, with the text size doubled; then 200% zoom, 320 px, and a phone in portrait
 * (390×844), where axe's target-size rule is run for `target-size-mobile` when that engine comes
 * after this one; then the desktop's viewport once more. Caps: 10 000 elements and 6 000 text
 * nodes looked at per layout, 300 clipping boxes. The viewport, the default font sizes, the styles
 * and the scroll position are put back.
 */


/** ACT rules each rule of this engine implements (for the accuracy harness). */
export const ACT_RULES: Record<string, string[]> = {
  [REFLOW_RULES.clipped]: ['59br37'],
  [REFLOW_RULES.orientation]: ['b33eff'],
};

const ZOOM = 2;
const debug = process.env.KBD_DEBUG ? (...a: unknown[]) => console.error('[reflow]', ...a) : () => {};
const REFLOW_WIDTH = 320;
/** Chromium's default font sizes (standard, monospace), which the text size check doubles and puts back. */
const DEFAULT_FONT = { standard: 16, fixed: 13 };

/**
 * Runs in the page with the geometry helpers passed in as values. Finds boxes that hide their
 * overflow and cut text. Element ids are kept in `window.__a11yReflow` between layouts.
 */
function scanClips(
  registry: typeof reflowRegistry,
  textClip: typeof textClipState,
  oneLine: typeof oneLineBox,
  lineHeight: typeof usedLineHeight,
  opts: { maxElements: number; maxTexts: number; maxClippers: number; sameClippers?: boolean },
): ClipHit[] {
  const { reg, idOf } = registry();
  const styles = new Map<Element, CSSStyleDeclaration>();
  const style = (el: Element) => {
    let cs = styles.get(el);
    if (!cs) {
      cs = getComputedStyle(el);
      styles.set(el, cs);
    }
    return cs;
  };
  const hides = (v: string) => v === 'hidden' || v === 'clip';
  const scrolls = (v: string) => v === 'auto' || v === 'scroll';
  let clippers: Element[] = [];
  if (opts.sameClippers && reg.clippers) {
    // Styles that change no overflow (the text spacing): the boxes found last time.
    clippers = reg.clippers.map((r) => r.deref()).filter((e): e is Element => !!e && e.isConnected);
  } else {
    const all = document.body ? document.body.getElementsByTagName('*') : ([] as unknown as HTMLCollectionOf<Element>);
    for (let i = 0; i < all.length && i < opts.maxElements && clippers.length < opts.maxClippers; i++) {
      const el = all[i]!;
      const cs = style(el);
      if (hides(cs.overflowX) || hides(cs.overflowY)) clippers.push(el);
    }
    reg.clippers = clippers.map((el) => new WeakRef(el));
  }
  const out: ClipHit[] = [];
  let texts = 0;
  const HTML_NS = 'http://www.w3.org/1999/xhtml';
  for (const c of clippers) {
    if (texts >= opts.maxTexts) break;
    try {
      const cs = style(c);
      if (c.clientWidth <= 2 || c.clientHeight <= 2) continue; // visually hidden text
      if (c.closest('[aria-hidden="true"]')) continue;
      if (cs.clip !== 'auto' || (cs.clipPath && cs.clipPath !== 'none')) continue;
      const ce = c as Element & { checkVisibility?: (o: object) => boolean };
      if (ce.checkVisibility && !ce.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) continue;
      const r = c.getBoundingClientRect();
      const nowrapEllipsis = (cs.whiteSpace === 'nowrap' || cs.whiteSpace === 'pre') && cs.textOverflow !== 'clip' && cs.textOverflow !== '';
      const clamp = cs.getPropertyValue('-webkit-line-clamp');
      const x = hides(cs.overflowX) && !nowrapEllipsis;
      const y = hides(cs.overflowY) && !oneLine(lineHeight(cs.lineHeight, parseFloat(cs.fontSize)), r.height) && !(clamp && clamp !== 'none');
      if (!x && !y) continue;
      const clip = { left: r.left + c.clientLeft, top: r.top + c.clientTop, right: r.left + c.clientLeft + c.clientWidth, bottom: r.top + c.clientTop + c.clientHeight };
      const walker = document.createTreeWalker(c, NodeFilter.SHOW_TEXT);
      const cutAxes = new Set<string>();
      let sample = '';
      let seen = 0;
      for (let n = walker.nextNode(); n && seen < 200 && texts < opts.maxTexts; n = walker.nextNode()) {
        const t = n as Text;
        if (!t.data.trim()) continue;
        seen++;
        texts++;
        const p = t.parentElement;
        if (!p || p.namespaceURI !== HTML_NS) continue;
        const pcs = style(p);
        if (pcs.visibility !== 'visible' || parseFloat(pcs.opacity) === 0) continue;
        // Between the text and the box: a scrolling box (the text can be scrolled to), or
        // positioning that takes the text out of the box's clipping.
        let ax = x;
        let ay = y;
        let escapes = false;
        let needPositioned = false;
        for (let a: Element | null = p; a && a !== c; a = a.parentElement) {
          const acs = style(a);
          if (scrolls(acs.overflowX)) ax = false;
          if (scrolls(acs.overflowY)) ay = false;
          if (needPositioned && (acs.position !== 'static' || acs.transform !== 'none')) needPositioned = false;
          if (acs.position === 'fixed') escapes = true;
          if (acs.position === 'absolute') needPositioned = true;
        }
        if (needPositioned && cs.position === 'static' && cs.transform === 'none') escapes = true;
        if (escapes || (!ax && !ay)) continue;
        const range = document.createRange();
        range.selectNodeContents(t);
        const rects = Array.from(range.getClientRects()).map((q) => ({ left: q.left, top: q.top, right: q.right, bottom: q.bottom }));
        if (textClip(rects, clip, { x: ax, y: ay }) !== 'partial') continue;
        if (ax && textClip(rects, clip, { x: true, y: false }) !== 'inside') cutAxes.add('horizontal');
        if (ay && textClip(rects, clip, { x: false, y: true }) !== 'inside') cutAxes.add('vertical');
        if (!sample) sample = t.data.replace(/\s+/g, ' ').trim().slice(0, 80);
      }
      if (cutAxes.size === 0) continue;
      // An expand control tied to the box, or next to it ("Read more"): cut on purpose, maybe.
      const id = c.id;
      const near = c.parentElement ?? c;
      const expander =
        !!near.querySelector('[aria-expanded], details > summary') ||
        (!!id && !!document.querySelector(`[aria-controls~="${CSS.escape(id)}"]`));
      out.push({ id: idOf(c), axes: [...cutAxes], text: sample, width: Math.round(r.width), height: Math.round(r.height), expander });
    } catch {
      // detached, odd box: skip it
    }
  }
  return out;
}

/** Runs `fn` in the page with the pure helpers passed as values (sent as source: a CSP does not apply). */
function inPage<T>(page: Page, fn: (...a: any[]) => T, helpers: Array<(...a: any[]) => unknown>, opts: unknown): Promise<T> {
  const args = [...helpers.map((h) => `(${h.toString()})`), JSON.stringify(opts)].join(', ');
  return page.evaluate(`(${fn.toString()})(${args})`) as Promise<T>;
}

async function describe(page: Page, ids: number[]): Promise<Array<{ selector: string; html: string } | null>> {
  if (ids.length === 0) return [];
  await ensureInPage(page);
  return page.evaluate((ids) => {
    const reg = (window as unknown as { __a11yReflow?: ReflowRegistry }).__a11yReflow;
    const A = (window as unknown as AuditWindow).__a11yAudit;
    return A.withTree(() =>
      ids.map((id) => {
        const el = reg?.refs[id]?.deref();
        return el && el.isConnected ? A.describe(el) : null;
      }),
    );
  }, ids);
}

const LIMITS = { maxElements: 10_000, maxTexts: 6_000, maxClippers: 300 };



export const reflowEngine: ScanEngine = {
  id: 'reflow',
  stage: 'CustomChecks',
  async run(pageSession: PageSession): Promise<EngineResult> {
    const { page, signal } = pageSession;
    const original = page.viewportSize() ?? DESKTOP_VIEWPORT;
    const scroll = await page.evaluate(() => ({ x: scrollX, y: scrollY }));
    const findings: FindingDraft[] = [];
    const zoomed = { width: Math.round(original.width / ZOOM), height: Math.round(original.height / ZOOM) };
    const clipArgs = [reflowRegistry, textClipState, oneLineBox, usedLineHeight];
    let textZoomed = false;
    let spaced = false;
    let orientationEmulated = false;
    let resized = false;
    let cdp: CDPSession | null = null;
    // The desktop's viewport (the tab's own), its font sizes and its styles again; once.
    const restore = async () => {
      if (spaced) spaced = await page.evaluate(`(${setTextSpacing.toString()})('', false)`).then(Boolean, () => true);
      if (textZoomed) textZoomed = !(await cdp?.send('Page.setFontSizes', { fontSizes: DEFAULT_FONT }).then(() => true, () => false));
      if (orientationEmulated) {
        // Playwright's own override, sent again by setViewportSize, takes over.
        await cdp?.send('Emulation.clearDeviceMetricsOverride').catch(() => {});
        orientationEmulated = false;
      }
      if (resized) {
        await page.setViewportSize(original);
        resized = false;
        await nextLayout(page).catch(() => {});
      }
    };
    const cdpSession = async () => (cdp ??= await page.context().newCDPSession(page).catch(() => null));
    let t0 = performance.now();
    const lap = (what: string) => {
      const now = performance.now();
      debug(what, Math.round(now - t0), 'ms');
      t0 = now;
    };
    try {
      // 1.4.4: what is cut at 100%, then at 200% page zoom.
      const atFull = await inPage<ClipHit[]>(page, scanClips, clipArgs, LIMITS);
      const cutBefore = new Set(atFull.map((h) => h.id));
      lap('clips at 100%');
      if (signal?.aborted) return { findings };

      // 1.4.12: the text-spacing styles at 100%, one layout: text newly cut by a box, or newly
      // spilling out of its box over the text after it.
      await inPage(page, recordSpill, [], { maxElements: LIMITS.maxElements });
      spaced = await page.evaluate(`(${setTextSpacing.toString()})(${JSON.stringify(TEXT_SPACING_CSS)}, true)`).then(Boolean, () => false);
      let spacingClips: ClipHit[] = [];
      let spills: SpillHit[] = [];
      if (spaced) {
        await nextLayout(page);
        spacingClips = (await inPage<ClipHit[]>(page, scanClips, clipArgs, { ...LIMITS, sameClippers: true })).filter((h) => !cutBefore.has(h.id));
        spills = await inPage<SpillHit[]>(page, scanSpill, [reflowRegistry], { maxElements: LIMITS.maxElements, maxCandidates: 20, maxTexts: LIMITS.maxTexts });
        spaced = await page.evaluate(`(${setTextSpacing.toString()})('', false)`).then(Boolean, () => true);
        lap('text spacing');
      }
      if (signal?.aborted) return { findings };

      // 1.4.4 with the browser's text size doubled, still at the desktop width (Chromium's font
      // size setting: the default font size, which em, rem and % sizes follow): kept below only
      // where neither 100% nor page zoom cuts, and needs review (page zoom is enough for 1.4.4).
      // Here, before the viewport changes, so that the layouts below are one pass down in width.
      let textSizeClips: ClipHit[] = [];
      cdp = await cdpSession();
      if (cdp) {
        textZoomed = true;
        await cdp.send('Page.setFontSizes', { fontSizes: { standard: DEFAULT_FONT.standard * ZOOM, fixed: DEFAULT_FONT.fixed * ZOOM } });
        await nextLayout(page);
        textSizeClips = (await inPage<ClipHit[]>(page, scanClips, clipArgs, LIMITS)).filter((h) => !cutBefore.has(h.id));
        await cdp.send('Page.setFontSizes', { fontSizes: DEFAULT_FONT });
        textZoomed = false;
        lap('text size');
      }
      if (signal?.aborted) return { findings };

      // The narrower layouts, each once, widest first: 200% zoom, 320 px, a phone in portrait;
      // then the desktop's once more.
      await page.setViewportSize(zoomed);
      resized = true;
      await nextLayout(page);
      const atZoom = await inPage<ClipHit[]>(page, scanClips, clipArgs, LIMITS);
      lap('clips at 200%');
      // 1.3.4's landscape state: this layout is landscape (half the desktop window).
      const landscape = await inPage<OrientationState>(page, orientationState, [reflowRegistry, rotationDegrees], { maxTexts: 3000 });
      lap('orientation: landscape state');
      const zoomCut = new Set(atZoom.map((h) => h.id));
      const atTextZoom = textSizeClips.filter((h) => !zoomCut.has(h.id));

      // 1.4.10: sideways scrolling at 320 CSS px.
      let overflow: Awaited<ReturnType<typeof scanOverflow>> | null = null;
      if (!signal?.aborted) {
        await page.setViewportSize({ width: REFLOW_WIDTH, height: Math.round((original.height * REFLOW_WIDTH) / original.width) });
        await nextLayout(page);
        await page.evaluate(() => window.scrollTo(0, 0));
        overflow = await inPage(page, scanOverflow, [reflowRegistry], { maxElements: LIMITS.maxElements, maxTexts: LIMITS.maxTexts });
        lap('overflow at 320');
      }

      // 1.3.4: a phone's viewport in portrait (screen orientation too, so that orientation
      // handlers run), against the landscape layout at 200% above. The phone layout is the one
      // target-size-mobile checks (390×844): its targets are measured here for it.
      let orientation: { portrait: OrientationState; landscape: OrientationState; locks: string[] } | null = null;
      const session = signal?.aborted ? null : await cdpSession();
      if (session) {
        orientationEmulated = true;
        await session.send('Emulation.setDeviceMetricsOverride', {
          ...PORTRAIT,
          deviceScaleFactor: 0,
          mobile: false,
          screenWidth: PORTRAIT.width,
          screenHeight: PORTRAIT.height,
          screenOrientation: { type: 'portraitPrimary', angle: 0 },
        });
        await afterResize(page);
        const portrait = await inPage<OrientationState>(page, orientationState, [reflowRegistry, rotationDegrees], { maxTexts: 3000 });
        const locks = await page
          .evaluate(() => [...((window as unknown as { __a11yOrientationLocks?: string[] }).__a11yOrientationLocks ?? [])].map(String).slice(0, 10))
          .catch(() => [] as string[]);
        orientation = { portrait, landscape, locks };
        lap('orientation: portrait');
        if (wantsPhoneTargetSize(pageSession)) {
          const targets = await targetSizeHere(page).catch(() => null);
          if (targets) pageSession.layouts!.phoneTargetSize = targets;
          lap('target sizes at the phone viewport');
        }
      }

      // Back to the desktop's layout once, before the elements found are described (a page's
      // resize handlers may move them).
      await restore();
      const hits = overflow
        ? overflow.hits
            .map((h) => {
              const type = reflowOutcome({ exempt: h.exempt, textBeyond: h.textBeyond, lineWiderThanView: h.lineWider, inScroller: h.inScroller });
              // The page hides what sticks out instead of scrolling (often an off-canvas menu parked there).
              return { ...h, type: type === 'confirmed' && !h.inScroller && overflow!.rootClips ? ('needs_review' as const) : type };
            })
            .filter((h) => h.type !== null)
            .sort((a, b) => Number(a.inScroller) - Number(b.inScroller) || Number(b.type === 'confirmed') - Number(a.type === 'confirmed') || b.right - a.right)
            .slice(0, 3)
        : [];
      const clips = [...atZoom.map((h) => ({ h, mode: 'page' as const })), ...atTextZoom.map((h) => ({ h, mode: 'text' as const }))];
      const described = await describe(page, [...clips.map((c) => c.h.id), ...hits.map((h) => h.id)]);
      clips.forEach(({ h, mode }, i) => {
        const d = described[i];
        if (!d) return;
        const before = cutBefore.has(h.id);
        const type = mode === 'page' && !before && !h.expander ? 'confirmed' : 'needs_review';
        const how =
          mode === 'page'
            ? `At 200% zoom (a ${zoomed.width}×${zoomed.height} CSS px viewport)`
            : `With the browser's text size doubled (default font ${DEFAULT_FONT.standard * ZOOM} px, at ${original.width} px wide; page zoom does not cut it)`;
        findings.push(
          ownFinding({
            ruleId: REFLOW_RULES.clipped,
            type,
            severity: 'serious',
            criterion: '1.4.4',
            selector: d.selector,
            html: d.html,
            help: 'Let text boxes grow when text is zoomed',
            description: 'Text zoomed to 200% must not be cut off by a box that hides its overflow (a fixed height or width with overflow: hidden).',
            failureSummary:
              `${how} this ${h.width}×${h.height} px box hides its overflow and cuts off text ${h.axes.join(' and ')}ly` +
              (h.text ? `, e.g. "${h.text}"` : '') +
              (before ? '; the text is cut at 100% as well.' : '; at 100% the text fits.') +
              (h.expander && !before ? ' A control next to it may show the rest.' : ''),
            helpUrl: understandingUrl('resize-text'),
            data: {
              zoom: mode === 'page' ? '200%' : '200% text size',
              viewport: mode === 'page' ? `${zoomed.width}x${zoomed.height}` : `${original.width}x${original.height}`,
              axes: h.axes,
              box: { width: h.width, height: h.height },
              cutAt100: before,
              ...(h.expander ? { expandControl: true } : {}),
            },
          }),
        );
      });
      hits.forEach((h, j) => {
        const d = described[clips.length + j];
        if (!d || !overflow) return;
        const where = h.inScroller ? `the box it scrolls in (${h.viewWidth} px wide)` : `the ${overflow.viewWidth} px viewport`;
        const why = overflow.rootClips && !h.inScroller
          ? ' The page hides its horizontal overflow, so what lies past the edge cannot be scrolled to at all: check whether it is meant to be seen.'
          : h.exempt
          ? ' It is (or holds) content that may need two dimensions (a table, image, map, code or toolbar): check that it must be that wide.'
          : !h.textBeyond
            ? ' No text of it lies past the edge: check whether anything there needs scrolling to see.'
            : h.lineWider
              ? ' Its lines of text are wider than the view, so every line needs scrolling sideways to read.'
              : ' Text of it lies past the edge and needs scrolling sideways to read.';
        findings.push(
          ownFinding({
            ruleId: REFLOW_RULES.horizontal,
            type: h.type!,
            severity: 'serious',
            criterion: '1.4.10',
            selector: d.selector,
            html: d.html,
            help: 'Make content fit 320 CSS px without sideways scrolling',
            description: 'At a width of 320 CSS px (1280 px zoomed to 400%), content must reflow into one column without scrolling in two directions, except content that needs a two-dimensional layout (data tables, images, maps, code, toolbars).',
            failureSummary:
              `At ${REFLOW_WIDTH} CSS px wide, this ${h.width} px wide element reaches ${h.right} px, past the right edge of ${where}` +
              (h.inScroller ? '' : `; the page is ${overflow.docWidth} px wide`) +
              '.' +
              why +
              (h.text ? ` Text: "${h.text}".` : ''),
            helpUrl: understandingUrl('reflow'),
            data: {
              viewport: `${REFLOW_WIDTH}px`,
              pageWidth: overflow.docWidth,
              elementWidth: h.width,
              right: h.right,
              ...(h.inScroller ? { scrollsInBox: true } : {}),
              ...(h.exempt ? { twoDimensional: true } : {}),
              ...(overflow.rootClips ? { pageClipsOverflow: true } : {}),
            },
          }),
        );
      });
      const spacingDescribed = await describe(page, [...spacingClips.map((h) => h.id), ...spills.map((h) => h.id), ...spills.map((h) => h.otherId)]);
      findings.push(...spacingFindings(spacingDescribed, spacingClips, spills, original));
      if (orientation) {
        const verdict = orientationVerdict(orientation.portrait, orientation.landscape, orientation.locks);
        const state = verdict?.orientation === 'landscape' ? orientation.landscape : orientation.portrait;
        const [d] = verdict ? await describe(page, [state.id]) : [];
        if (verdict && d) findings.push(orientationFinding(d, verdict, orientation, zoomed));
      }
      return { findings };
    } finally {
      await restore().catch(() => {});
      await cdp?.detach().catch(() => {});
      await page.evaluate((s) => window.scrollTo(s.x, s.y), scroll).catch(() => {});
    }
  },
};
