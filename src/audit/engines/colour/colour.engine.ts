import { ensureInPage } from '../../session/in-page.ts';
import { COLOUR_RULES } from '../../../shared/rules/colour.ts';
import type { FindingDraft } from '../../../shared/findings.ts';
import { contrast, floor2, parseCssColour, type Rgb } from '../pixel-contrast/luminance.ts';
import { ownFinding, understandingUrl, type EngineResult, type PageSession, type ScanEngine } from '../engine.ts';
import { fieldVerdicts, linkVerdict, needsTextBlock, scanColour, type FieldFacts } from './colour-scan.ts';
import type { AuditWindow } from '../page-helpers.ts';

/**
 * Use of colour (1.4.1), read from computed styles (no layout change, no screenshot):
 *
 * - `link-colour-only` (F73): a link in text whose only mark is its colour, with less than 3:1
 *   contrast against the text around it. axe's `link-in-text-block` leaves "needs review" where it
 *   cannot find the background; where the link and its inline ancestors have no background of their
 *   own, the background is the text's and the case is decided here: `confirmed` below 3:1 with no
 *   other mark, axe's "needs review" withdrawn when the link has another mark or enough contrast.
 *   A link axe does not count as in text (on a line of its own inside a paragraph) is `needs_review`.
 * - `field-colour-only` (F81): in a form, fields set apart from the others only by colours (a red
 *   border or background, a red label), with no text saying required or wrong: `needs_review`.
 *
 * Caps: 1 500 links and 300 fields a page.
 */

const LIMITS = { maxLinks: 1500, maxFields: 300 };
const AXE_RULE = 'link-in-text-block';

const opaque = (c: string): Rgb | undefined => {
  const p = parseCssColour(c);
  return p && p.alpha === 1 ? p.rgb : undefined;
};

export const colourEngine: ScanEngine = {
  id: 'colour',
  stage: 'CustomChecks',
  async run({ page, earlier }: PageSession): Promise<EngineResult> {
    const axe = earlier.filter((f) => f.ruleId === AXE_RULE);
    await ensureInPage(page);
    const facts = await page.evaluate(scanColour, {
      axeSelectors: axe.filter((f) => f.type === 'needs_review').map((f) => f.elementSelector),
      skipSelectors: axe.filter((f) => f.type === 'confirmed').map((f) => f.elementSelector),
      ...LIMITS,
    });
    const findings: FindingDraft[] = [];
    const supersedes: NonNullable<EngineResult['supersedes']> = [];
    const ids: number[] = [];
    const pending: Array<(d: { selector: string; html: string; inTextBlock: boolean }) => void> = [];

    // Links: which are settled, and, for the few that would be reported outside axe's results,
    // axe's test of being in text (it needs axe's tree, set up once below with the descriptions).
    const rated = facts.links.map((f) => {
      const fg = opaque(f.linkColour);
      const text = opaque(f.textColour);
      return { f, ratio: fg && text ? floor2(contrast(fg, text)) : null };
    });
    const askText = rated.filter(({ f, ratio }) => needsTextBlock(f, ratio)).map(({ f }) => f.id);
    for (const { f, ratio } of rated) {
      if (f.axeSelector && linkVerdict(f, ratio).outcome !== 'keep') supersedes.push({ ruleId: AXE_RULE, selector: f.axeSelector });
    }
    const linkIds = rated.filter(({ f, ratio }) => !['keep', 'drop'].includes(linkVerdict(f, ratio).outcome) || askText.includes(f.id));
    for (const { f, ratio } of linkIds) {
      ids.push(f.id);
      pending.push((d) => {
        const v = linkVerdict({ ...f, inTextBlock: f.inTextBlock || d.inTextBlock }, ratio);
        if (v.outcome !== 'confirmed' && v.outcome !== 'needs_review') return;
        const outcome = v.outcome;
        findings.push(
          ownFinding({
            ruleId: COLOUR_RULES.link,
            type: outcome,
            severity: 'serious',
            criterion: '1.4.1',
            selector: d.selector,
            html: d.html,
            help: 'Mark links in text with more than colour',
            description: 'A link in a block of text must be told apart from the text by more than colour (an underline, a border, bold…), or by a colour with at least 3:1 contrast against the text plus a non-colour mark on hover and focus (F73).',
            failureSummary: `The link "${f.text}" (${f.linkColour}) in text of ${f.textColour}: ${v.reason}`,
            helpUrl: understandingUrl('use-of-color'),
            data: {
              linkColour: f.linkColour,
              textColour: f.textColour,
              contrast: v.contrast,
              ...(f.axeSelector ? { decides: AXE_RULE } : {}),
              ...(outcome === 'needs_review' ? { review: { reason: v.reason } } : {}),
            },
          }),
        );
      });
    }

    const groups = new Map<number, FieldFacts[]>();
    for (const f of facts.fields) groups.set(f.group, [...(groups.get(f.group) ?? []), f]);
    for (const group of groups.values()) {
      for (const v of fieldVerdicts(group, opaque).slice(0, 5)) {
        const what = Object.entries(v.differs)
          .map(([k, [mine, others]]) => `${k} ${mine} (others: ${others})`)
          .join(', ');
        const reason = `Fields of this form differ from this one only by colour (${what}) and no text near it says it is required or wrong: check whether the colour is the only sign of an error or of a required field.`;
        ids.push(v.id);
        pending.push((d: { selector: string; html: string }) =>
          findings.push(
            ownFinding({
              ruleId: COLOUR_RULES.field,
              type: 'needs_review',
              severity: 'serious',
              criterion: '1.4.1',
              selector: d.selector,
              html: d.html,
              help: 'Do not mark required or wrong fields by colour alone',
              description: 'A required field or a field in error must be marked by more than colour: a text such as "required" or an error message, or an icon with a text alternative (F81).',
              failureSummary: `The field${v.label ? ` "${v.label}"` : ''}: ${reason}`,
              helpUrl: understandingUrl('use-of-color'),
              data: { differs: v.differs, review: { reason } },
            }),
          ),
        );
      }
    }

    if (ids.length) {
      const described = await page.evaluate(
        ({ ids, askText }) => {
          const w = window as unknown as AuditWindow & { axe: { commons: { dom: { isInTextBlock(el: Element): boolean } } } };
          const A = w.__a11yAudit;
          return A.withTree(() =>
            ids.map((id) => {
              const el = A.recall(id);
              if (!el || !el.isConnected) return null;
              let inTextBlock = false;
              try {
                inTextBlock = askText.includes(id) && w.axe.commons.dom.isInTextBlock(el);
              } catch {
                // axe cannot tell: not in text
              }
              return { ...A.describe(el), inTextBlock };
            }),
          );
        },
        { ids, askText },
      );
      described.forEach((d, i) => d && pending[i]!(d));
    }
    return { findings, supersedes };
  },
};

