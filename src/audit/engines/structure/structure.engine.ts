import type { FindingDraft } from '../../../shared/findings.ts';
import { ensureInPage } from '../../session/in-page.ts';
import { collectStructureFacts, DEFAULT_CAPS, type CollectInput } from './collect.ts';
import { collectContentFacts } from './collect-content.ts';
import type { ElementRef, StructureFacts } from './facts.ts';
import { judgeHeading, MAX_HEADING_CHARS, MAX_HEADING_WORDS } from './headings.ts';
import { backgroundWorthReporting, hiddenContentWorthReporting, meaningfulGenerated, spacerWorthReporting, SR_CLASS_SOURCE, STATUS_HINT_SOURCE } from './content.ts';
import { emptyAltInformative, FILE_NAME_HINT_SOURCE, hiddenImageText, INFO_HINT_SOURCE, judgeImageName, LOGO_HINT_SOURCE, svgImageOfText, wordyImageOfText } from './images.ts';
import { imageTextFindings } from './image-text.ts';
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
    infoHintSource: INFO_HINT_SOURCE,
    logoHintSource: LOGO_HINT_SOURCE,
    srClassSource: SR_CLASS_SOURCE,
    statusHintSource: STATUS_HINT_SOURCE,
  };
}

/** Findings from the measured facts: the pure part of the engine, kept apart for tests. */
export function structureFindings(facts: StructureFacts): FindingDraft[] {
  const out: FindingDraft[] = [];
  const at = (ref: ElementRef) => ({ selector: ref.selector, html: ref.html });
  /** An `image-of-text` finding (1.4.5): an image whose text alternative or drawing reads as words. */
  const imageOfText = (img: { ref: ElementRef }, failureSummary: string, image: Record<string, unknown>): FindingDraft =>
    ownFinding({
      ruleId: 'image-of-text',
      type: 'needs_review',
      severity: 'moderate',
      criterion: '1.4.5',
      ...at(img.ref),
      help: 'Use text rather than images of text',
      description: 'Text should be real text, not drawn into an image, unless it is a logo or its look is essential.',
      failureSummary,
      helpUrl: understandingUrl('images-of-text'),
      data: { image },
    });

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
        case 'table-complex-headers': {
          const levels = [
            v.headerRows >= 2 ? `${v.headerRows} rows of column headers` : '',
            v.rowHeaderLevels >= 2 ? `${v.rowHeaderLevels} header cells opening a row` : '',
          ].filter(Boolean);
          out.push(
            ownFinding({
              ruleId: v.rule,
              type: 'needs_review',
              severity: 'moderate',
              criterion: '1.3.1',
              ...at(t.ref),
              help: 'Tie each data cell to all its headers in a table with headers on several levels',
              description: 'A table whose data cells have more than one column or row header needs each cell tied to all of them: headers and id (H43), or scope with colgroup/rowgroup for headers that span.',
              failureSummary: `This table (${shape}) has ${levels.join(' and ')}, and no cell uses the headers attribute${v.scope ? ' (some cells use scope)' : ''}. Check with a screen reader that each data cell is read with every header above and beside it; if not, give the header cells ids and each data cell a headers attribute listing them.`,
              helpUrl: INFO_REL,
              data: { table: { rows: t.rows, cols: t.cols, headerRows: v.headerRows, rowHeaderLevels: v.rowHeaderLevels, scope: v.scope, spanningHeaders: t.spanningTh } },
            }),
          );
          break;
        }
        case 'table-ragged-rows':
          out.push(
            ownFinding({
              ruleId: v.rule,
              type: 'needs_review',
              severity: 'moderate',
              criterion: '1.3.1',
              ...at(t.ref),
              help: 'Give every row of a data table the same number of cells',
              description: 'In a data table each row must fill the same columns (counting colspan and rowspan): a cell beyond the header row has no column header, and a missing cell leaves a header over nothing.',
              failureSummary: `Most rows of this table (${shape}) are ${v.usualWidth} cells wide, but ${v.raggedRows} row${v.raggedRows === 1 ? ' is' : 's are'} not${v.wideRows > 0 ? `, and ${v.wideRows} row${v.wideRows === 1 ? ' is' : 's are'} wider than the header row, so their last cells have no column header` : ''}. Check the colspan and rowspan values and add or remove cells so every row fills the same columns.`,
              helpUrl: INFO_REL,
              data: { table: { rows: t.rows, cols: t.cols, raggedRows: v.raggedRows, wideRows: v.wideRows, usualWidth: v.usualWidth } },
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
          help: fn.kind === 'placeholder' ? 'Do not use a placeholder word as alternative text' : 'Do not use a file name as alternative text',
          description: 'An image\'s text alternative must say what the image conveys; a file name or a word such as "image" does not.',
          failureSummary: fn.kind === 'placeholder'
            ? `The text alternative "${CAP(fn.alt)}" only says that there is ${img.inControl !== null ? 'an image in this link or button' : 'an image'}, not what it shows. Describe what it conveys, or use alt="" if it is decorative.`
            : own
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
    const hint = emptyAltInformative(img);
    if (hint) {
      out.push(
        ownFinding({
          ruleId: 'image-empty-alt-informative',
          type: 'needs_review',
          severity: 'serious',
          criterion: '1.1.1',
          ...at(img.ref),
          help: 'Check that images marked decorative are decorative',
          description: 'An image with alt="" or role="presentation" is skipped by assistive technology; an image that conveys something (a logo, chart, diagram, map) needs a text alternative.',
          failureSummary:
            hint === 'figure'
              ? `This image is marked decorative (${img.alt === '' ? 'alt=""' : `role="${img.role}"`}) but it is what its figure presents, captioned ${JSON.stringify(img.figureCaption)} (${img.width}×${img.height}px). A caption names a picture; it does not replace what the picture shows. Give it a text alternative saying what it shows.`
              : `This image is marked decorative (${img.alt === '' ? 'alt=""' : `role="${img.role}"`}) but its ${/logo/.test(hint) ? 'name says it is a logo' : `name says it is a ${hint}`}, and no text beside it says what it conveys (${img.width}×${img.height}px). If it informs, give it a text alternative.`,
          helpUrl: understandingUrl('non-text-content'),
          data: { image: { src: img.src.slice(0, 300), hint, width: img.width, height: img.height, ...(img.figureCaption ? { figureCaption: img.figureCaption } : {}) } },
        }),
      );
    }
    const wordy = wordyImageOfText(img);
    if (wordy && !img.svgText) {
      const where = wordy.shape === 'heading' ? 'is the whole content of a heading' : wordy.shape === 'control' ? 'is the whole content of a button or link, shaped like a button' : 'is shaped like a banner';
      out.push(
        imageOfText(
          img,
          `This image ${where} (${img.width}×${img.height}px) and its text alternative "${CAP(wordy.text)}" reads like the words drawn in it. Unless it is a logo, use real text styled with CSS.`,
          { text: CAP(wordy.text), shape: wordy.shape, width: img.width, height: img.height },
        ),
      );
    }
    const svgText = svgImageOfText(img);
    if (svgText) {
      out.push(
        imageOfText(
          img,
          `This image draws the text "${CAP(svgText)}" (${img.width}×${img.height}px). Unless it is a logo, use real text styled with CSS.`,
          { text: CAP(svgText), width: img.width, height: img.height },
        ),
      );
    }
  }

  for (const g of facts.generated) {
    const text = meaningfulGenerated(g);
    if (!text) continue;
    out.push(
      ownFinding({
        ruleId: 'css-generated-content',
        type: 'needs_review',
        severity: 'moderate',
        criterion: '1.3.1',
        ...at(g.ref),
        help: 'Do not put information in CSS generated content',
        description: 'Text inserted with ::before or ::after and the content property is lost when styles are turned off or replaced, and is not part of the document (WCAG F87).',
        failureSummary: `CSS inserts "${CAP(text)}" ${g.pseudo} this element (rule ${CAP(g.rule)}${g.count > 1 ? `, on ${g.count} elements` : ''}). If the words carry information, put them in the HTML.`,
        helpUrl: INFO_REL,
        data: { generated: { text: CAP(text), pseudo: g.pseudo, rule: CAP(g.rule), elements: g.count } },
      }),
    );
  }

  for (const h of facts.hiddenContent) {
    if (!hiddenContentWorthReporting(h)) continue;
    const text = CAP(h.text);
    if (h.kind === 'aria-hidden') {
      out.push(
        ownFinding({
          ruleId: 'aria-hidden-content',
          type: 'needs_review',
          severity: 'serious',
          criterion: '1.3.1',
          ...at(h.ref),
          help: 'Do not hide visible content from assistive technology',
          description: 'aria-hidden="true" removes content from the accessibility tree: visible text meant for everyone is then missing for screen reader users.',
          failureSummary: `This <${h.tag}> is shown on screen but hidden from assistive technology by aria-hidden="true", and its text "${text}" is not repeated elsewhere on the page. If it is meant for everyone, remove aria-hidden.`,
          helpUrl: INFO_REL,
          data: { hidden: { text, by: h.detail } },
        }),
      );
    } else if (h.kind === 'presentation') {
      out.push(
        ownFinding({
          ruleId: 'presentation-role-semantics',
          type: 'needs_review',
          severity: 'serious',
          criterion: '1.3.1',
          ...at(h.ref),
          help: 'Do not remove the semantics of headings, lists and data tables',
          description: 'role="presentation" or role="none" removes an element\'s meaning: a heading, list or data table marked so is no longer announced as one (WCAG F92).',
          failureSummary: `This <${h.tag}> has ${h.detail}, which removes its ${/^h\d$/.test(h.tag) ? 'heading' : h.tag === 'table' ? 'table headers and structure' : h.tag === 'blockquote' ? 'quotation' : 'list'} semantics ("${text}"). If its structure conveys meaning, remove the role.`,
          helpUrl: INFO_REL,
          data: { hidden: { text, by: h.detail, tag: h.tag } },
        }),
      );
    } else {
      out.push(
        ownFinding({
          ruleId: 'sr-text-hidden',
          type: 'needs_review',
          severity: 'moderate',
          criterion: '1.3.1',
          ...at(h.ref),
          help: 'Hide screen reader text visually, not with display:none',
          description: 'Text meant for screen readers (a "visually hidden" or skip-link class) that is hidden with display:none or visibility:hidden is hidden from everyone, screen reader users included.',
          failureSummary: h.detail.startsWith('part of')
            ? `This <${h.tag}> is ${h.detail.replace(/ \((.*)\)$/, ', hidden by $1')}: text that can only be meant for screen readers, yet nobody gets "${text}". Hide it visually with a clip-based class instead, or show it.`
            : `This <${h.tag}> is marked as text for screen readers (${h.detail}) but is hidden from everyone, so nobody gets "${text}". Hide it visually with a clip-based class instead.`,
          helpUrl: INFO_REL,
          data: { hidden: { text, by: h.detail } },
        }),
      );
    }
  }

  for (const sp of facts.spacers) {
    if (!spacerWorthReporting(sp)) continue;
    const parts = [sp.emptyBlocks ? `${sp.emptyBlocks} empty paragraph${sp.emptyBlocks > 1 ? 's' : ''} or blank block${sp.emptyBlocks > 1 ? 's' : ''}` : '', sp.brRuns ? `${sp.brRuns} run${sp.brRuns > 1 ? 's' : ''} of three or more line breaks` : ''].filter(Boolean);
    out.push(
      ownFinding({
        ruleId: 'spacer-markup',
        type: 'needs_review',
        severity: 'minor',
        criterion: '1.3.1',
        ...at(sp.ref),
        help: 'Make vertical space with CSS, not empty paragraphs or line breaks',
        description: 'Empty paragraphs and runs of <br> used for spacing are announced by screen readers as blank lines, and give structure that is not there.',
        failureSummary: `This ${sp.region === 'body' ? 'page' : `<${sp.region}> region`} uses ${parts.join(' and ')} for vertical space (the first is here). Use CSS margins instead.`,
        helpUrl: INFO_REL,
        data: { spacers: { region: sp.region, emptyBlocks: sp.emptyBlocks, brRuns: sp.brRuns } },
      }),
    );
  }

  for (const b of facts.backgrounds) {
    if (!backgroundWorthReporting(b)) continue;
    out.push(
      ownFinding({
        ruleId: 'background-image-informative',
        type: 'needs_review',
        severity: 'moderate',
        criterion: '1.1.1',
        ...at(b.ref),
        help: 'Give information shown by CSS background images a text alternative',
        description: 'A CSS background image has no text alternative: if it conveys information (a chart, text, a status), that information is lost (WCAG F3).',
        failureSummary: b.status
          ? `This <${b.tag}> draws a CSS background image beside its text, and its class says "${b.status}", which the text "${CAP(b.text)}" does not. If the icon conveys that status, say it in the text (visually hidden if need be).`
          : `This <${b.tag}> shows only a CSS background image (${b.width}×${b.height}px), with no text and no accessible name, and nothing beside it. If the image conveys information, give it a text alternative (role="img" and aria-label, or an <img> with alt).`,
        helpUrl: understandingUrl('non-text-content'),
        data: { background: { url: b.url.slice(0, 300), width: b.width, height: b.height, ...(b.status ? { status: b.status } : {}) } },
      }),
    );
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
 * text, SVG images of text; text that points at things by position, shape or colour; text put in
 * by CSS, content hidden from assistive technology or shown only to it, spacer markup and CSS
 * background images that stand alone. Read-only: it changes nothing in the page. Work is capped (see `DEFAULT_CAPS`).
 */
export const structureEngine: ScanEngine = {
  id: 'structure',
  stage: 'CustomChecks',
  async run({ page }: PageSession): Promise<EngineResult> {
    await ensureInPage(page);
    const input = structureInput();
    const layout = await page.evaluate(collectStructureFacts, input);
    const content = await page.evaluate(collectContentFacts, input);
    const facts: StructureFacts = { ...layout, ...content, examined: { ...layout.examined, ...content.examined } };
    const findings = structureFindings(facts);
    // Text in the pixels of images not already reported for what their markup says.
    const reported = new Set(findings.filter((f) => f.ruleId === 'image-of-text').map((f) => f.elementSelector));
    return { findings: [...findings, ...(await imageTextFindings(page, facts.images, reported))] };
  },
};
