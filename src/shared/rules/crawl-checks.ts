import { ruleEntries } from './entry.ts';
import type { FixGuide } from './guide.ts';

export const SHARED_TITLE_RULE = 'page-title-shared';
export const MULTIPLE_WAYS_RULE = 'multiple-ways-single-path';

export const CRAWL_CHECK_GUIDES: Readonly<Record<string, FixGuide>> = {
  [SHARED_TITLE_RULE]: {
    who: 'The title is the first thing a screen reader announces and what tabs, bookmarks and history show: when many pages share one, people cannot tell them apart or know where a link took them.',
    fix: 'Give each page a title that names its own content first, then the site, e.g. "Installing IPython | IPython 3 docs".',
  },
  [MULTIPLE_WAYS_RULE]: {
    who: 'People find pages in different ways: a screen reader or magnifier user may search rather than read long menus, a person with a cognitive disability may prefer a site map; a page reached by one link only is lost to whoever cannot use that path.',
    fix: 'Offer a second way to this page: a site search, a site map or table of contents linking to every page, or links to it from related pages or the site-wide navigation (WCAG techniques G161, G63, G64, G125).',
  },
};

/** The checks run across a whole crawl. */
export const CRAWL_CHECK_CATALOGUE = ruleEntries('crawl', [
  { id: SHARED_TITLE_RULE, criteria: ['2.4.2'], severities: ['moderate'] },
  { id: MULTIPLE_WAYS_RULE, criteria: ['2.4.5'], severities: ['moderate'] },
]);
