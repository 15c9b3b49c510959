import { describe, expect, it } from 'vitest';
import type { AudioProbe, MediaFacts } from '../../../../../src/audit/engines/media/collect.ts';
import { alternativeFound, judgeMedia, judgeMediaLink, playableSeconds } from '../../../../../src/audit/engines/media/judge.ts';

const none = { transcriptLink: null, nearbyLetters: 0, describedByLetters: 0 };

function video(over: Partial<MediaFacts> = {}): MediaFacts {
  return {
    id: 1,
    kind: 'video',
    rendered: true,
    controls: true,
    autoplay: false,
    loop: false,
    muted: false,
    paused: true,
    src: 'http://x/v.mp4',
    sameOrigin: true,
    error: null,
    networkState: 1,
    readyState: 4,
    duration: 60,
    currentTime: 0,
    fragment: null,
    tracks: [],
    near: none,
    adjacentAudio: false,
    adjacentVideo: false,
    named: true,
    ...over,
  };
}
const audio = (over: Partial<MediaFacts> = {}) => video({ kind: 'audio', ...over });
const heard: AudioProbe = { audio: 'yes', peak: 0.3, sampled: 1 };
const silent: AudioProbe = { audio: 'silent', peak: 0, sampled: 1.2 };
const rules = (j: ReturnType<typeof judgeMedia>) => j.verdicts.map((v) => `${v.rule}:${v.criterion}:${v.outcome}`);

describe('media that nothing identifies (issue 43: 1.1.1 asks at least a descriptive identification)', () => {
  it('fails 1.1.1 too where a video or audio lacking its alternative has no name, caption or text beside it', () => {
    const bare = judgeMedia(video({ named: false }), heard, 3);
    expect(bare.verdicts.map((v) => [v.rule, v.alsoFails])).toEqual([
      ['video-captions-missing', ['1.1.1']],
      ['video-audio-description-missing', ['1.1.1']],
    ]);
    expect(judgeMedia(audio({ named: false }), heard, 3).verdicts.map((v) => v.alsoFails)).toEqual([['1.1.1']]);
  });

  it('does not where it is named or has text beside it, nor for sound that plays by itself', () => {
    expect(judgeMedia(video(), heard, 3).verdicts.map((v) => v.alsoFails)).toEqual([undefined, undefined]);
    expect(judgeMedia(video({ named: false, near: { ...none, nearbyLetters: 12 } }), heard, 3).verdicts.map((v) => v.alsoFails)).toEqual([undefined, undefined]);
    const loud = judgeMedia(audio({ named: false, controls: false, autoplay: true, paused: false, loop: true }), heard, 0);
    expect(loud.verdicts.filter((v) => v.rule === 'autoplay-audio-no-control').map((v) => v.alsoFails)).toEqual([undefined]);
  });
});

describe('video with sound', () => {
  it('needs captions and audio description (or a transcript), and replaces axe\'s video-caption', () => {
    const j = judgeMedia(video(), heard, 3);
    expect(rules(j)).toEqual(['video-captions-missing:1.2.2:needs_review', 'video-audio-description-missing:1.2.5:needs_review']);
    expect(j.supersede).toEqual(['video-caption']);
    expect(j.verdicts[0]!.missing[0]).toContain('captions');
  });

  it('is satisfied by a captions track and a transcript link or text next to it', () => {
    expect(rules(judgeMedia(video({ tracks: [{ kind: 'captions', label: '', srclang: 'en' }], near: { ...none, transcriptLink: 'Transcript' } }), heard, 3))).toEqual([]);
    expect(rules(judgeMedia(video({ tracks: [{ kind: 'captions', label: '', srclang: 'en' }], near: { ...none, nearbyLetters: 400 } }), heard, 3))).toEqual([]);
  });

  it('does not count subtitles as captions, nor a descriptions track as description (browsers do not voice it)', () => {
    const j = judgeMedia(video({ tracks: [{ kind: 'subtitles', label: '', srclang: 'en' }, { kind: 'descriptions', label: '', srclang: 'en' }] }), heard, 3);
    expect(rules(j)).toEqual(['video-captions-missing:1.2.2:needs_review', 'video-audio-description-missing:1.2.5:needs_review']);
    expect(j.verdicts[0]!.notes.join(' ')).toContain('subtitles');
    expect(j.verdicts[1]!.notes.join(' ')).toContain('descriptions track');
  });

  it('treats media whose sound could not be measured as having sound, and says so', () => {
    const j = judgeMedia(video(), { audio: 'unknown', reason: 'the media did not load' }, 3);
    expect(rules(j)).toHaveLength(2);
    expect(j.verdicts[0]!.notes[0]).toContain('did not load');
  });
});

