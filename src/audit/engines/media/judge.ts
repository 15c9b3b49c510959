import type { AudioProbe, MediaFacts, MediaLinkFacts } from './collect.ts';

/**
 * What media lacks, from what was found on the page and what the probe heard. Everything is
 * `needs_review` (a human must judge whether a transcript, caption or description is there and
 * right), except audio that plays by itself with no way at all to stop it.
 */

export type MediaRule =
  | 'video-captions-missing'
  | 'video-audio-description-missing'
  | 'video-only-alternative-missing'
  | 'audio-transcript-missing'
  | 'media-link-alternative-missing'
  | 'autoplay-audio-no-control';

export interface MediaVerdict {
  rule: MediaRule;
  criterion: string;
  outcome: 'confirmed' | 'needs_review';
  /** What is missing, in words, for `data.missing`. */
  missing: string[];
  /** What was found that a reviewer should know. */
  notes: string[];
  /** Further criteria this finding fails (`['1.1.1']`: see `unidentified`). */
  alsoFails?: string[];
}

/** The rules about a media element's missing alternative, which 1.1.1 also asks for in part. */
const ALTERNATIVE_RULES: ReadonlySet<MediaRule> = new Set(['video-captions-missing', 'video-audio-description-missing', 'video-only-alternative-missing', 'audio-transcript-missing']);

/**
 * The media has nothing that identifies it: no name of its own (`aria-label`, `aria-labelledby`,
 * `title`), no caption, no text next to it or referenced by `aria-describedby`. 1.1.1 asks of
 * prerecorded time-based media at least a "descriptive identification" (its second case, beside
 * the full alternatives of 1.2): without one, a finding of its missing alternative fails 1.1.1 too.
 */
export function unidentified(m: Pick<MediaFacts, 'named' | 'near'>): boolean {
  return !m.named && m.near.nearbyLetters === 0 && m.near.describedByLetters === 0 && !m.near.transcriptLink;
}

export interface MediaJudgement {
  verdicts: MediaVerdict[];
  /** axe's findings this element's measurement replaces (`video-caption`, `no-autoplay-audio`). */
  supersede: string[];
}

/** Letters of nearby text that may be a transcript or description (a couple of sentences). */
export const NEARBY_TEXT_LETTERS = 100;

/** A possible text alternative next to the media, in words; null when there is none. */
export function alternativeFound(near: MediaFacts['near']): string | null {
  if (near.transcriptLink) return `a link or button "${near.transcriptLink}"`;
  if (near.describedByLetters >= NEARBY_TEXT_LETTERS) return `text referenced by aria-describedby (${near.describedByLetters} letters)`;
  if (near.nearbyLetters >= NEARBY_TEXT_LETTERS) return `text next to it (${near.nearbyLetters} letters)`;
  return null;
}

/** Seconds the media plays for from now: Infinity when looping, null when unknown. */
export function playableSeconds(m: Pick<MediaFacts, 'loop' | 'duration' | 'currentTime' | 'fragment'>): number | null {
  if (m.loop) return Infinity;
  if (m.fragment && m.fragment.end !== null) return Math.max(0, m.fragment.end - Math.max(m.fragment.start, m.currentTime));
  if (m.duration === null) return null;
  return Math.max(0, m.duration - m.currentTime);
}

function audioNote(probe: AudioProbe | undefined): string | null {
  if (!probe) return 'its sound was not measured (too many media elements on the page)';
  if (probe.audio === 'unknown') return `whether it has sound could not be measured (${probe.reason ?? 'unknown reason'})`;
  return null;
}

