import type { FindingDraft } from '../../../shared/findings.ts';
import { ensureInPage } from '../../session/in-page.ts';
import { collectStructureFacts, DEFAULT_CAPS, type CollectInput } from './collect.ts';
import type { ElementRef, StructureFacts } from './facts.ts';
import { judgeHeading, MAX_HEADING_CHARS, MAX_HEADING_WORDS } from './headings.ts';
import { FILE_NAME_HINT_SOURCE, hiddenImageText, judgeImageName, svgImageOfText } from './images.ts';
import { LIST_MARKER_SOURCE, longestListRun } from './lists.ts';
import { SENSORY_HINT_SOURCE, SENSORY_PATTERN_SOURCES, sensoryReference } from './sensory.ts';
import { judgeTable, NUMERIC_CELL_SOURCE } from './tables.ts';
import { ownFinding, understandingUrl, type EngineResult, type PageSession, type ScanEngine } from '../engine.ts';

const INFO_REL = understandingUrl('info-and-relationships');

const CAP = (s: string) => s.replace(/\s+/g, ' ').trim().slice(0, 160);

/** What the in-page collector is given: caps and the deciders' patterns. */
export function structureInput(): CollectInput {
  return {
    caps: DEFAULT_CAPS,
    numericSource: NUMERIC_CELL_SOURCE,
    listMarkerSource: LIST_MARKER_SOURCE,
    fileNameHintSource: FILE_NAME_HINT_SOURCE,
    sensoryHintSource: SENSORY_HINT_SOURCE,
    sensoryPatternSources: SENSORY_PATTERN_SOURCES,
    maxHeadingChars: MAX_HEADING_CHARS,
    maxHeadingWords: MAX_HEADING_WORDS,
  };
}

