import type { ImageFact } from './facts.ts';

const IMAGE_EXT = 'jpe?g|png|gif|svg|webp|bmp|tiff?|avif|ico|heic';

/** Source of a loose pattern for alt texts that may be file names, also used in the page. */
export const FILE_NAME_HINT_SOURCE = String.raw`\.(?:${IMAGE_EXT})\s*$|^[0-9a-f]{16,}$|^\s*(?:img|dsc|dscn|dcim|pxl|pict?|image|photo|screenshot|screen shot)[\s_-]*\d{2,}`;

/** A name that is only a file name with an image extension: no spaces around words, an extension. */
const FILE_NAME = new RegExp(String.raw`^[^\s/\\]{1,120}\.(?:${IMAGE_EXT})$`, 'i');
/** A content hash or generated id used as a file name: 16+ hex digits, nothing else. */
const HASH = /^[0-9a-f]{16,}$/i;
const HAS_IMAGE_EXT = new RegExp(String.raw`\.(?:${IMAGE_EXT})$`, 'i');
/** Camera and screenshot names: IMG_1234, DSC01234, PXL_20230101_…, "Screenshot 2024-01-01 at 10.00.00". */
const CAMERA_NAME = /^(?:img|dsc|dscn|dcim|pxl|pict?|image|photo)[\s_-]*\d{3,}[\w-]*$|^(?:screenshot|screen shot)[\s_-]*\d{4}-\d{2}-\d{2}/i;

/** The last path segment of a URL, decoded, without query or fragment. */
export function baseName(src: string): string {
  let path = src.trim();
  if (/^data:/i.test(path)) return '';
  path = path.replace(/[?#].*$/, '');
  const seg = path.split('/').pop() ?? '';
  try {
    return decodeURIComponent(seg);
  } catch {
    return seg;
  }
}

export interface FileNameAlt {
  /** `own-src`: the alt is the image's own file name (extension included), which cannot describe it. */
  kind: 'own-src' | 'file-name' | 'camera-name';
  alt: string;
}

/** An alt text that is a file name rather than a description (WCAG 1.1.1). */
export function fileNameAlt(alt: string | null, src: string): FileNameAlt | null {
  if (alt === null) return null;
  const a = alt.trim();
  if (a === '') return null;
  const base = baseName(src);
  // The alt is the image's own file name, or its own address (Sphinx and other generators fill a
  // missing alt with the image's path): "../_images/chart.png" for src="../_images/chart.png".
  const altFile = /^[^\s]+$/.test(a) && /[/\\]/.test(a) ? baseName(a.replace(/\\/g, '/')) : a;
  if (base !== '' && altFile.toLowerCase() === base.toLowerCase() && (HAS_IMAGE_EXT.test(base) || HASH.test(base))) return { kind: 'own-src', alt: a };
  if (altFile !== a && FILE_NAME.test(altFile)) return { kind: 'file-name', alt: a };
  if (FILE_NAME.test(a)) return { kind: 'file-name', alt: a };
  if (CAMERA_NAME.test(a)) return { kind: 'camera-name', alt: a };
  return null;
}

export interface ImageNameVerdict extends FileNameAlt {
  outcome: 'confirmed' | 'needs_review';
}

/**
 * The image's accessible name is a file name (WCAG 1.1.1). Judged on the name the image really
 * gets (an aria-label overrides the alt). `confirmed` only when the name is the image's own file
 * name or path and the image is not inside a link or button: there a file name can be the right
 * name (a link that downloads that very file), so it is `needs_review`, and a link to the image's
 * own file is left alone.
 */
export function judgeImageName(img: ImageFact): ImageNameVerdict | null {
  const name = img.name ?? img.alt;
  const fn = fileNameAlt(name, img.src);
  if (!fn) return null;
  if (img.inControl !== null) {
    const target = baseName(img.inControl);
    if (target !== '' && target.toLowerCase() === baseName(img.src).toLowerCase()) return null;
    return { ...fn, outcome: 'needs_review' };
  }
  return { ...fn, outcome: fn.kind === 'own-src' ? 'confirmed' : 'needs_review' };
}

export interface HiddenImageText {
  /** How the image is hidden, and the text it carries anyway. */
  hiddenBy: 'role-presentation' | 'aria-hidden' | 'empty-alt';
  text: string;
  from: 'alt' | 'title';
}

/**
 * An image taken out of the accessibility tree (role none/presentation, aria-hidden, or an empty
 * alt) that still carries a text alternative in its alt or title: either the text is needed and
 * hidden, or the image is decorative and the text is a leftover. Only a person can tell which
 * (WCAG 1.1.1), so always `needs_review`.
 */
export function hiddenImageText(img: ImageFact): HiddenImageText | null {
  const alt = img.alt?.trim() ?? null;
  const title = img.title?.trim() ?? '';
  const role = img.role?.split(/\s+/)[0]?.toLowerCase() ?? null;
  if (role === 'presentation' || role === 'none') {
    if (alt) return { hiddenBy: 'role-presentation', text: alt, from: 'alt' };
    return null;
  }
  if (img.ariaHidden) {
    if (alt) return { hiddenBy: 'aria-hidden', text: alt, from: 'alt' };
    return null;
  }
  if (alt === '' && title !== '' && (role === null || role === 'img')) return { hiddenBy: 'empty-alt', text: title, from: 'title' };
  return null;
}

/**
 * An `<img>` whose picture is an SVG drawing of text (its `<text>` elements hold words): an
 * image of text (WCAG 1.4.5) unless it is a logo or the form is essential, so `needs_review`.
 */
export function svgImageOfText(img: ImageFact): string | null {
  const t = img.svgText?.replace(/\s+/g, ' ').trim() ?? '';
  if (!/\p{L}{2,}/u.test(t)) return null;
  return t;
}
