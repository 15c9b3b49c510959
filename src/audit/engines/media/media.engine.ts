import type { FindingDraft } from '../../../shared/findings.ts';
import { ensureInPage } from '../../session/in-page.ts';
import { collectMediaFacts, DEFAULT_MEDIA_CAPS, probeAudio, type AudioProbe, type MediaFacts } from './collect.ts';
import { alternativeFound, judgeMedia, judgeMediaLink, type MediaRule, type MediaVerdict } from './judge.ts';
import { animatedImageCandidates, fetchImageBytes, gifTiming, judgeAnimatedImage, MOVES_FOR_MS } from './animated-image.ts';
import { ownFinding, understandingUrl, type EngineResult, type PageSession, type ScanEngine } from '../engine.ts';
import type { AuditWindow } from '../page-helpers.ts';

/** ACT rules each rule of this engine implements (for the accuracy harness). */
export const ACT_RULES: Record<string, string[]> = {
  'video-captions-missing': ['f51b46', 'eac66b'],
  'video-audio-description-missing': ['c5a4ea', '1ec09b', '1ea59c', '1a02b0'],
  'video-only-alternative-missing': ['c3232f', 'ee13b5', 'd7ba54'],
  'audio-transcript-missing': ['e7aa44', '2eb176'],
  'autoplay-audio-no-control': ['80f0bf', '4c31df', 'aaa1bf'],
};

const TEXT: Record<MediaRule, { help: string; description: string; slug: string; severity: 'critical' | 'serious' | 'moderate' }> = {
  'video-captions-missing': {
    help: 'Give videos with sound captions',
    description: 'Prerecorded video with sound needs captions of its speech and meaningful sounds.',
    slug: 'captions-prerecorded',
    severity: 'serious',
  },
  'video-audio-description-missing': {
    help: 'Describe what videos show, in audio (or in text)',
    description: 'Prerecorded video needs audio description of what is only shown (1.2.5); at level A a full text alternative also does (1.2.3).',
    slug: 'audio-description-prerecorded',
    severity: 'serious',
  },
  'video-only-alternative-missing': {
    help: 'Give videos without sound a text or audio alternative',
    description: 'A prerecorded video without sound needs a text alternative (or an audio track) that presents what it shows.',
    slug: 'audio-only-and-video-only-prerecorded',
    severity: 'serious',
  },
  'audio-transcript-missing': {
    help: 'Give audio a transcript',
    description: 'Prerecorded audio needs a text alternative (transcript) of what is said and heard.',
    slug: 'audio-only-and-video-only-prerecorded',
    severity: 'serious',
  },
  'media-link-alternative-missing': {
    help: 'Give linked audio and video a transcript',
    description: 'Audio and video files linked from the page need a text alternative next to the link.',
    slug: 'audio-only-and-video-only-prerecorded',
    severity: 'moderate',
  },
  'autoplay-audio-no-control': {
    help: 'Do not play sound automatically without a control to stop it',
    description: 'Audio that plays by itself for more than 3 seconds needs a mechanism to pause or stop it, or to turn its volume down.',
    slug: 'audio-control',
    severity: 'critical',
  },
};

/** Media elements whose sound is measured, and the time all measurements may take together. */
const MAX_PROBES = 3;
const PROBE_BUDGET_MS = 3500;
const MAX_LINK_FINDINGS = 5;

function summary(what: string, v: MediaVerdict, found: string | null): string {
  const missing = v.missing.join('; ');
  const notes = v.notes.length ? ` Note: ${v.notes.join('; ')}.` : '';
  const foundText = found ? ` Found next to it: ${found}.` : v.rule === 'video-captions-missing' || v.rule === 'autoplay-audio-no-control' ? '' : ' Nothing that looks like a transcript or description was found next to it.';
  return `${what}: missing ${missing}.${foundText}${notes}`;
}