/** Findings from the measured facts: the pure part of the engine, kept apart for tests. */
export function structureFindings(facts: StructureFacts): FindingDraft[] {
  const out: FindingDraft[] = [];
  const at = (ref: ElementRef) => ({ selector: ref.selector, html: ref.html });

  for (const t of facts.tables) {
    for (const v of judgeTable(t)) {
      const shape = `${t.rows} rows × ${t.cols} columns`;
      switch (v.rule) {
        case 'table-no-headers':
          out.push(
            ownFinding({
              ruleId: v.rule,
              type: v.outcome,
              severity: 'serious',
              criterion: '1.3.1',
              ...at(t.ref),
              help: 'Mark the header cells of data tables with <th>',
              description: 'A data table needs header cells (<th>, or scope/headers) so that each value can be tied to its row and column.',
              failureSummary: `This table (${shape}) has no header cells at all, yet ${v.evidence}.`,
              helpUrl: INFO_REL,
              data: { table: { rows: t.rows, cols: t.cols, evidence: v.evidence, numericShare: Math.round(t.numericShare * 100) / 100 } },
            }),
          );
          break;
        case 'layout-table-semantics':
          out.push(
            ownFinding({
              ruleId: v.rule,
              type: 'needs_review',
              severity: 'moderate',
              criterion: '1.3.1',
              ...at(t.ref),
              help: 'Do not give layout tables data-table markup',
              description: 'A table used only to lay content out must not use <th>, <caption>, summary or scope, which announce it as a data table.',
              failureSummary: `This table (${shape}) holds ${v.layout.join(', ')} like a page layout, but uses ${v.claims.join(', ')}. Check whether it presents data; if not, remove that markup.`,
              helpUrl: INFO_REL,
              data: { table: { rows: t.rows, cols: t.cols, layout: v.layout, claims: v.claims } },
            }),
          );
          break;
        case 'layout-table':
          out.push(
            ownFinding({
              ruleId: v.rule,
              type: 'needs_review',
              severity: 'minor',
              criterion: '1.3.2',
              ...at(t.ref),
              help: 'Check that layout tables read in a meaningful order',
              description: 'Content laid out with a table is read row by row, cell by cell; that order must make sense, and the table should be marked role="presentation".',
              failureSummary: `This table (${shape}) is used for layout (it holds ${v.layout.join(', ')}) and has no role="presentation". Check that its content makes sense read cell by cell.`,
              helpUrl: understandingUrl('meaningful-sequence'),
              data: { table: { rows: t.rows, cols: t.cols, layout: v.layout } },
            }),
          );
          break;
        case 'table-nested':
          out.push(
            ownFinding({
              ruleId: v.rule,
              type: 'needs_review',
              severity: 'moderate',
              criterion: '1.3.1',
              ...at(t.ref),
              help: 'Avoid tables nested inside data tables',
              description: 'A table inside a cell of a data table cannot be related to the outer table\'s headers by assistive technology.',
              failureSummary: `This table (${shape}) sits inside a ${v.inHeader ? 'header cell (<th>)' : 'data cell'} of another data table. Check whether its values can be understood without the outer headers; otherwise flatten the two tables.`,
              helpUrl: INFO_REL,
              data: { table: { rows: t.rows, cols: t.cols, nestedIn: t.nestedIn } },
            }),
          );
          break;
        case 'table-empty-header':
          for (const th of t.emptyTh) {
            out.push(
              ownFinding({
                ruleId: v.rule,
                type: 'needs_review',
                severity: 'minor',
                criterion: '1.3.1',
                ...at(th),
                help: 'Give every table header cell text',
                description: 'A header cell (<th>) with no text gives its row or column an empty header.',
                failureSummary: `This header cell of a ${shape} data table has no text and no accessible name. If it heads a row or column, give it text; if it is an empty corner, make it a <td>.`,
                helpUrl: INFO_REL,
                data: { table: { rows: t.rows, cols: t.cols, emptyHeaders: v.count, table: t.ref.selector } },
              }),
            );
          }
          break;
      }
    }
  }

  for (const h of facts.headings) {
    const v = judgeHeading(h, facts.context.bodyFontSize);
    if (!v || !h.next) continue;
    out.push(
      ownFinding({
        ruleId: 'visual-heading-not-marked',
        type: 'needs_review',
        severity: 'moderate',
        criterion: '1.3.1',
        ...at(h.ref),
        help: 'Mark text that looks like a heading as a heading',
        description: 'Text presented as a heading (larger or bold, on its own line, introducing content) must be marked up as a heading.',
        failureSummary: `"${CAP(h.text)}" is shown like a heading (${h.style.size}px${v.bold ? ' bold' : ''}, ${v.ratio}× the ${h.next.style.size}px text after it) but is a <${h.tag}>, not a heading. If it introduces a section, mark it up as one.`,
        helpUrl: INFO_REL,
        data: { heading: { text: CAP(h.text), fontSize: h.style.size, fontWeight: h.style.weight, nextFontSize: h.next.style.size, ratio: v.ratio, bodyRatio: v.bodyRatio } },
      }),
    );
  }

  for (const l of facts.lists) {
    const run = longestListRun(l.lines);
    if (!run) continue;
    const sample = l.lines.slice(run.start, run.start + 3).map(CAP);
    out.push(
      ownFinding({
        ruleId: 'list-not-marked',
        type: 'needs_review',
        severity: 'moderate',
        criterion: '1.3.1',
        ...at(l.ref),
        help: 'Mark up lists as lists',
        description: 'Items presented as a list (bullets or numbers at the start of each line) must be marked up with <ul>/<ol> and <li>.',
        failureSummary: `${run.length} ${l.kind === 'br' ? 'lines separated by <br>' : 'consecutive paragraphs'} start with "${run.marker}" like list items (${sample.map((s) => `"${s}…"`).join(', ')}) but are not in a list element.`,
        helpUrl: INFO_REL,
        data: { list: { kind: l.kind, marker: run.marker, items: run.length, sample } },
      }),
    );
  }

  for (const img of facts.images) {
    const fn = judgeImageName(img);
    if (fn) {
      const own = fn.kind === 'own-src';
      out.push(
        ownFinding({
          ruleId: 'image-alt-filename',
          type: fn.outcome,
          severity: 'serious',
          criterion: '1.1.1',
          ...at(img.ref),
          help: 'Do not use a file name as alternative text',
          description: 'An image\'s text alternative must say what the image conveys; a file name does not.',
          failureSummary: own
            ? `The text alternative "${CAP(fn.alt)}" is the image's own ${fn.alt.includes('/') || fn.alt.includes('\\') ? 'file path' : 'file name'}${img.inControl !== null ? ', inside a link or button: check whether the file name is really what it leads to' : ''}.`
            : `The text alternative "${CAP(fn.alt)}" looks like a file name${fn.kind === 'camera-name' ? ' given by a camera or screenshot tool' : ''}, not a description of the image.`,
          helpUrl: understandingUrl('non-text-content'),
          data: { image: { alt: CAP(fn.alt), src: img.src.slice(0, 300), kind: fn.kind, ...(img.inControl !== null ? { inLinkOrButton: true } : {}) } },
        }),
      );
    }
    const hid = hiddenImageText(img);
    if (hid) {
      const how = hid.hiddenBy === 'role-presentation' ? `role="${img.role}"` : hid.hiddenBy === 'aria-hidden' ? 'aria-hidden="true"' : 'alt=""';
      out.push(
        ownFinding({
          ruleId: 'image-hidden-has-alt',
          type: 'needs_review',
          severity: 'moderate',
          criterion: '1.1.1',
          ...at(img.ref),
          help: 'Check that images hidden from assistive technology are decorative',
          description: 'An image removed from the accessibility tree must be purely decorative; text in its alt or title suggests it may convey something.',
          failureSummary: `This image is hidden from assistive technology by ${how} but has the ${hid.from} text "${CAP(hid.text)}". If it conveys information, expose it with that text; if it is decorative, remove the text.`,
          helpUrl: understandingUrl('non-text-content'),
          data: { image: { hiddenBy: hid.hiddenBy, [hid.from]: CAP(hid.text) } },
        }),
      );
    }
    const svgText = svgImageOfText(img);
    if (svgText) {
      out.push(
        ownFinding({
          ruleId: 'image-of-text',
          type: 'needs_review',
          severity: 'moderate',
          criterion: '1.4.5',
          ...at(img.ref),
          help: 'Use text rather than images of text',
          description: 'Text should be real text, not drawn into an image, unless it is a logo or its look is essential.',
          failureSummary: `This image draws the text "${CAP(svgText)}" (${img.width}×${img.height}px). Unless it is a logo, use real text styled with CSS.`,
          helpUrl: understandingUrl('images-of-text'),
          data: { image: { text: CAP(svgText), width: img.width, height: img.height } },
        }),
      );
    }
  }

  for (const b of facts.sensory) {
    const ref = sensoryReference(b.text, facts.context);
    if (!ref) continue;
    out.push(
      ownFinding({
        ruleId: 'sensory-reference',
        type: 'needs_review',
        severity: 'moderate',
        criterion: '1.3.3',
        ...at(b.ref),
        help: 'Do not refer to content only by position, shape, colour or sound',
        description: 'Instructions must not rely only on where something is or how it looks; name it by its label as well.',
        failureSummary:
          ref.kind === 'sound'
            ? `The text gives a cue by sound only ("${CAP(ref.phrase)}"): people who cannot hear it get no other signal from the text.`
            : ref.kind === 'colour-meaning'
              ? `The text says colour carries the meaning ("${CAP(ref.phrase)}"), with no other cue named (text, symbol, shape): people who cannot tell colours apart cannot follow it.`
              : `The text refers to "${CAP(ref.phrase)}" by its ${ref.kind === 'position' ? 'position' : ref.kind === 'near-shape' ? 'place next to a shape' : 'shape or colour'}, and the page offers no label, heading or single ${ref.noun} to find it otherwise.`,
        helpUrl: understandingUrl('sensory-characteristics'),
        data: { sensory: { phrase: CAP(ref.phrase), noun: ref.noun, kind: ref.kind } },
      }),
    );
  }
  return out;
}

/**
 * Structure checks in one pass over the page: data tables without header cells, layout tables
 * with data-table markup, nested tables and empty header cells; text shown as a heading but not
 * marked as one; lines typed as a list; images whose alt is a file name, hidden images carrying
 * text, SVG images of text; and text that points at things by position, shape or colour.
 * Read-only: it changes nothing in the page. Work is capped (see `DEFAULT_CAPS`).
 */
export const structureEngine: ScanEngine = {
  id: 'structure',
  stage: 'CustomChecks',
  async run({ page }: PageSession): Promise<EngineResult> {
    await ensureInPage(page);
    const facts = await page.evaluate(collectStructureFacts, structureInput());
    return { findings: structureFindings(facts) };
  },
};
