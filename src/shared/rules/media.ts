import { ruleEntries } from './entry.ts';
import type { FixGuide } from './guide.ts';

/** Who is affected by each rule of this engine, and how to fix it. */
export const MEDIA_GUIDES: Readonly<Record<string, FixGuide>> = {
  'video-captions-missing': {
    who: 'Deaf and hard-of-hearing people, and anyone watching without sound, miss everything that is only heard: speech, speakers, sounds.',
    fix: 'Add captions: a WebVTT file in <track kind="captions" srclang="en" label="English"> (or captions in the player you use), with speech, speaker names and meaningful sounds.',
  },
  'video-audio-description-missing': {
    who: 'Blind and partially sighted people miss what is only shown: actions, scene changes, on-screen text.',
    fix: 'Offer an audio-described version (or a player that voices descriptions), unless the soundtrack already says everything that is shown; at level A a full text transcript next to the video also does.',
  },
  'video-only-alternative-missing': {
    who: 'A video without sound tells blind and partially sighted people nothing unless its content is also given in text or audio.',
    fix: 'Put a text description of what the video shows next to it (or link to one), or provide an audio track that describes it.',
  },
  'audio-transcript-missing': {
    who: 'Deaf and hard-of-hearing people, and anyone who cannot play sound, cannot get the content of an audio clip without a transcript.',
    fix: 'Publish a transcript of everything said and heard next to the player, or link to it from right beside it.',
  },
  'media-link-alternative-missing': {
    who: 'A linked audio or video file is out of reach for people who cannot hear or see it, unless a transcript (and for video, captions) comes with it.',
    fix: 'Put a transcript next to the link (or link to one right beside it); give videos captions and, where needed, audio description.',
  },
  'autoplay-audio-no-control': {
    who: 'Sound that starts by itself talks over screen readers, so their users cannot hear the page to find a way to stop it; it also distracts people with attention or cognitive difficulties.',
    fix: 'Do not start sound automatically; if you must, keep it under 3 seconds, or give the player visible controls (the controls attribute) or a pause/mute button at the start of the page.',
  },
  'animated-image-no-pause': {
    who: 'Movement that cannot be stopped pulls the attention of people with attention deficits, autism or reading difficulties away from the text, and can make people with vestibular disorders unwell; screen magnifier users lose their place.',
    fix: 'Make the GIF stop within five seconds (set its loop count and shorten it), or show a still image with a play button, or add a visible pause button before it; also give users who ask for reduced motion a still image (<picture><source media="(prefers-reduced-motion: reduce)" srcset="still.png">).',
  },
};

/**
 * The media engine's rules. A link to a media file is reported under 1.2.1 when it is audio and
 * under 1.2.3 when it is video.
 */
export const MEDIA_CATALOGUE = ruleEntries('media', [
  // Understanding 1.1.1, time-based media: its text alternative must at least identify it; media
  // with nothing that names or describes it fails 1.1.1 too (the engine names it per finding).
  { id: 'video-captions-missing', mayAlsoFail: ['1.1.1'], criteria: ['1.2.2'], severities: ['serious'] },
  { id: 'video-audio-description-missing', mayAlsoFail: ['1.1.1'], criteria: ['1.2.5'], severities: ['serious'] },
  { id: 'video-only-alternative-missing', mayAlsoFail: ['1.1.1'], criteria: ['1.2.1'], severities: ['serious'] },
  { id: 'audio-transcript-missing', mayAlsoFail: ['1.1.1'], criteria: ['1.2.1'], severities: ['serious'] },
  { id: 'media-link-alternative-missing', criteria: ['1.2.1', '1.2.3'], severities: ['moderate'] },
  { id: 'autoplay-audio-no-control', criteria: ['1.4.2'], severities: ['critical'] },
  { id: 'animated-image-no-pause', criteria: ['2.2.2'], severities: ['serious'] },
]);
