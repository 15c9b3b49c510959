import { inflateSync } from 'node:zlib';
import type { CDPSession } from 'playwright';

/** A decoded image: `width × height` pixels, 3 bytes each (RGB, row-major, alpha dropped). */
export interface RgbImage {
  width: number;
  height: number;
  data: Uint8Array;
}

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/**
 * Decodes the PNGs Chromium writes for screenshots: 8-bit, non-interlaced, grey / grey+alpha /
 * RGB / RGBA (zlib from Node, no package needed). Alpha is dropped: a screenshot is opaque. Throws
 * on anything else.
 */
export function decodePng(buf: Uint8Array): RgbImage {
  if (buf.length < 8 || SIGNATURE.some((b, i) => buf[i] !== b)) throw new Error('not a PNG');
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  let pos = 8;
  let width = 0;
  let height = 0;
  let colourType = -1;
  const idat: Uint8Array[] = [];
  while (pos + 8 <= buf.length) {
    const len = view.getUint32(pos);
    const type = String.fromCharCode(buf[pos + 4]!, buf[pos + 5]!, buf[pos + 6]!, buf[pos + 7]!);
    const body = buf.subarray(pos + 8, pos + 8 + len);
    if (type === 'IHDR') {
      width = view.getUint32(pos + 8);
      height = view.getUint32(pos + 12);
      const bitDepth = body[8];
      colourType = body[9]!;
      const interlace = body[12];
      if (bitDepth !== 8 || interlace !== 0 || ![0, 2, 4, 6].includes(colourType)) {
        throw new Error(`unsupported PNG (depth ${bitDepth}, colour type ${colourType}, interlace ${interlace})`);
      }
    } else if (type === 'IDAT') idat.push(body);
    else if (type === 'IEND') break;
    pos += 12 + len;
  }
  if (!width || !height || colourType < 0) throw new Error('PNG without header');
  const channels = colourType === 0 ? 1 : colourType === 4 ? 2 : colourType === 2 ? 3 : 4;
  const stride = width * channels;
  // Inflated in one piece: Node's default 16 KiB chunks cost a concatenation of hundreds of them.
  const raw = inflateSync(Buffer.concat(idat), { chunkSize: Math.max(64 * 1024, (stride + 1) * height) });
  if (raw.length < (stride + 1) * height) throw new Error('truncated PNG');
  const px = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    const src = y * (stride + 1) + 1;
    const out = y * stride;
    const prev = out - stride;
    const up = y > 0;
    switch (filter) {
      case 0:
        px.set(raw.subarray(src, src + stride), out);
        break;
      case 1:
        for (let x = 0; x < stride; x++) px[out + x] = (raw[src + x]! + (x >= channels ? px[out + x - channels]! : 0)) & 0xff;
        break;
      case 2:
        for (let x = 0; x < stride; x++) px[out + x] = (raw[src + x]! + (up ? px[prev + x]! : 0)) & 0xff;
        break;
      case 3:
        for (let x = 0; x < stride; x++) {
          const a = x >= channels ? px[out + x - channels]! : 0;
          const b = up ? px[prev + x]! : 0;
          px[out + x] = (raw[src + x]! + ((a + b) >> 1)) & 0xff;
        }
        break;
      case 4:
        for (let x = 0; x < stride; x++) {
          const a = x >= channels ? px[out + x - channels]! : 0;
          const b = up ? px[prev + x]! : 0;
          const c = x >= channels && up ? px[prev + x - channels]! : 0;
          const q = a + b - c;
          const pa = q > a ? q - a : a - q;
          const pb = q > b ? q - b : b - q;
          const pc = q > c ? q - c : c - q;
          px[out + x] = (raw[src + x]! + (pa <= pb && pa <= pc ? a : pb <= pc ? b : c)) & 0xff;
        }
        break;
      default:
        throw new Error(`bad PNG filter ${filter}`);
    }
  }
  if (channels === 3) return { width, height, data: px };
  const data = new Uint8Array(width * height * 3);
  for (let i = 0, j = 0; i < px.length; i += channels, j += 3) {
    if (channels >= 3) {
      data[j] = px[i]!;
      data[j + 1] = px[i + 1]!;
      data[j + 2] = px[i + 2]!;
    } else {
      data[j] = data[j + 1] = data[j + 2] = px[i]!;
    }
  }
  return { width, height, data };
}

/**
 * One capture of a page region (document coordinates, `scale` 1 unless given), decoded; throws
 * when Chromium or the PNG fails.
 */
export async function captureRegion(cdp: CDPSession, clip: { x: number; y: number; width: number; height: number; scale?: number }): Promise<RgbImage> {
  const res = (await cdp.send('Page.captureScreenshot', {
    format: 'png',
    clip: { x: clip.x, y: clip.y, width: clip.width, height: clip.height, scale: clip.scale ?? 1 },
    captureBeyondViewport: true,
    // Faster PNG encoding (Chromium 112+); older browsers ignore the unknown parameter.
    optimizeForSpeed: true,
  })) as { data: string };
  return decodePng(Buffer.from(res.data, 'base64'));
}
