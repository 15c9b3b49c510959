/** Reading a PNG's header: pictures are checked before they are stored, served or embedded. */

/** Width and height of a PNG from its header, or null when the bytes are not a PNG. */
export function pngSize(png: Uint8Array): { width: number; height: number } | null {
  const sig = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (png.length < 24 || sig.some((b, i) => png[i] !== b)) return null;
  // The first chunk is IHDR: length (4), type (4), then width and height, big-endian.
  if (String.fromCharCode(png[12]!, png[13]!, png[14]!, png[15]!) !== 'IHDR') return null;
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}
