import type { AuditWindow } from '../page-helpers.ts';
/**
 * What the media checks read in the page: each `<video>` and `<audio>` with its tracks, state
 * and the alternatives found next to it, and links to audio or video files. In-page functions,
 * self-contained (they run through `page.evaluate`).
 */

export interface MediaCaps {
  /** Media elements examined. */
  maxMedia: number;
  /** Links examined for media files. */
  maxLinks: number;
  /** Letters of nearby text that count as a possible transcript or description. */
  nearbyTextLetters: number;
}

export const DEFAULT_MEDIA_CAPS: MediaCaps = { maxMedia: 10, maxLinks: 400, nearbyTextLetters: 100 };

/** Alternatives found near a media element or media link. */
export interface NearbyAlternatives {
  /** Text of a link or button near it that names a transcript, text version or described version. */
  transcriptLink: string | null;
  /** Letters of text (visible, or in the accessibility tree) in the elements just before and after it. */
  nearbyLetters: number;
  /** Letters of text its `aria-describedby` points to. */
  describedByLetters: number;
}

export interface MediaFacts {
  id: number;
  kind: 'video' | 'audio';
  /** Perceivable: a video shown on the page; audio with visible controls, or playing (or set to autoplay). */
  rendered: boolean;
  controls: boolean;
  autoplay: boolean;
  loop: boolean;
  muted: boolean;
  paused: boolean;
  /** The media resource: chosen source, whether it loaded, whether it is same-origin. */
  src: string;
  sameOrigin: boolean;
  error: number | null;
  networkState: number;
  readyState: number;
  duration: number | null;
  currentTime: number;
  /** End of a media fragment (`#t=8,10`) when the source has one. */
  fragment: { start: number; end: number | null } | null;
  tracks: Array<{ kind: string; label: string; srclang: string }>;
  near: NearbyAlternatives;
  /** Video: another `<audio>` with controls right next to it (a possible audio alternative). Audio: a video right next to it (it may be that video's described soundtrack). */
  adjacentAudio: boolean;
  adjacentVideo: boolean;
  /** It has a name of its own: `aria-label`, `aria-labelledby` text or `title`. */
  named: boolean;
}

export interface MediaLinkFacts {
  id: number;
  kind: 'video' | 'audio';
  href: string;
  text: string;
  near: NearbyAlternatives;
}

export interface PageMediaFacts {
  media: MediaFacts[];
  links: MediaLinkFacts[];
  /** Rendered interactive controls on the page other than the media's own (links, buttons, fields). */
  otherControls: number;
}

