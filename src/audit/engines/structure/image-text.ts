import type { CDPSession, Page } from 'playwright';
import type { FindingDraft } from '../../../shared/findings.ts';
import { captureRegion, type RgbImage } from '../pixel-contrast/png.ts';
import { ownFinding, understandingUrl } from '../engine.ts';
import type { ImageFact } from './facts.ts';

/**
 * Text drawn into images, read from the rendered pixels (WCAG 1.4.5 images of text; 1.1.1 too
 * where the image is marked decorative with nothing beside it, F38's converse, or its alternative
 * says far less than the text it shows). No OCR: the image is split into light and dark at its
 * Otsu threshold, and the connected shapes of either side that are the size and shape of letters and sit side by side on
 * a common line, close together and of even height, are counted as letters of lines of text.
 * Photographs rarely line up four or more such shapes; where they do, a person reviews: every
 * finding of this module needs review.
 */

/** Letters found in an image, and in how many lines (on whichever side of the threshold holds more). */
export interface ImageTextReading {
  letters: number;
  lines: number;
}

interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  n: number;
}

/** Otsu's threshold of a grey histogram (256 bins). */
function otsu(hist: Uint32Array, total: number): number {
  let sum = 0;
  for (let i = 0; i < 256; i++) sum += i * hist[i]!;
  let sumB = 0;
  let wB = 0;
  let best = 0;
  let at = 127;
  for (let t = 0; t < 256; t++) {
    wB += hist[t]!;
    if (wB === 0) continue;
    const wF = total - wB;
    if (wF === 0) break;
    sumB += t * hist[t]!;
    const mB = sumB / wB;
    const mF = (sum - sumB) / wF;
    const between = wB * wF * (mB - mF) * (mB - mF);
    if (between > best) {
      best = between;
      at = t;
    }
  }
  return at;
}

/** The 8-connected shapes of the pixels `on`, as bounding boxes with their pixel counts (at most `cap` shapes). */
function shapes(on: Uint8Array, w: number, h: number, cap: number): Box[] {
  const label = new Int32Array(w * h);
  const stack = new Int32Array(w * h);
  const out: Box[] = [];
  let next = 0;
  for (let start = 0; start < w * h; start++) {
    if (!on[start] || label[start]) continue;
    if (out.length >= cap) break;
    next++;
    const b: Box = { x0: w, y0: h, x1: -1, y1: -1, n: 0 };
    let top = 0;
    stack[top++] = start;
    label[start] = next;
    while (top > 0) {
      const p = stack[--top]!;
      const x = p % w;
      const y = (p - x) / w;
      b.n++;
      if (x < b.x0) b.x0 = x;
      if (x > b.x1) b.x1 = x;
      if (y < b.y0) b.y0 = y;
      if (y > b.y1) b.y1 = y;
      for (let dy = -1; dy <= 1; dy++) {
        const yy = y + dy;
        if (yy < 0 || yy >= h) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const xx = x + dx;
          if (xx < 0 || xx >= w) continue;
          const q = yy * w + xx;
          if (on[q] && !label[q]) {
            label[q] = next;
            stack[top++] = q;
          }
        }
      }
    }
    out.push(b);
  }
  return out;
}

/** Shapes that could be letters: a few pixels high at least, at most half the image, not much wider than high, neither a speck nor a solid block. */
function letterLike(b: Box, h: number): boolean {
  const bw = b.x1 - b.x0 + 1;
  const bh = b.y1 - b.y0 + 1;
  if (bh < 6 || bh > Math.max(12, h * 0.5) || bw > bh * 2 || b.n < 10) return false;
  const fill = b.n / (bw * bh);
  return fill >= 0.1 && fill <= 0.9;
}