describe('video without sound', () => {
  it('needs a text or audio alternative, not captions', () => {
    const j = judgeMedia(video(), silent, 3);
    expect(rules(j)).toEqual(['video-only-alternative-missing:1.2.1:needs_review']);
    expect(j.supersede).toContain('video-caption');
    expect(rules(judgeMedia(video({ adjacentAudio: true }), silent, 3))).toEqual([]);
    expect(rules(judgeMedia(video({ near: { ...none, describedByLetters: 150 } }), { audio: 'none' }, 3))).toEqual([]);
  });
});

describe('audio', () => {
  it('needs a transcript when it has sound, unless it sits next to a video (its described soundtrack)', () => {
    expect(rules(judgeMedia(audio(), heard, 3))).toEqual(['audio-transcript-missing:1.2.1:needs_review']);
    expect(rules(judgeMedia(audio(), silent, 3))).toEqual([]);
    expect(rules(judgeMedia(audio({ adjacentVideo: true }), heard, 3))).toEqual([]);
    expect(rules(judgeMedia(audio({ rendered: false }), heard, 3))).toEqual([]);
  });
});

describe('sound that plays by itself', () => {
  const auto = (over: Partial<MediaFacts> = {}) => audio({ rendered: true, controls: false, autoplay: true, near: { ...none, nearbyLetters: 500 }, ...over });

  it('is confirmed only with sound, over 3 s, no controls and no other control on the page', () => {
    expect(rules(judgeMedia(auto(), heard, 0))).toEqual(['autoplay-audio-no-control:1.4.2:confirmed']);
    expect(rules(judgeMedia(auto({ loop: true, duration: 2 }), heard, 0))).toEqual(['autoplay-audio-no-control:1.4.2:confirmed']);
    expect(rules(judgeMedia(auto(), heard, 1))).toEqual([]);
    expect(rules(judgeMedia(auto({ controls: true }), heard, 0))).toEqual([]);
    expect(rules(judgeMedia(auto({ duration: 2.5 }), heard, 0))).toEqual([]);
    expect(rules(judgeMedia(auto({ fragment: { start: 8, end: 10 } }), heard, 0))).toEqual([]);
    expect(rules(judgeMedia(auto(), { audio: 'unknown' }, 0))).toEqual([]);
  });

  it('replaces axe\'s no-autoplay-audio when nothing can be heard', () => {
    expect(judgeMedia(auto({ muted: true }), heard, 0).supersede).toContain('no-autoplay-audio');
    expect(judgeMedia(auto(), silent, 0).supersede).toContain('no-autoplay-audio');
  });

  it('counts playable time from fragments, loops and the current time', () => {
    expect(playableSeconds({ loop: false, duration: 13.7, currentTime: 0, fragment: { start: 8, end: 10 } })).toBe(2);
    expect(playableSeconds({ loop: false, duration: 13.7, currentTime: 12, fragment: null })).toBeCloseTo(1.7);
    expect(playableSeconds({ loop: true, duration: 1, currentTime: 0, fragment: null })).toBe(Infinity);
    expect(playableSeconds({ loop: false, duration: null, currentTime: 0, fragment: null })).toBeNull();
  });
});

describe('links to media files and nearby alternatives', () => {
  it('asks for a transcript next to a media link', () => {
    expect(judgeMediaLink({ id: 1, kind: 'audio', href: 'a.mp3', text: 'Listen', near: none })).toMatchObject({ criterion: '1.2.1' });
    expect(judgeMediaLink({ id: 1, kind: 'video', href: 'a.mov', text: 'Watch', near: none })).toMatchObject({ criterion: '1.2.3' });
    expect(judgeMediaLink({ id: 1, kind: 'audio', href: 'a.mp3', text: 'Listen', near: { ...none, transcriptLink: 'Transcript' } })).toBeNull();
  });

  it('takes a couple of sentences of text as a possible alternative, not a line', () => {
    expect(alternativeFound({ ...none, nearbyLetters: 60 })).toBeNull();
    expect(alternativeFound({ ...none, nearbyLetters: 120 })).toContain('120 letters');
  });
});
