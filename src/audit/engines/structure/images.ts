import type { ImageFact } from './facts.ts';

const IMAGE_EXT = 'jpe?g|png|gif|svg|webp|bmp|tiff?|avif|ico|heic';

/** Source of a loose pattern for alt texts that may be file names, also used in the page. */
export const FILE_NAME_HINT_SOURCE = String.raw`\.(?:${IMAGE_EXT})\s*$|^[0-9a-f]{16,}$|^\s*(?:img|dsc|dscn|dcim|pxl|pict?|image|photo|screenshot|screen shot)[\s_-]*\d{2,}|^\W*(?:an? |the )?(?:image|img|photo|photograph|picture|pic|graphics?|spacer|blank|placeholder|untitled|alt|alt text|alternative text|icon|banner|thumbnail|thumb|clipart|clip art|artwork|figure|insert image here|image here|no image|transparent|pixel|1x1|click|click here|click me|button|image button|link)(?:[\s_-]*\d{1,3})?\W*$`;

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
  /**
   * `own-src`: the alt is the image's own file name (extension included), which cannot describe it.
   * `placeholder`: a word that only says there is an image ("image", "photo", "spacer"; F30, F39).
   */
  kind: 'own-src' | 'file-name' | 'camera-name' | 'placeholder';
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
  if (placeholderAlt(a)) return { kind: 'placeholder', alt: a };
  return null;
}

/** Words that only say an image is there (WCAG F30, F39): nothing of what it shows. */
const PLACEHOLDER_WORDS = 'image|img|photo|photograph|picture|pic|graphic|graphics|spacer|blank|placeholder|untitled|alt|alt text|alternative text|icon|banner|thumbnail|thumb|clipart|clip art|artwork|figure|insert image here|image here|no image|transparent|pixel|1x1|click|click here|click me|button|image button|link';
const PLACEHOLDER = new RegExp(String.raw`^(?:an? |the )?(?:${PLACEHOLDER_WORDS})(?:[\s_-]*\d{1,3})?$`, 'i');
/** Of those, the ones that are never a description, whatever the picture (for `confirmed`). */
const PLACEHOLDER_STRICT = /^(?:image|img|photo|picture|pic|graphic|spacer|blank|placeholder|untitled|alt|alt text|transparent|pixel|1x1|insert image here|image here)(?:[\s_-]*\d{1,3})?$/i;

/** An alt that is a placeholder word ("image", "photo 2", "spacer"), punctuation ignored. */
export function placeholderAlt(alt: string): boolean {
  const a = alt.replace(/[.:!*()[\]"'“”]/g, ' ').replace(/\s+/g, ' ').trim();
  return a !== '' && PLACEHOLDER.test(a);
}

/** A placeholder word that is never a description, whatever the picture ("image", "spacer 2"): a failure on its own (F30). */
export function strictPlaceholderAlt(alt: string): boolean {
  return PLACEHOLDER_STRICT.test(alt.replace(/[.:!*()[\]"'“”]/g, ' ').replace(/\s+/g, ' ').trim());
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
  if (fn.kind === 'placeholder') return { ...fn, outcome: strictPlaceholderAlt(fn.alt) ? 'confirmed' : 'needs_review' };
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

/** Words of a file name, class or id that name an image kind that conveys information. */
export const INFO_HINT_SOURCE = String.raw`(?:^|[^a-z])(logo|chart|graph|diagram|infographic|map|plot|flowchart|timeline|screenshot|floorplan|floor-plan|org-?chart)s?(?:[^a-z]|$)`;
/** Words that make a file name, class or id a logo or brand mark (exempt from 1.4.5). */
export const LOGO_HINT_SOURCE = String.raw`logo|brand|wordmark|masthead`;

/**
 * An image marked decorative (alt="" or role none/presentation, no alt text) that its place or
 * its name says informs (WCAG 1.1.1, F38's converse; ACT e88epe asks a person whether an image
 * kept out of the tree is decorative): the only image of a `<figure>` with a caption, which
 * presents it as content (`figure`); or one whose file name, class or id names an informative
 * kind of image (a logo, chart, diagram, map…), standing alone with no text beside it to say the
 * same. Images in links and buttons are left to axe (link-name, button-name). Returns the hint
 * word, for `needs_review`.
 */
export function emptyAltInformative(img: ImageFact): string | null {
  const alt = img.alt?.trim() ?? null;
  const role = img.role?.split(/\s+/)[0]?.toLowerCase() ?? null;
  const decorative = alt === '' || ((role === 'presentation' || role === 'none') && !alt);
  if (!decorative || img.tag !== 'img') return null;
  if (img.inControl !== null) return null;
  if (img.width < 24 || img.height < 24) return null;
  if (img.figureCaption) return 'figure';
  if (!img.alone) return null;
  return img.infoHint;
}

/** An alt that describes a picture rather than copying words drawn in it. */
const DESCRIBES =
  /^(?:an?|photo|photograph|picture|image|illustration|drawing|painting|portrait|close-?up|view|screenshot|screen shot|diagram|chart|graph|map|icon|logo|the word|the letters?)\b|\b(?:photo|photograph|picture|image|illustration|portrait|logo|drawing|painting|screenshot|screen shot|icon|diagram|chart|graph|map|plot|figure|graphic|rendering|view) (?:of|showing|with|for)\b/i;

/** Text-like: Title Case, or figures, prices, percentages, or exclamation as on a banner. */
function textLike(text: string, words: string[]): boolean {
  if (/\p{N}|[%£$€!?:]/u.test(text)) return true;
  const long = words.filter((w) => w.replace(/\P{L}/gu, '').length >= 4);
  return long.length >= 2 && long.filter((w) => /^\p{Lu}/u.test(w.replace(/^\P{L}+/u, ''))).length / long.length >= 0.6;
}

export interface WordyImageOfText {
  text: string;
  /** `heading`: the only content of a heading; `control`: of a link or button, shaped like a button; `banner`: a wide image with banner text. */
  shape: 'heading' | 'control' | 'banner';
}

/**
 * An `<img>` whose text alternative reads like the words of a banner, button or heading rather than
 * a description, and whose shape and place are those of text: likely an image of text (1.4.5).
 * Logos are exempt; an alt that describes a picture ("a photo of…") is left alone. `needs_review`.
 */
export function wordyImageOfText(img: ImageFact): WordyImageOfText | null {
  if (img.svgText || img.logo) return null;
  const text = (img.name ?? img.alt ?? '').replace(/\s+/g, ' ').trim();
  if (text.length > 160 || DESCRIBES.test(text) || fileNameAlt(text, img.src)) return null;
  const words = text.split(' ').filter((w) => /\p{L}/u.test(w));
  if (words.length < 2 || words.length > 20) return null;
  const { width: w, height: h } = img;
  if (w < 40 || h < 12) return null;
  const ratio = w / h;
  if (img.inHeading && img.alone && ratio >= 1.5) return { text, shape: 'heading' };
  const inControl = img.inControl !== null || img.tag === 'input';
  // A link to an image file is a thumbnail opening the full picture, not a button.
  const toImage = img.inControl !== null && HAS_IMAGE_EXT.test(baseName(img.inControl));
  if (inControl && !toImage && img.alone && ratio >= 1.8 && h <= 70) return { text, shape: 'control' };
  if (!img.inHeading && !inControl && words.length >= 3 && ratio >= 1.8 && h <= 300 && textLike(text, words)) return { text, shape: 'banner' };
  return null;
}