/** Runs in the page after `ensureInPage`. */
export function collectMediaFacts(caps: MediaCaps): PageMediaFacts {
  const audit = (window as unknown as AuditWindow).__a11yAudit;
  const TRANSCRIPT = /\b(transcripts?|transcription|text version|text alternative|full text|read (?:the|a) text|audio[- ]described|described version|audio description|sign language)\b/i;
  const AUDIO_EXT = /\.(mp3|wav|ogg|oga|opus|m4a|aac|flac|wma|aiff?)$/i;
  const VIDEO_EXT = /\.(mp4|m4v|mov|webm|ogv|avi|wmv|mkv|mpe?g|3gp|flv)$/i;

  const inTreeText = (el: Element): string => {
    // Text that is visible or in the accessibility tree: not display:none / visibility:hidden, not aria-hidden.
    if (el.closest('[aria-hidden="true"]')) return '';
    const check = (el as Element & { checkVisibility?: (o: object) => boolean }).checkVisibility;
    if (check && !check.call(el, { visibilityProperty: true })) return '';
    let out = '';
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    let n = walker.nextNode();
    while (n && out.length < 4000) {
      const p = n.parentElement;
      if (p && !p.closest('script,style,noscript,template,[aria-hidden="true"]')) {
        const pc = (p as Element & { checkVisibility?: (o: object) => boolean }).checkVisibility;
        if (!pc || pc.call(p, { visibilityProperty: true })) out += ' ' + (n as Text).data;
      }
      n = walker.nextNode();
    }
    return out;
  };
  const letters = (s: string) => s.match(/\p{L}/gu)?.length ?? 0;
  const nameOf = (el: Element) => `${el.getAttribute('aria-label') ?? ''} ${(el as HTMLElement).innerText ?? el.textContent ?? ''} ${el.getAttribute('title') ?? ''}`;

  /** The element and its wrappers that hold nothing else: the unit whose siblings are "next to" it. */
  const unitOf = (el: Element): Element => {
    let unit = el;
    while (unit.parentElement && unit.parentElement !== document.body && unit.parentElement.children.length === 1) unit = unit.parentElement;
    return unit;
  };

  const near = (el: Element, also?: Element): NearbyAlternatives => {
    const unit = unitOf(el);
    const siblings: Element[] = [];
    // A media link's own block (the paragraph or item it sits in) is searched for a transcript link too.
    if (also) siblings.push(also);
    let p = unit.previousElementSibling;
    for (let i = 0; p && i < 2; i++, p = p.previousElementSibling) siblings.push(p);
    let q = unit.nextElementSibling;
    for (let i = 0; q && i < 2; i++, q = q.nextElementSibling) siblings.push(q);
    const figure = el.closest('figure');
    const caption = figure?.querySelector('figcaption');
    if (caption) siblings.push(caption);
    let transcriptLink: string | null = null;
    let nearbyLetters = 0;
    for (const s of siblings) {
      if (s.matches('video, audio, script, style, template')) continue;
      const controls = s.matches('a[href], button, [role="button"], [role="link"]') ? [s] : Array.from(s.querySelectorAll('a[href], button, [role="button"], [role="link"]'));
      for (const c of controls.slice(0, 20)) {
        // A link to a media file is not its transcript.
        const path = c.getAttribute('href')?.split(/[?#]/)[0] ?? '';
        if (AUDIO_EXT.test(path) || VIDEO_EXT.test(path)) continue;
        const label = `${nameOf(c)} ${c.getAttribute('href') ?? ''}`;
        if (!transcriptLink && TRANSCRIPT.test(label) && audit.rendered(c)) transcriptLink = nameOf(c).replace(/\s+/g, ' ').trim().slice(0, 80) || (c.getAttribute('href') ?? '').slice(0, 80);
      }
      nearbyLetters += letters(inTreeText(s));
    }
    let describedByLetters = 0;
    for (const id of (el.getAttribute('aria-describedby') ?? '').split(/\s+/).filter(Boolean)) {
      const target = document.getElementById(id);
      if (target) describedByLetters += letters(target.textContent ?? '');
    }
    return { transcriptLink, nearbyLetters, describedByLetters };
  };

  const fragmentOf = (src: string): MediaFacts['fragment'] => {
    const m = /#t=([^&]*)/.exec(src);
    if (!m) return null;
    const toSec = (v: string) => (/:/.test(v) ? v.split(':').reduce((acc, x) => acc * 60 + Number(x), 0) : Number(v));
    const [a, b] = m[1]!.replace(/^npt:/, '').split(',');
    const start = a ? toSec(a) : 0;
    const end = b ? toSec(b) : null;
    return Number.isFinite(start) ? { start, end: end !== null && Number.isFinite(end) ? end : null } : null;
  };

  const media: MediaFacts[] = [];
  for (const el of Array.from(document.querySelectorAll('video, audio')).slice(0, caps.maxMedia) as HTMLMediaElement[]) {
    try {
      const kind = el.localName === 'video' ? 'video' : 'audio';
      const src = el.currentSrc || el.getAttribute('src') || (el.querySelector('source[src]')?.getAttribute('src') ?? '');
      let sameOrigin = true;
      try {
        sameOrigin = !src || new URL(src, location.href).origin === location.origin;
      } catch {
        sameOrigin = false;
      }
      const shown = audit.rendered(el);
      const playing = !el.paused && !el.ended;
      const rendered = kind === 'video' ? shown : (shown && el.controls) || playing || el.autoplay;
      const unit = unitOf(el);
      const around = [unit.previousElementSibling, unit.nextElementSibling];
      const adjacent = around.some((s) => !!s && (s.matches('audio[controls]') || !!s.querySelector('audio[controls]')));
      const nextToVideo = around.some((s) => !!s && (s.matches('video') || !!s.querySelector('video')));
      media.push({
        id: audit.remember(el),
        kind,
        rendered,
        controls: el.controls,
        autoplay: el.autoplay,
        loop: el.loop,
        muted: el.muted || el.hasAttribute('muted') || el.volume === 0,
        paused: el.paused,
        src: src.slice(0, 300),
        sameOrigin: sameOrigin || el.crossOrigin !== null,
        error: el.error ? el.error.code : null,
        networkState: el.networkState,
        readyState: el.readyState,
        duration: Number.isFinite(el.duration) ? el.duration : null,
        currentTime: el.currentTime,
        fragment: fragmentOf(src),
        tracks: Array.from(el.querySelectorAll('track')).map((t) => ({
          kind: (t.getAttribute('kind') ?? 'subtitles').toLowerCase(),
          label: (t.getAttribute('label') ?? '').slice(0, 60),
          srclang: (t.getAttribute('srclang') ?? '').slice(0, 20),
        })),
        near: near(el),
        adjacentAudio: kind === 'video' && adjacent,
        adjacentVideo: kind === 'audio' && nextToVideo,
        named:
          !!(el.getAttribute('aria-label') ?? '').trim() ||
          !!(el.getAttribute('title') ?? '').trim() ||
          (el.getAttribute('aria-labelledby') ?? '')
            .split(/\s+/)
            .some((id) => !!id && !!document.getElementById(id)?.textContent?.trim()),
      });
    } catch {
      // an odd element: skip it
    }
  }

  const links: MediaLinkFacts[] = [];
  for (const a of Array.from(document.querySelectorAll('a[href]')).slice(0, caps.maxLinks) as HTMLAnchorElement[]) {
    try {
      const path = new URL(a.href, location.href).pathname;
      const kind = AUDIO_EXT.test(path) ? 'audio' : VIDEO_EXT.test(path) ? 'video' : null;
      if (!kind || !audit.rendered(a)) continue;
      // The link's own block is its unit: a link inside a paragraph has that paragraph's text.
      const block = a.closest('p, li, dd, td, figure, div');
      const n = near(block ?? a, block ?? undefined);
      // The link's own text is no transcript.
      if (block) n.nearbyLetters -= letters(inTreeText(a));
      links.push({ id: audit.remember(a), kind, href: a.getAttribute('href')!.slice(0, 200), text: nameOf(a).replace(/\s+/g, ' ').trim().slice(0, 120), near: n });
    } catch {
      // unparsable URL
    }
  }

  const mediaEls = new Set(document.querySelectorAll('video, audio'));
  let otherControls = 0;
  for (const c of Array.from(document.querySelectorAll('a[href], button, input:not([type="hidden"]), select, textarea, summary, [role="button"], [tabindex]')).slice(0, 500)) {
    if (mediaEls.has(c) || c.closest('video, audio')) continue;
    if (c.closest('[aria-hidden="true"]')) continue;
    if (c.getAttribute('tabindex') === '-1' && !c.matches('a[href], button, input, select, textarea, summary')) continue;
    if (audit.rendered(c)) otherControls++;
  }
  return { media, links, otherControls };
}

/** What the probe measured about a media element's sound. */
export interface AudioProbe {
  /** `yes`: sound heard; `silent`: an audio track with no sound in the samples; `none`: no audio track; `unknown`: could not tell. */
  audio: 'yes' | 'silent' | 'none' | 'unknown';
  /** Loudest sample, 0..1 (absent when nothing was sampled). */
  peak?: number;
  /** Seconds of media sampled. */
  sampled?: number;
  reason?: string;
}

/**
 * Runs in the page: plays the element muted for a few short samples (start, 40%, 75% of its
 * length) and listens to a capture of its sound, then puts it back as it was (paused, time,
 * mute, rate). Media that is already playing is only listened to. Cross-origin media without
 * CORS cannot be heard and gives `unknown` unless it has no audio track at all.
 */
export async function probeAudio({ id, budgetMs }: { id: number; budgetMs: number }): Promise<AudioProbe> {
  const audit = (window as unknown as AuditWindow).__a11yAudit;
  const el = audit.recall(id) as (HTMLMediaElement & { captureStream?: () => MediaStream; webkitAudioDecodedByteCount?: number }) | undefined;
  if (!el || !el.isConnected) return { audio: 'unknown', reason: 'element gone' };
  const started = performance.now();
  const left = () => budgetMs - (performance.now() - started);
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));
  const wasPlaying = !el.paused && !el.ended;
  const saved = { time: el.currentTime, muted: el.muted, rate: el.playbackRate, preload: el.preload };
  let ctx: AudioContext | undefined;
  let stream: MediaStream | undefined;
  try {
    if (el.error || el.networkState === HTMLMediaElement.NETWORK_NO_SOURCE) return { audio: 'unknown', reason: 'the media did not load' };
    if (el.readyState < HTMLMediaElement.HAVE_METADATA) {
      el.preload = 'auto';
      if (el.networkState === HTMLMediaElement.NETWORK_EMPTY || el.networkState === HTMLMediaElement.NETWORK_IDLE) el.load();
      await new Promise<void>((resolve) => {
        const done = () => resolve();
        el.addEventListener('loadedmetadata', done, { once: true });
        el.addEventListener('error', done, { once: true });
        setTimeout(done, Math.max(0, Math.min(2500, left() - 800)));
      });
      if (el.error || el.readyState < HTMLMediaElement.HAVE_METADATA) return { audio: 'unknown', reason: 'the media did not load' };
    }
    if (!el.captureStream) return { audio: 'unknown', reason: 'no capture' };
    if (!wasPlaying) {
      el.muted = true;
      el.playbackRate = 2;
      await el.play().catch(() => undefined);
      if (el.paused) return { audio: 'unknown', reason: 'the media would not play' };
    }
    stream = el.captureStream();
    // The audio track appears once data flows.
    for (let i = 0; i < 10 && !stream.getAudioTracks().length && left() > 300; i++) await sleep(50);
    const decoded = el.webkitAudioDecodedByteCount ?? -1;
    if (!stream.getAudioTracks().length) {
      return decoded === 0 || decoded === -1 ? { audio: 'none', reason: 'no audio track' } : { audio: 'unknown', reason: 'no capture of the audio track' };
    }
    ctx = new AudioContext();
    if (ctx.state === 'suspended') await ctx.resume().catch(() => undefined);
    if (ctx.state !== 'running') return { audio: 'unknown', reason: 'audio could not be analysed' };
    const analyser = ctx.createAnalyser();
    analyser.fftSize = 2048;
    ctx.createMediaStreamSource(stream).connect(analyser);
    const buf = new Float32Array(analyser.fftSize);
    let peak = 0;
    let sampled = 0;
    const duration = Number.isFinite(el.duration) ? el.duration : 0;
    const positions = wasPlaying || duration < 6 ? [null] : [null, duration * 0.4, duration * 0.75];
    for (const pos of positions) {
      if (left() < 350) break;
      if (pos !== null) {
        el.currentTime = pos;
        await new Promise<void>((resolve) => {
          el.addEventListener('seeked', () => resolve(), { once: true });
          setTimeout(resolve, 400);
        });
      }
      const from = el.currentTime;
      for (let i = 0; i < 6; i++) {
        await sleep(50);
        analyser.getFloatTimeDomainData(buf);
        for (const x of buf) if (Math.abs(x) > peak) peak = Math.abs(x);
      }
      sampled += Math.max(0, el.currentTime - from);
      if (peak > 0.004) break;
    }
    if (peak > 0.004) return { audio: 'yes', peak: Math.round(peak * 1000) / 1000, sampled: Math.round(sampled * 10) / 10 };
    if (sampled < 0.3) return { audio: 'unknown', reason: 'too little was played to listen to' };
    // Cross-origin media is captured as silence: silence then proves nothing.
    const src = el.currentSrc;
    let crossOrigin = false;
    try {
      crossOrigin = !!src && new URL(src, location.href).origin !== location.origin && el.crossOrigin === null;
    } catch {
      crossOrigin = true;
    }
    if (crossOrigin) return { audio: 'unknown', reason: 'cross-origin media cannot be listened to' };
    return { audio: 'silent', peak: Math.round(peak * 1000) / 1000, sampled: Math.round(sampled * 10) / 10 };
  } catch (err) {
    return { audio: 'unknown', reason: String(err).slice(0, 120) };
  } finally {
    try {
      stream?.getTracks().forEach((t) => t.stop());
      await ctx?.close().catch(() => undefined);
      if (!wasPlaying) {
        el.pause();
        el.playbackRate = saved.rate;
        el.muted = saved.muted;
        if (el.readyState >= HTMLMediaElement.HAVE_METADATA) el.currentTime = saved.time;
      }
      el.preload = saved.preload;
    } catch {
      // the element is gone: nothing to restore
    }
  }
}
