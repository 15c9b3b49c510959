/**
 * The glossary: the terms, severities, types, results and statuses the report uses.
 */
import { text } from '../format.ts';
import { type Ctx, section } from './section.ts';

export async function glossary(ctx: Ctx): Promise<void> {
  const { L, report } = ctx;
  section(ctx, 'glossary', { minSpace: 300 });
  const rows: Array<[string, string]> = [
    ['Issue', 'One rule failing on one element of one page. The same problem in a shared template shows up as one issue per page.'],
    ['Critical', 'Blocks some people from using the content or completing a task. Fix first.'],
    ['Serious', 'Makes the content very hard to use for some people.'],
    ['Moderate', 'Causes difficulty or frustration, but people can usually work around it.'],
    ['Minor', 'A nuisance or a small barrier; fix it when convenient.'],
    ['Confirmed', 'The automated check is certain that the element fails the rule.'],
    ['Needs review', 'The check found a likely problem that a person must confirm or dismiss; it weighs less in the score.'],
    ['Fails (criterion)', 'At least one confirmed issue is mapped to the criterion.'],
    ['No automated failure', 'The automated checks for the criterion ran and found nothing. The criterion may still fail in ways only a person can judge.'],
    ['Not checked', 'No automated check exists for the criterion: review it by hand.'],
    ['Open, fixed', 'Issue statuses: open issues were found by the latest crawl; fixed ones were found before but not any more.'],
    ['Dismissed, can\u2019t fix', 'Issue statuses set by a reviewer: dismissed means not a real problem; can\u2019t fix means acknowledged but outside the site owner\u2019s control.'],
    ['Score', text(report.summary.scoreFormula, 600)],
  ];
  await L.table(
    L.root,
    [
      { header: 'Term', width: 130 },
      { header: 'Meaning', width: L.width - 130 },
    ],
    rows.map(([k, v]) => ({ cells: [{ text: k, style: { font: 'bold' } }, v] })),
    { rowHeaders: true },
  );
}
