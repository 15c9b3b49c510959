import type { CrawlPageForChecks } from '../../shared/page-titles.ts';
import type { NewFindingRecord } from '../../shared/findings.ts';
import { sharedTitles } from '../../shared/page-titles.ts';
import type { ViewportName } from '../../shared/contracts.ts';
import { flowNameOf } from '../../shared/site-flows.ts';
import { isDesktopOnly } from '../../shared/viewports.ts';
import { fingerprint } from '../findings/findings.ts';
import { ownFinding, understandingUrl } from '../engines/engine.ts';
import { groupKey } from '../findings/group-key.ts';
import { CRAWL_CHECK_GUIDES, SHARED_TITLE_RULE } from '../../shared/rules/crawl-checks.ts';


const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * WCAG 2.4.2 across the crawl: every page whose title is shared by several other pages gets a
 * `needs_review` finding (the title may still be descriptive enough together with the page's
 * heading; a person decides). The pages' scores stay as they were scanned.
 */
export function sharedTitleFindings(
  pages: readonly CrawlPageForChecks[],
  crawl: { viewports: readonly ViewportName[] | null } = { viewports: null },
): Array<{ pageScanId: string; finding: NewFindingRecord }> {
  const out: Array<{ pageScanId: string; finding: NewFindingRecord }> = [];
  // On a crawl whose findings carry their viewport, the title is the first viewport's (as the pages' own title findings).
  const viewport = isDesktopOnly(crawl.viewports) ? null : crawl.viewports![0]!;
  // A flow's end state is a page of its own, but its title is its start page's business: it is not one more page sharing it.
  const pagesOfSite = pages.filter((p) => flowNameOf(p.url) === undefined);
  for (const group of sharedTitles(pagesOfSite.map((p) => ({ url: p.url, title: p.title, ref: p.pageScanId })))) {
    const html = `<title>${escapeHtml(group.title.slice(0, 200))}</title>`;
    for (const page of group.pages) {
      const others = group.pages.filter((p) => p.url !== page.url).slice(0, 5).map((p) => p.url);
      const draft = ownFinding({
        ruleId: SHARED_TITLE_RULE,
        type: 'needs_review',
        severity: 'moderate',
        criterion: '2.4.2',
        selector: 'title',
        html,
        help: 'Each page should have its own title',
        description: 'Checks that pages of a site do not share one title, so the title tells which page is open',
        failureSummary: `${group.pages.length} pages of this crawl have the title "${group.title.slice(0, 120)}"`,
        helpUrl: understandingUrl('page-titled'),
        data: { engine: 'crawl', title: group.title.slice(0, 160), pagesWithTitle: group.pages.length, otherPages: others },
      });
      out.push({
        pageScanId: page.ref,
        finding: {
          ...draft,
          state: null,
          viewport,
          description: `${draft.engineHelp}. ${draft.failureSummary}.`,
          fixSuggestion: CRAWL_CHECK_GUIDES[SHARED_TITLE_RULE]!.fix,
          fingerprint: fingerprint(page.url, draft.ruleId, draft.elementSelector, { viewport }),
          groupKey: groupKey(draft.ruleId, draft.elementSelector, draft.elementHtml),
        },
      });
    }
  }
  return out;
}
