import type { AuditWindow } from '../page-helpers.ts';
/**
 * Animated images that move for more than five seconds with no way to pause them (WCAG 2.2.2
 * Pause, Stop, Hide; G152 sets an animated GIF to stop within five seconds). An `<img>` has no
 * control of its own: a GIF that loops for ever, or whose loops last past five seconds, moves for
 * as long as the page is open. The timing is read from the file itself (`gifTiming`), fetched
 * by the page through its own network stack and cache; the candidates are found in the page
 * (`animatedImageCandidates`, self-contained).
 */

/** How a GIF plays: its frames, one cycle's length, and how many times it plays (null: for ever). */
export interface GifTiming {
  frames: number;
  cycleMs: number;
  plays: number | null;
}

/**
 * Reads a GIF's frames, delays and loop count (the NETSCAPE2.0 / ANIMEXTS1.0 application
 * extension) without decoding pixels. A delay under 20 ms is played as 100 ms, as browsers do.
 * Null for anything that is not a well-formed GIF up to its last frame (a truncated file counts
 * the frames it holds). Bounded by the bytes given: every step moves forward.
 */
export function gifTiming(bytes: Uint8Array): GifTiming | null {
  const n = bytes.length;
  if (n < 13) return null;
  const sig = String.fromCharCode(...bytes.subarray(0, 6));
  if (sig !== 'GIF87a' && sig !== 'GIF89a') return null;
  let p = 13;
  const flags = bytes[10]!;
  if (flags & 0x80) p += 3 * (1 << ((flags & 0x07) + 1));
  let frames = 0;
  let cycleMs = 0;
  let delay = 0;
  let loops: number | undefined;
  const skipSubBlocks = () => {
    while (p < n) {
      const size = bytes[p++]!;
      if (size === 0) return true;
      p += size;
    }
    return false;
  };
  while (p < n) {
    const block = bytes[p++]!;
    if (block === 0x3b) break;
    if (block === 0x21) {
      if (p >= n) break;
      const label = bytes[p++]!;
      if (label === 0xf9 && p + 5 < n && bytes[p] === 4) {
        delay = (bytes[p + 2]! | (bytes[p + 3]! << 8)) * 10;
      } else if (label === 0xff && p + 12 < n && bytes[p] === 11) {
        const app = String.fromCharCode(...bytes.subarray(p + 1, p + 12));
        if ((app === 'NETSCAPE2.0' || app === 'ANIMEXTS1.0') && bytes[p + 12] === 3 && p + 15 < n && bytes[p + 13] === 1) {
          loops = bytes[p + 14]! | (bytes[p + 15]! << 8);
        }
      }
      if (!skipSubBlocks()) break;
    } else if (block === 0x2c) {
      if (p + 9 > n) break;
      const local = bytes[p + 8]!;
      p += 9;
      if (local & 0x80) p += 3 * (1 << ((local & 0x07) + 1));
      p++; // LZW minimum code size
      if (p > n || !skipSubBlocks()) {
        // A frame cut short by the end of the file is not shown whole: not counted.
        break;
      }
      frames++;
      cycleMs += delay < 20 ? 100 : delay;
      delay = 0;
    } else {
      break;
    }
  }
  if (frames === 0) return null;
  // No loop extension: played once. A loop count of 0: for ever; N: N more times after the first.
  const plays = loops === undefined ? 1 : loops === 0 ? null : loops + 1;
  return { frames, cycleMs, plays };
}

/** Moving content must stop by itself within this long, or have a way to pause it (2.2.2). */
export const MOVES_FOR_MS = 5_000;

export type AnimatedImageVerdict =
  | { outcome: 'pass' }
  | { outcome: 'confirmed' | 'needs_review'; movesMs: number | null; reason: 'no-control' | 'control-near' | 'reduced-motion' };

/**
 * An animated image that moves for more than five seconds: `confirmed` when nothing near it
 * could pause it; `needs_review` where a button that says pause, stop or play sits next to it,
 * or where users who ask for reduced motion get another image (the page offers some way out,
 * whose working a person checks). A single frame, or motion over within five seconds, passes.
 */