/** A finding of a media rule, with the rule's text from `TEXT`. */
function mediaFinding(v: MediaVerdict, where: { selector: string; html: string }, failureSummary: string, data: Record<string, unknown>, alsoFails?: readonly string[]): FindingDraft {
  const t = TEXT[v.rule];
  return ownFinding({
    ruleId: v.rule,
    type: v.outcome,
    severity: t.severity,
    criterion: v.criterion,
    ...where,
    help: t.help,
    description: t.description,
    failureSummary,
    helpUrl: understandingUrl(t.slug),
    data,
    alsoFails,
  });
}

function describeMedia(m: MediaFacts): string {
  const src = m.src ? ` (${m.src.split('/').pop()?.slice(0, 60)})` : '';
  return `This ${m.kind}${src}`;
}

/**
 * `<video>` and `<audio>` without captions, audio description or a transcript next to them, and
 * links to media files without a transcript (all `needs_review`, with `data.missing`); sound that
 * plays by itself with no control anywhere on the page (1.4.2, `confirmed`). The sound of up to 3
 * media elements is measured by playing them muted for short samples (3.5 s at most in all), which
 * decides between video with sound (captions, description) and video only (a text alternative);
 * axe's `video-caption` and `no-autoplay-audio` results are replaced where that was measured.
 * Embedded players in iframes (YouTube, Vimeo) cannot be checked and are left alone.
 */
export const mediaEngine: ScanEngine = {
  id: 'media',
  stage: 'CustomChecks',
  async run({ page }: PageSession): Promise<EngineResult> {
    await ensureInPage(page);
    const animated = await animatedImageFindings(page);
    const facts = await page.evaluate(collectMediaFacts, DEFAULT_MEDIA_CAPS);
    if (!facts.media.length && !facts.links.length) return { findings: animated };

    const probes = new Map<number, AudioProbe>();
    const started = Date.now();
    for (const m of facts.media.filter((x) => x.rendered || x.autoplay || !x.paused).slice(0, MAX_PROBES)) {
      const left = PROBE_BUDGET_MS - (Date.now() - started);
      if (left < 400) break;
      probes.set(m.id, await page.evaluate(probeAudio, { id: m.id, budgetMs: Math.min(1800, left) }).catch((): AudioProbe => ({ audio: 'unknown', reason: 'probe failed' })));
    }

    const ids = [...facts.media.map((m) => m.id), ...facts.links.map((l) => l.id)];
    const described = await describeRemembered(page, ids);
    const at = new Map(ids.map((id, i) => [id, described[i] ?? null]));

    const findings: FindingDraft[] = [];
    const supersedes: Array<{ ruleId: string; selector: string }> = [];
    for (const m of facts.media) {
      const where = at.get(m.id);
      if (!where) continue;
      const probe = probes.get(m.id);
      const { verdicts, supersede } = judgeMedia(m, probe, facts.otherControls);
      for (const ruleId of supersede) supersedes.push({ ruleId, selector: where.selector });
      const found = alternativeFound(m.near);
      for (const v of verdicts) {
        findings.push(
          mediaFinding(
            v,
            where,
            summary(describeMedia(m), v, found),
            {
              missing: v.missing,
              notes: v.notes,
              audio: probe?.audio ?? 'not measured',
              ...(probe?.peak !== undefined ? { audioPeak: probe.peak } : {}),
              tracks: m.tracks.map((tr) => tr.kind),
              controls: m.controls,
              autoplay: m.autoplay,
              src: m.src.slice(0, 160),
            },
            v.alsoFails,
          ),
        );
      }
    }
    let linkFindings = 0;
    for (const l of facts.links) {
      if (linkFindings >= MAX_LINK_FINDINGS) break;
      const where = at.get(l.id);
      const v = judgeMediaLink(l);
      if (!where || !v) continue;
      linkFindings++;
      findings.push(
        mediaFinding(
          v,
          where,
          summary(`This link to ${l.kind === 'audio' ? 'an audio' : 'a video'} file ("${l.text.slice(0, 60)}", ${l.href.slice(0, 80)})`, v, null),
          { missing: v.missing, notes: v.notes, href: l.href.slice(0, 160), kind: l.kind },
        ),
      );
    }
    return { findings: [...findings, ...animated], supersedes };
  },
};

