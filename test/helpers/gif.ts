/**
 * Small GIFs built on the fly: 1×1 frames (two colours, one LZW-coded pixel each), each with its
 * delay (a graphic control extension), and the loop count of a NETSCAPE2.0 extension when given
 * (0: for ever; none: played once).
 */
export function makeGif(o: { frames: number; delayCs: number; loops?: number }): Buffer {
  const parts: number[] = [
    ...Buffer.from('GIF89a'),
    1, 0, 1, 0, // logical screen 1×1
    0x80, 0, 0, // a global colour table of two colours
    0, 0, 0, 255, 255, 255,
  ];
  if (o.loops !== undefined) parts.push(0x21, 0xff, 11, ...Buffer.from('NETSCAPE2.0'), 3, 1, o.loops & 0xff, o.loops >> 8, 0);
  for (let i = 0; i < o.frames; i++) {
    parts.push(0x21, 0xf9, 4, 0, o.delayCs & 0xff, o.delayCs >> 8, 0, 0);
    parts.push(0x2c, 0, 0, 0, 0, 1, 0, 1, 0, 0);
    parts.push(2, 2, 0x44 | (i % 2), 0x01, 0); // min code size 2; clear, pixel, end
  }
  parts.push(0x3b);
  return Buffer.from(parts);
}