/** Letter-like shapes grouped into lines: even height, a common bottom, close together; runs of four or more count. */
function linesOf(letters: Box[]): { letters: number; lines: number } {
  const sorted = [...letters].sort((a, b) => a.y1 - b.y1 || a.x0 - b.x0);
  const used = new Uint8Array(sorted.length);
  let count = 0;
  let lines = 0;
  for (let i = 0; i < sorted.length; i++) {
    if (used[i]) continue;
    const seed = sorted[i]!;
    const sh = seed.y1 - seed.y0 + 1;
    const row: number[] = [];
    for (let j = i; j < sorted.length; j++) {
      const c = sorted[j]!;
      if (c.y1 - seed.y1 > sh * 0.25) break;
      if (used[j]) continue;
      const ch = c.y1 - c.y0 + 1;
      if (ch < sh * 0.6 || ch > sh * 1.6) continue;
      row.push(j);
    }
    row.sort((a, b) => sorted[a]!.x0 - sorted[b]!.x0);
    // Split where the gap is wider than about a letter and a half: words stay together, columns part.
    let run: number[] = [];
    const flush = () => {
      if (run.length >= 4) {
        lines++;
        count += run.length;
        for (const k of run) used[k] = 1;
      }
      run = [];
    };
    for (const k of row) {
      const prev = run.length ? sorted[run[run.length - 1]!]! : null;
      if (prev && sorted[k]!.x0 - prev.x1 > sh * 1.5) flush();
      run.push(k);
    }
    flush();
    used[i] = 1;
  }
  return { letters: count, lines };
}

/**
 * Reads letters and lines of text in an image (RGB, as a screenshot gives it), on whichever side
 * of the threshold (dark on light, light on dark) holds more. Bounded: 4,000 shapes a side.
 */
export function readImageText(img: RgbImage): ImageTextReading {
  const { width: w, height: h, data } = img;
  if (w < 8 || h < 8) return { letters: 0, lines: 0 };
  const grey = new Uint8Array(w * h);
  const hist = new Uint32Array(256);
  for (let i = 0, p = 0; i < w * h; i++, p += 3) {
    const v = (data[p]! * 299 + data[p + 1]! * 587 + data[p + 2]! * 114) / 1000;
    grey[i] = v;
    hist[grey[i]!]!++;
  }
  const t = otsu(hist, w * h);
  let best = { letters: 0, lines: 0 };
  for (const dark of [true, false]) {
    const on = new Uint8Array(w * h);
    for (let i = 0; i < w * h; i++) on[i] = (grey[i]! <= t) === dark ? 1 : 0;
    const found = linesOf(shapes(on, w, h, 4000).filter((b) => letterLike(b, h)));
    if (found.letters > best.letters) best = found;
  }
  return best;
}

/** What counts as text in an image: two lines, or one line of eight letters or more. */
export function showsText(r: ImageTextReading): boolean {
  return r.lines >= 2 || r.letters >= 8;
}

/** Images read per page, and the most pixels read of each (a larger one is read scaled down). */
const MAX_IMAGES = 6;
const MAX_PIXELS = 300_000;

/**
 * Reads the pixels of the page's larger images (at least 48×16 px shown, the largest first, six at
 * most) and reports those that show text as `image-of-text` (1.4.5, whatever their alt: ACT
 * 0va7u6), also under 1.1.1 where they are marked decorative with no text beside them, or where
 * their alternative has under a third of the letters they show. `skip`: selectors already reported
 * as images of text. Images inside frames or shadow roots are left out (their selector does not reach them).
 */