export function judgeMedia(m: MediaFacts, probe: AudioProbe | undefined, otherControls: number): MediaJudgement {
  const verdicts: MediaVerdict[] = [];
  const supersede: string[] = [];
  const plays = m.autoplay || !m.paused;
  if (!m.rendered && !plays) return { verdicts, supersede };
  const audio = probe?.audio ?? 'unknown';
  const hasSound = audio === 'yes' || audio === 'unknown';
  const alternative = alternativeFound(m.near);
  const kinds = new Set(m.tracks.map((t) => t.kind));
  const unmeasured = audioNote(probe);

  if (!m.rendered) {
    // Hidden media that plays: only its sound matters (1.4.2 below).
  } else if (m.kind === 'video') {
    if (!hasSound) {
      // Video only: captions are moot; an alternative for the pictures is needed (1.2.1).
      supersede.push('video-caption');
      if (!alternative && !m.adjacentAudio) {
        const notes = [audio === 'none' ? 'the video has no audio track' : `the video's audio track is silent in the ${probe?.sampled ?? 0} s sampled`];
        if (kinds.has('descriptions')) notes.push('a descriptions track exists, but browsers do not voice it');
        verdicts.push({
          rule: 'video-only-alternative-missing',
          criterion: '1.2.1',
          outcome: 'needs_review',
          missing: ['a text alternative (transcript describing what is shown)', 'or an audio track describing it'],
          notes,
        });
      }
    } else {
      if (!kinds.has('captions')) {
        supersede.push('video-caption');
        const notes = [audio === 'yes' ? 'sound was heard in it' : unmeasured!];
        if (kinds.has('subtitles')) notes.push('it has a subtitles track: subtitles carry speech only, check that it also gives speakers and sounds (then mark it kind="captions")');
        notes.push('captions burned into the picture (open captions) cannot be detected');
        verdicts.push({ rule: 'video-captions-missing', criterion: '1.2.2', outcome: 'needs_review', missing: ['captions (a <track kind="captions">, or open captions)'], notes });
      }
      if (!alternative) {
        const notes = [audio === 'yes' ? 'sound was heard in it' : unmeasured!];
        if (kinds.has('descriptions')) notes.push('a descriptions track exists, but browsers do not voice it');
        notes.push('the soundtrack itself may already describe what is shown');
        verdicts.push({
          rule: 'video-audio-description-missing',
          criterion: '1.2.5',
          outcome: 'needs_review',
          missing: ['audio description (a described version, or descriptions voiced by the player)', 'a text alternative (transcript) for 1.2.3'],
          notes,
        });
      }
    }
  } else if (hasSound && !alternative && !m.adjacentVideo) {
    verdicts.push({
      rule: 'audio-transcript-missing',
      criterion: '1.2.1',
      outcome: 'needs_review',
      missing: ['a transcript (text of what is said and heard)'],
      notes: [audio === 'yes' ? 'sound was heard in it' : unmeasured!],
    });
  }

  // 1.4.2: sound that starts by itself (by the autoplay attribute, even where the browser's own
  // autoplay policy held it back this time, or because a script started it).
  if (plays) {
    if (m.muted || audio === 'none' || audio === 'silent') supersede.push('no-autoplay-audio');
    else {
      const seconds = playableSeconds(m);
      if (audio === 'yes' && !m.controls && seconds !== null && seconds > 3 && otherControls === 0) {
        verdicts.push({
          rule: 'autoplay-audio-no-control',
          criterion: '1.4.2',
          outcome: 'confirmed',
          missing: ['a control to pause, stop or mute the sound'],
          notes: [`it plays sound by itself for ${seconds === Infinity ? 'ever (it loops)' : `${Math.round(seconds)} s more`}`, 'it has no controls, and the page has no other control at all'],
        });
      }
    }
  }
  if (m.rendered && unidentified(m)) for (const v of verdicts) if (ALTERNATIVE_RULES.has(v.rule)) v.alsoFails = ['1.1.1'];
  return { verdicts, supersede };
}

export function judgeMediaLink(l: MediaLinkFacts): MediaVerdict | null {
  if (alternativeFound(l.near)) return null;
  return l.kind === 'audio'
    ? { rule: 'media-link-alternative-missing', criterion: '1.2.1', outcome: 'needs_review', missing: ['a transcript of the linked audio'], notes: [] }
    : {
        rule: 'media-link-alternative-missing',
        criterion: '1.2.3',
        outcome: 'needs_review',
        missing: ['a transcript or audio-described version of the linked video'],
        notes: ['captions inside the file cannot be checked from the page'],
      };
}
