import { ruleEntries } from './entry.ts';
import type { FixGuide } from './guide.ts';

export const SHARED_TITLE_RULE = 'page-title-shared';

export const CRAWL_CHECK_GUIDES: Readonly<Record<string, FixGuide>> = {
  [SHARED_TITLE_RULE]: {
    who: 'The title is the first thing a screen reader announces and what tabs, bookmarks and history show: when many pages share one, people cannot tell them apart or know where a link took them.',
    fix: 'Give each page a title that names its own content first, then the site, e.g. "Installing IPython | IPython 3 docs".',
  },
};

/** The checks run across a whole crawl. */
export const CRAWL_CHECK_CATALOGUE = ruleEntries('crawl', [{ id: SHARED_TITLE_RULE, criteria: ['2.4.2'], severities: ['moderate'] }]);
