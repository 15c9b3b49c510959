import { describe, expect, it } from 'vitest';
import { readPdfInWorker } from '../../../../src/audit/documents/read-in-worker.ts';
import { judgePdf } from '../../../../src/audit/documents/judge-pdf.ts';
import type { PdfFacts } from '../../../../src/audit/documents/pdf-facts.ts';
import { decodePng } from '../../../../src/audit/engines/pixel-contrast/png.ts';
import { pdfkitFile, taggedLinksPdf } from '../../../helpers/pdf-files.ts';

const LIMITS = { timeoutMs: 30_000, memoryMb: 256 };

async function factsOf(bytes: Uint8Array): Promise<PdfFacts> {
  const read = await readPdfInWorker(bytes, LIMITS);
  if (read.kind !== 'read') throw new Error(`not read: ${read.kind} ${read.message}`);
  return read.facts;
}
const tabFindings = (facts: PdfFacts) => judgePdf(facts).findings.filter((f) => f.ruleId === 'pdf-tab-order').map((f) => `${f.type} ${f.elementSelector}`);

describe('the tab order of a PDF page against its tags (PDF3, PDF/UA\'s /Tabs /S)', () => {
  it('reads /Tabs from the page dictionary and the two orders from the annotations and the structure tree', async () => {
    const facts = await factsOf(taggedLinksPdf({ tabs: 'R', annots: [3, 1, 2], tags: [1, 2, 3] }));
    expect(facts.tabOrder).toEqual([{ page: 1, tabs: 'R', annotationOrder: ['12R', '10R', '11R'], structureOrder: ['10R', '11R', '12R'] }]);
    expect(facts.links.every((l) => l.tagged)).toBe(true);
    // Row order visits First, Second, Third: the tags' order, whatever the listing.
    expect(tabFindings(facts)).toEqual([]);
  });

  it('confirms a stated order that departs from the tags, asks when no order is stated, passes structure order', async () => {
    // Tags read Third before Second; row order reaches Second first.
    expect(tabFindings(await factsOf(taggedLinksPdf({ tabs: 'R', annots: [1, 2, 3], tags: [1, 3, 2] })))).toEqual(['confirmed page 1: tab order']);
    expect(tabFindings(await factsOf(taggedLinksPdf({ tabs: null, annots: [3, 1, 2], tags: [1, 2, 3] })))).toEqual(['needs_review page 1: tab order']);
    const structure = await factsOf(taggedLinksPdf({ tabs: 'S', annots: [3, 2, 1], tags: [1, 3, 2] }));
    expect(structure.tabOrder[0]!.tabs).toBe('S');
    expect(tabFindings(structure)).toEqual([]);
    expect(judgePdf(structure).passes.map((p) => p.ruleId)).toContain('pdf-tab-order');
  });
});

describe('pictures of tagged elements outline where their marked content is drawn', () => {
  it('outlines a figure without alternative text and a table without headers, each in its own region of the page', async () => {
    const bytes = await pdfkitFile({ tagged: true, lang: 'en-GB', displayTitle: true, info: { Title: 'Regions' } }, (d) => {
      const doc = d.struct('Document');
      d.addStructure(doc);
      doc.add(d.struct('P', {}, () => d.text('A figure and a table.', 72, 72)));
      // In pdfkit's top-left coordinates: a square at x 300-380, y 150-230.
      doc.add(d.struct('Figure', {}, () => d.rect(300, 150, 80, 80).fill('#336699')));
      const t = d.struct('Table');
      doc.add(t);
      for (let r = 0; r < 2; r++) {
        const row = d.struct('TR');
        t.add(row);
        for (let c = 0; c < 2; c++) row.add(d.struct('TD', {}, () => d.fillColor('black').text(`cell ${r}${c}`, 72 + c * 120, 500 + r * 20)));
        row.end();
      }
      t.end();
      doc.end();
    });
    const pictured: Array<{ key: string; page: number; marked: number[] }> = [];
    const read = await readPdfInWorker(bytes, {
      ...LIMITS,
      pictures: {
        budgetMs: 20_000,
        pick: (facts) => {
          const targets = judgePdf(facts)
            .findings.filter((f) => f.ruleId === 'pdf-figure-alt-missing' || f.ruleId === 'pdf-table-headers-missing')
            .map((f) => ({ key: f.ruleId, ...(f.data.picture as { page: number; marked: number[] }) }));
          pictured.push(...targets);
          return [...targets, { key: 'page', page: 1 }];
        },
      },
    });
    if (read.kind !== 'read') throw new Error(read.kind);
    // Each element names its marked content.
    expect(pictured.map((p) => p.key)).toEqual(['pdf-figure-alt-missing', 'pdf-table-headers-missing']);
    for (const p of pictured) expect(p.marked.length).toBeGreaterThan(0);
    const byKey = new Map(read.pictures!.map((p) => [p.key, { ...p, image: decodePng(p.png) }]));
    const page = byKey.get('page')!;
    expect(page.width).toBe(800);
    // The figure: 80 points plus 48 on each side, at twice the scale: a crop of about 352 pixels, outlined.
    const figure = byKey.get('pdf-figure-alt-missing')!;
    expect(figure.width).toBeGreaterThan(300);
    expect(figure.width).toBeLessThan(400);
    expect(figure.height).toBeLessThan(400);
    const share = (img: ReturnType<typeof decodePng>, test: (r: number, g: number, b: number) => boolean) => {
      let n = 0;
      for (let i = 0; i < img.width * img.height; i++) if (test(img.data[i * 3]!, img.data[i * 3 + 1]!, img.data[i * 3 + 2]!)) n++;
      return n / (img.width * img.height);
    };
    const magenta = (r: number, g: number, b: number) => r > 180 && g < 60 && b > 90 && b < 160;
    const blue = (r: number, g: number, b: number) => r < 80 && g > 80 && g < 130 && b > 130 && b < 180;
    expect(share(figure.image, magenta)).toBeGreaterThan(0.01);
    // The blue square fills much of the crop, where on the whole page it is a speck.
    expect(share(figure.image, blue)).toBeGreaterThan(0.15);
    expect(share(page.image, blue)).toBeLessThan(0.05);
    // The table: its text's region, wider than tall, not the whole page.
    const table = byKey.get('pdf-table-headers-missing')!;
    expect(table.height).toBeLessThan(page.height / 3);
    expect(table.width).toBeGreaterThan(table.height);
    expect(share(table.image, magenta)).toBeGreaterThan(0.005);
  });
});
