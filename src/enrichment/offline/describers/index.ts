/**
 * The rules with element-specific offline texts, and who writes them. Rules not listed here get
 * the generic text from the rule's guide and the engine's own findings.
 */
import type { Describer } from './context.ts';
import { describeContrast } from './contrast.ts';
import { describeImage } from './image.ts';
import { describeLabel } from './label.ts';
import { describeLang } from './lang.ts';
import { describeLink } from './link.ts';
import { describeTarget } from './target.ts';

export type { Ctx, Describer, Texts } from './context.ts';
export { destinationName } from './link.ts';
export { suggestLang } from './lang.ts';

export const DESCRIBERS: Readonly<Record<string, Describer>> = {
  'color-contrast': describeContrast,
  'image-alt': describeImage,
  'input-image-alt': describeImage,
  label: describeLabel,
  'select-name': describeLabel,
  'target-size': describeTarget,
  'target-size-mobile': describeTarget,
  'link-text-generic': describeLink,
  'link-name': describeLink,
  'html-has-lang': describeLang,
  'html-lang-valid': describeLang,
};
