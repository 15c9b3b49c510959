/** What a rule's describer gets and gives back. */
import type { FixGuide } from '../../../shared/rules/index.ts';
import type { EnrichableFinding, PageInfo } from '../../../shared/summary.ts';
import type { Facts } from '../facts.ts';

export interface Ctx {
  f: EnrichableFinding;
  facts: Facts;
  guide: FixGuide;
  page?: PageInfo;
  /** " This fails WCAG …." plus the review note. */
  tail: string;
}

export interface Texts {
  description: string;
  fix: string;
}

/** Texts specific to the element, or undefined when the engine did not measure enough for them. */
export type Describer = (ctx: Ctx) => Texts | undefined;
