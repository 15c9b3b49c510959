import { ruleEntries } from './entry.ts';
import type { FixGuide } from './guide.ts';

/** Who is affected by each rule of this engine, and how to fix it. */
export const TITLE_GUIDES: Readonly<Record<string, FixGuide>> = {
  'title-generic': {
    who: 'The title is the first thing a screen reader announces and what every tab, bookmark and history entry shows: a placeholder such as "Untitled document" or a file name leaves screen reader users, people with memory or attention difficulties and anyone with many tabs open unable to tell the page apart.',
    fix: 'Give every page a title that says what it is about, most specific part first, then the site name (for example "Opening hours – Springfield Library").',
  },
  'title-unrelated': {
    who: 'A title that does not match the page misleads people who rely on it to know where they are: screen reader users hear it first, and tabs, bookmarks and search results show it.',
    fix: 'Make the title describe this page\'s content or purpose, usually the same words as its main heading, followed by the site name.',
  },
  'frame-title-generic': {
    who: 'Screen reader users hear a frame\'s title when they reach it and pick frames from a list by it: "iframe" or a file name does not tell them what the frame holds (a map, a video, a payment form) or whether to enter it.',
    fix: 'Give the iframe a title that says what it contains, for example title="Map of the library\'s location" or title="Payment details".',
  },
};

/** The title engine's rules. */
export const TITLE_CATALOGUE = ruleEntries('title', [
  { id: 'title-generic', criteria: ['2.4.2'], severities: ['serious'] },
  { id: 'title-unrelated', criteria: ['2.4.2'], severities: ['moderate'] },
  { id: 'frame-title-generic', criteria: ['4.1.2'], severities: ['moderate'] },
]);