export async function imageTextFindings(page: Page, images: readonly ImageFact[], skip: ReadonlySet<string>): Promise<FindingDraft[]> {
  const candidates = images
    .filter((i) => i.tag === 'img' && i.width >= 48 && i.height >= 16 && !i.svgText && !i.ariaHidden && !skip.has(i.ref.selector) && !i.ref.selector.includes('>>>'))
    // A logotype is exempt from 1.4.5; marked decorative it still hides its words (1.1.1).
    .filter((i) => !i.logo || markedDecorative(i))
    .filter((i) => !/^data:image\/svg/i.test(i.src) && !/\.svg(?:$|[?#])/i.test(i.src))
    .sort((a, b) => b.width * b.height - a.width * a.height)
    .slice(0, MAX_IMAGES);
  if (!candidates.length) return [];
  const rects = await page
    .evaluate((sels: string[]) => sels.map((s) => {
      try {
        const el = document.querySelector(s);
        // A broken image shows its alt text: those are the page's letters, not the image's.
        if (!(el instanceof HTMLImageElement) || !el.complete || el.naturalWidth === 0) return null;
        const r = el.getBoundingClientRect();
        return r.width > 0 && r.height > 0 ? { x: r.left + window.scrollX, y: r.top + window.scrollY, width: r.width, height: r.height } : null;
      } catch {
        return null;
      }
    }), candidates.map((c) => c.ref.selector))
    .catch(() => candidates.map(() => null));
  let cdp: CDPSession | undefined;
  const out: FindingDraft[] = [];
  try {
    cdp = await page.context().newCDPSession(page);
    for (const [i, img] of candidates.entries()) {
      const r = rects[i];
      if (!r) continue;
      const scale = Math.min(1, Math.sqrt(MAX_PIXELS / (r.width * r.height)));
      const shot = await captureRegion(cdp, { ...r, scale }).catch(() => null);
      if (!shot) continue;
      const reading = readImageText(shot);
      if (!showsText(reading)) continue;
      out.push(findingFor(img, reading));
    }
  } catch {
    // No DevTools session (not Chromium, the page closed): nothing read.
  } finally {
    await cdp?.detach().catch(() => {});
  }
  return out;
}

/** How the image is marked decorative (`alt=""`, a presentational role), or null when it is not. */
function decorativeMark(img: ImageFact): string | null {
  if (img.alt !== null && img.alt.trim() === '') return 'alt=""';
  return img.role === 'presentation' || img.role === 'none' ? `role="${img.role}"` : null;
}

function markedDecorative(img: ImageFact): boolean {
  return decorativeMark(img) !== null;
}

function findingFor(img: ImageFact, r: ImageTextReading): FindingDraft {
  const shows = `about ${r.letters} letters of text in ${r.lines} line${r.lines === 1 ? '' : 's'}`;
  const size = `${img.width}×${img.height}px`;
  const data = { image: { src: img.src.slice(0, 300), width: img.width, height: img.height, letters: r.letters, lines: r.lines } };
  const mark = decorativeMark(img);
  const altLetters = mark ? 0 : (img.alt ?? img.name ?? '').replace(/[^\p{L}\p{N}]/gu, '').length;
  // 1.1.1 too: marked decorative with no text beside it (F38's converse), or an alt with far fewer
  // letters than the image shows. No alt at all is axe's image-alt failure already.
  const partial = !mark && img.alt !== null && altLetters * 3 < r.letters;
  const alsoText = mark
    ? img.alone
      ? ` It is marked decorative (${mark}) and no text beside it says its words: give it a text alternative with them.`
      : ` It is marked decorative: check that the text beside it says the same words.`
    : partial
      ? ` Its text alternative has ${altLetters} letters: check that it says everything the image says.`
      : '';
  const fails111 = (mark !== null && img.alone) || partial;
  return ownFinding({
    ruleId: 'image-of-text',
    type: 'needs_review',
    severity: 'moderate',
    criterion: '1.4.5',
    selector: img.ref.selector,
    html: img.ref.html,
    help: 'Use text rather than images of text',
    description: 'Text should be real text, not drawn into an image, unless it is a logo or its look is essential.',
    failureSummary: `This image shows ${shows} (${size}). Unless it is a logo or its look is essential, use real text styled with CSS.${alsoText}`,
    helpUrl: understandingUrl('images-of-text'),
    data: { ...data, ...(mark ? { decorative: true } : { altLetters }), review: { reason: 'Text found in the image by its shapes: whether it is a logo, essential, or said in full by its alternative or the text beside it needs a person' } },
    ...(fails111 ? { alsoFails: ['1.1.1'] } : {}),
  });
}
