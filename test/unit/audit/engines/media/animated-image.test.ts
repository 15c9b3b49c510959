import { describe, expect, it } from 'vitest';
import { gifTiming, judgeAnimatedImage } from '../../../../../src/audit/engines/media/animated-image.ts';
import { makeGif } from '../../../../helpers/gif.ts';

describe('gifTiming', () => {
  it('reads frames, one cycle and the plays from the loop extension', () => {
    expect(gifTiming(makeGif({ frames: 4, delayCs: 50, loops: 0 }))).toEqual({ frames: 4, cycleMs: 2000, plays: null });
    expect(gifTiming(makeGif({ frames: 3, delayCs: 100, loops: 2 }))).toEqual({ frames: 3, cycleMs: 3000, plays: 3 });
    expect(gifTiming(makeGif({ frames: 2, delayCs: 30 }))).toEqual({ frames: 2, cycleMs: 600, plays: 1 });
    // A delay under 20 ms plays as 100 ms, as browsers do.
    expect(gifTiming(makeGif({ frames: 5, delayCs: 0, loops: 0 }))).toEqual({ frames: 5, cycleMs: 500, plays: null });
    expect(gifTiming(makeGif({ frames: 1, delayCs: 0 }))).toEqual({ frames: 1, cycleMs: 100, plays: 1 });
  });

  it('counts only whole frames of a truncated file, and refuses what is not a GIF', () => {
    const whole = makeGif({ frames: 4, delayCs: 50, loops: 0 });
    expect(gifTiming(whole.subarray(0, whole.length - 5))?.frames).toBe(3);
    expect(gifTiming(whole.subarray(0, 20))).toBeNull();
    expect(gifTiming(Buffer.from('\x89PNG\r\n\x1a\n0000000000'))).toBeNull();
    expect(gifTiming(Buffer.alloc(0))).toBeNull();
    // A sub-block run with no end, and an unknown block: it stops at the end of the bytes.
    const endless = Buffer.concat([whole.subarray(0, 19), Buffer.from([0x21, 0x01, ...Array(4000).fill(200)])]);
    expect(gifTiming(endless)).toBeNull();
    expect(gifTiming(Buffer.concat([whole.subarray(0, whole.length - 1), Buffer.from([0x99, 1, 2, 3])]))?.frames).toBe(4);
  });
});

describe('judgeAnimatedImage (2.2.2)', () => {
  const none = { pauseControlNear: false, reducedMotionSource: false };
  it('confirms motion past five seconds with no way to stop it, asks for review where a control or a still source is offered', () => {
    expect(judgeAnimatedImage({ frames: 4, cycleMs: 2000, plays: null }, none)).toEqual({ outcome: 'confirmed', movesMs: null, reason: 'no-control' });
    expect(judgeAnimatedImage({ frames: 3, cycleMs: 3000, plays: 2 }, none)).toEqual({ outcome: 'confirmed', movesMs: 6000, reason: 'no-control' });
    expect(judgeAnimatedImage({ frames: 4, cycleMs: 2000, plays: null }, { ...none, pauseControlNear: true }).outcome).toBe('needs_review');
    expect(judgeAnimatedImage({ frames: 4, cycleMs: 2000, plays: null }, { ...none, reducedMotionSource: true }).outcome).toBe('needs_review');
  });

  it('passes a still image and motion over within five seconds', () => {
    expect(judgeAnimatedImage({ frames: 1, cycleMs: 100, plays: null }, none).outcome).toBe('pass');
    expect(judgeAnimatedImage({ frames: 10, cycleMs: 1000, plays: 5 }, none).outcome).toBe('pass');
    expect(judgeAnimatedImage({ frames: 2, cycleMs: 600, plays: 1 }, none).outcome).toBe('pass');
  });
});