/** GIFs read per page, the bytes read of each, and how long each read may take. */
const ANIMATED_CAP = 5;
const ANIMATED_MAX_BYTES = 4 * 1024 * 1024;
const ANIMATED_READ_MS = 3_000;

/** `animated-image-no-pause` (2.2.2): GIFs shown on the page that move for more than five seconds (animated-image.ts). */
async function animatedImageFindings(page: PageSession['page']): Promise<FindingDraft[]> {
  const candidates = await page.evaluate(animatedImageCandidates, ANIMATED_CAP).catch(() => []);
  const findings: FindingDraft[] = [];
  for (const c of candidates) {
    const b64 = await page.evaluate(fetchImageBytes, { src: c.src, maxBytes: ANIMATED_MAX_BYTES, timeoutMs: ANIMATED_READ_MS }).catch(() => null);
    // The page's own answer: a string of at most the bytes asked for, or nothing.
    const timing = typeof b64 === 'string' && b64.length <= (ANIMATED_MAX_BYTES * 4) / 3 + 4 ? gifTiming(Buffer.from(b64, 'base64')) : null;
    if (!timing) continue;
    const v = judgeAnimatedImage(timing, c);
    if (v.outcome === 'pass') continue;
    const [where] = await describeRemembered(page, [c.id]).catch(() => [null]);
    if (!where) continue;
    const moves = v.movesMs === null ? 'loops for ever' : `moves for ${(v.movesMs / 1000).toFixed(1)} s`;
    const file = c.src.startsWith('data:') ? 'an inline GIF' : (c.src.split(/[?#]/)[0]!.split('/').pop() ?? '').slice(0, 60);
    const why =
      v.reason === 'no-control'
        ? 'and nothing on the page can pause, stop or hide it.'
        : v.reason === 'control-near'
          ? 'A button next to it says it pauses or stops it: check that it does, and that it is reachable before the image.'
          : 'Users who ask for reduced motion get another image: check that it is still, and that others can stop the animation too.';
    findings.push(
      ownFinding({
        ruleId: 'animated-image-no-pause',
        type: v.outcome,
        severity: 'serious',
        criterion: '2.2.2',
        ...where,
        help: 'Let people pause animations that last more than five seconds',
        description: 'Moving content that starts by itself and lasts more than five seconds needs a way to pause, stop or hide it; an animated GIF should stop within five seconds.',
        failureSummary: `This animated image (${file}, ${timing.frames} frames, ${(timing.cycleMs / 1000).toFixed(1)} s a cycle) ${moves}, longer than ${MOVES_FOR_MS / 1000} s, ${why}`,
        helpUrl: understandingUrl('pause-stop-hide'),
        data: {
          image: { src: c.src.slice(0, 200), width: c.width, height: c.height },
          frames: timing.frames,
          cycleMs: timing.cycleMs,
          plays: timing.plays,
          ...(v.outcome === 'needs_review' ? { review: { reason: v.reason === 'control-near' ? 'A pause or stop control sits next to the image' : 'A reduced-motion source is offered' } } : {}),
        },
      }),
    );
  }
  return findings;
}

/** The selector and HTML of elements the page remembered (`__a11yAudit.remember`), null for one gone. */
function describeRemembered(page: PageSession['page'], ids: number[]): Promise<Array<{ selector: string; html: string } | null>> {
  return page.evaluate((list: number[]) => {
    const a = (window as unknown as AuditWindow).__a11yAudit;
    return a.withTree(() =>
      list.map((id) => {
        try {
          const el = a.recall(id);
          return el && el.isConnected ? a.describe(el) : null;
        } catch {
          return null;
        }
      }),
    );
  }, ids);
}