export function judgeAnimatedImage(t: GifTiming, around: { pauseControlNear: boolean; reducedMotionSource: boolean }): AnimatedImageVerdict {
  if (t.frames < 2 || t.cycleMs <= 0) return { outcome: 'pass' };
  const movesMs = t.plays === null ? null : t.cycleMs * t.plays;
  if (movesMs !== null && movesMs <= MOVES_FOR_MS) return { outcome: 'pass' };
  if (around.pauseControlNear) return { outcome: 'needs_review', movesMs, reason: 'control-near' };
  if (around.reducedMotionSource) return { outcome: 'needs_review', movesMs, reason: 'reduced-motion' };
  return { outcome: 'confirmed', movesMs, reason: 'no-control' };
}

export interface AnimatedImageCandidate {
  id: number;
  src: string;
  width: number;
  height: number;
  pauseControlNear: boolean;
  reducedMotionSource: boolean;
}

/**
 * In the page: images shown at 40×40 px or more whose source is a GIF (by its address or a
 * `data:image/gif` URL), at most `cap`; with whether a button that says pause, stop or play sits
 * in the image's own surroundings (its parent or grandparent, short of the page's main regions),
 * and whether a `<picture>` gives users who ask for reduced motion another source. Self-contained.
 */
export function animatedImageCandidates(cap: number): AnimatedImageCandidate[] {
  const audit = (window as unknown as AuditWindow).__a11yAudit;
  const out: AnimatedImageCandidate[] = [];
  const PAUSE = /\b(pause|stop|play|freeze|animation)\b/i;
  for (const img of Array.from(document.images).slice(0, 2000)) {
    if (out.length >= cap) break;
    const src = img.currentSrc || img.src;
    if (!src || !(/^data:image\/gif[;,]/i.test(src) || /\.gif(?:$|[?#])/i.test(src.split('#')[0]!))) continue;
    if (!img.complete || img.naturalWidth === 0) continue;
    const r = img.getBoundingClientRect();
    if (r.width < 40 || r.height < 40 || !audit.rendered(img)) continue;
    let pauseControlNear = false;
    // Its own surroundings: up to two levels up, short of the page's main regions and of
    // anything holding more than 30 elements.
    let scope: Element | null = null;
    for (let up = img.parentElement, level = 0; up && level < 2; up = up.parentElement, level++) {
      if (/^(BODY|MAIN|HTML)$/.test(up.tagName) || up.querySelectorAll('*').length > 30) break;
      scope = up;
    }
    if (scope) {
      for (const c of Array.from(scope.querySelectorAll('button, [role="button"], input[type="button"], input[type="checkbox"], [role="switch"]')).slice(0, 50)) {
        const text = `${c.textContent || ''} ${c.getAttribute('aria-label') || ''} ${c.getAttribute('title') || ''} ${(c as HTMLInputElement).value || ''}`;
        if (PAUSE.test(text)) pauseControlNear = true;
      }
    }
    const picture = img.parentElement && img.parentElement.tagName === 'PICTURE' ? img.parentElement : null;
    const reducedMotionSource = !!picture && Array.from(picture.querySelectorAll('source[media]')).some((s) => /prefers-reduced-motion/i.test(s.getAttribute('media') || ''));
    out.push({ id: audit.remember(img), src, width: Math.round(r.width), height: Math.round(r.height), pauseControlNear, reducedMotionSource });
  }
  return out;
}

/**
 * In the page: the image's bytes as base64, read through the page's own network stack (the HTTP
 * cache first), at most `maxBytes` (null: not readable, e.g. another origin without CORS, or too
 * large). Self-contained.
 */
export async function fetchImageBytes(arg: { src: string; maxBytes: number; timeoutMs: number }): Promise<string | null> {
  try {
    const res = await fetch(arg.src, { cache: 'force-cache', credentials: 'same-origin', signal: AbortSignal.timeout(arg.timeoutMs) });
    if (!res.ok) return null;
    const length = Number(res.headers.get('content-length') || '0');
    if (length > arg.maxBytes) return null;
    const buf = await res.arrayBuffer();
    if (buf.byteLength > arg.maxBytes) return null;
    const url: string = await new Promise((resolve, reject) => {
      const fr = new FileReader();
      fr.onload = () => resolve(String(fr.result));
      fr.onerror = () => reject(fr.error);
      fr.readAsDataURL(new Blob([buf]));
    });
    return url.slice(url.indexOf(',') + 1);
  } catch {
    return null;
  }
}
