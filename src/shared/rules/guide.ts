/** Why a rule matters to people and how to fix it: the texts an issue falls back on. */
export interface FixGuide {
  who: string;
  fix: string;
}

/** For a rule the catalogue has no guide for. */
export const DEFAULT_GUIDE: FixGuide = {
  who: 'This barrier keeps some people from perceiving, operating or understanding the content.',
  fix: 'Follow the engine\'s advice below for this element and retest the page.',
};
