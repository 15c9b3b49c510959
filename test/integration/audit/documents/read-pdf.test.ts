import { PassThrough } from 'node:stream';
import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readPdfInWorker } from '../../../../src/audit/documents/read-in-worker.ts';
import { judgePdf } from '../../../../src/audit/documents/judge-pdf.ts';
import type { PdfFacts, PdfReadResult } from '../../../../src/audit/documents/pdf-facts.ts';
import { renderPdf } from '../../../../src/reports/render-pdf.ts';
import { decodePng } from '../../../../src/audit/engines/pixel-contrast/png.ts';
import { sampleReport } from '../../../helpers/sample-report.ts';
import { encodePng } from '../../../helpers/png.ts';
import { handMadePdf, pdfkitFile, realWorldPdf, streamObject } from '../../../helpers/pdf-files.ts';

const LIMITS = { timeoutMs: 30_000, memoryMb: 256 };

async function factsOf(bytes: Uint8Array): Promise<PdfFacts> {
  const read = await readPdfInWorker(bytes, LIMITS);
  if (read.kind !== 'read') throw new Error(`not read: ${read.kind} ${read.message}`);
  return read.facts;
}
const found = (facts: PdfFacts) => judgePdf(facts).findings.map((f) => `${f.ruleId} ${f.type} ${f.elementSelector}`);

/** A grey picture, big enough to be a page's scan. */
const scanPicture = () => encodePng(200, 260, 3, new Uint8Array(200 * 260 * 3).fill(180));

describe('the document audit reads PDFs with pdf.js in a worker thread', () => {
  it('reads an untagged document without title or language and confirms all three', async () => {
    const bytes = await pdfkitFile({}, (d) => {
      d.text('Minutes of the meeting held on 3 March.');
      d.link(72, 100, 120, 14, 'https://example.org/agenda');
    });
    const facts = await factsOf(bytes);
    expect(facts).toMatchObject({ pageCount: 1, tagged: false, marked: false, title: null, lang: null, links: [{ page: 1, url: 'https://example.org/agenda', contents: null, tagged: false }] });
    expect(found(facts)).toEqual(['pdf-untagged confirmed pdf:document', 'pdf-title-missing confirmed pdf:document', 'pdf-lang-missing confirmed pdf:document']);
  });

  it('reads a tagged document\'s structure: headings, figures with and without alternative text, tables with and without header cells', async () => {
    const bytes = await pdfkitFile({ tagged: true, lang: 'en-GB', displayTitle: true, pdfVersion: '1.7', info: { Title: 'Budget 2026' } }, (d) => {
      const doc = d.struct('Document');
      d.addStructure(doc);
      doc.add(d.struct('H1', {}, () => d.text('Budget 2026')));
      doc.add(d.struct('P', {}, () => d.text('Where the money goes.')));
      doc.add(d.struct('Figure', { alt: 'Pie chart: schools 40%, roads 25%, parks 35%' }, () => d.rect(72, 160, 80, 80).fill('#336699')));
      doc.add(d.struct('Figure', {}, () => d.rect(200, 160, 80, 80).fill('#993366')));
      const table = (header: boolean) => {
        const t = d.struct('Table');
        doc.add(t);
        for (let r = 0; r < 3; r++) {
          const row = d.struct('TR');
          t.add(row);
          for (let c = 0; c < 2; c++) row.add(d.struct(header && r === 0 ? 'TH' : 'TD', {}, () => d.fillColor('black').text(`r${r}c${c}`, 72 + c * 100, 300 + r * 20 + (header ? 0 : 100))));
          row.end();
        }
        t.end();
      };
      table(true);
      table(false);
      doc.end();
    });
    const facts = await factsOf(bytes);
    expect(facts).toMatchObject({ tagged: true, marked: true, title: 'Budget 2026', displayDocTitle: true, lang: 'en-GB', headings: 1 });
    expect(facts.figures.map((f) => f.alt)).toEqual(['Pie chart: schools 40%, roads 25%, parks 35%', null]);
    expect(facts.tables.map((t) => [t.rows, t.columns, t.headerCells])).toEqual([
      [3, 2, 2],
      [3, 2, 0],
    ]);
    expect(found(facts)).toEqual(['pdf-figure-alt-missing confirmed page 1: Document[1]/Figure[2]', 'pdf-table-headers-missing confirmed page 1: Document[1]/Table[2]']);
  });

  it('confirms a scan (pages that are only a picture) and leaves a blank page alone', async () => {
    const bytes = await pdfkitFile({ lang: 'en', info: { Title: 'Scanned letter' }, displayTitle: true }, (d) => {
      d.image(scanPicture(), 0, 0, { width: 612 });
      d.addPage();
      d.image(scanPicture(), 0, 0, { width: 612 });
      d.addPage();
    });
    const facts = await factsOf(bytes);
    expect(facts.imageOnlyPages).toEqual([1, 2]);
    const scan = judgePdf(facts).findings.find((f) => f.ruleId === 'pdf-no-text-layer');
    expect(scan).toMatchObject({ type: 'confirmed', wcagCriteria: ['1.1.1', '1.3.1'], data: { pages: [1, 2] } });
  });

  it('reads the permissions that keep assistive technology from the text', async () => {
    const locked = await pdfkitFile({ pdfVersion: '1.7', ownerPassword: 'owner', permissions: { printing: 'highResolution', copying: false, contentAccessibility: false } }, (d) => d.text('Locked'));
    const open = await pdfkitFile({ pdfVersion: '1.7', ownerPassword: 'owner', permissions: { printing: 'highResolution', copying: false, contentAccessibility: true } }, (d) => d.text('Locked'));
    expect((await factsOf(locked)).accessibilityBlocked).toBe(true);
    expect((await factsOf(open)).accessibilityBlocked).toBe(false);
    expect(found(await factsOf(locked))).toContain('pdf-access-blocked confirmed pdf:document');
  });

  describe('real-world files (pdf.js\'s test corpus, test/fixtures/documents)', () => {
    it('a tagged export from Microsoft Word: its language and tags pass, its missing title is confirmed', async () => {
      const facts = await factsOf(realWorldPdf('bug1937438_from_word.pdf'));
      expect(facts).toMatchObject({ tagged: true, marked: true, lang: 'en', title: null });
      expect(found(facts)).toEqual(['pdf-title-missing confirmed pdf:document']);
    });

    it('an Acrobat picture page whose Figure has alternative text: not a scan without text', async () => {
      const facts = await factsOf(realWorldPdf('tagged_stamp.pdf'));
      // Its Figure holds a stamp annotation, not marked content: no region to outline.
      expect(facts.figures).toEqual([{ page: 1, path: 'Figure[1]', marked: [], alt: 'Secondary text for stamp' }]);
      expect(facts.imageOnlyPages).toEqual([1]);
      expect(found(facts).filter((f) => /figure|text-layer/.test(f))).toEqual([]);
    });

    it('an untagged six-page Acrobat document with bookmarks', async () => {
      const facts = await factsOf(realWorldPdf('bug1708041.pdf'));
      expect(facts).toMatchObject({ pageCount: 6, tagged: false, bookmarks: 6 });
      expect(found(facts)).toEqual(['pdf-untagged confirmed pdf:document', 'pdf-title-missing confirmed pdf:document', 'pdf-lang-missing confirmed pdf:document']);
    });

    it('a TCPDF form whose text field has no tooltip', async () => {
      const facts = await factsOf(realWorldPdf('file_pdfjs_form.pdf'));
      expect(facts.fields).toEqual([expect.objectContaining({ page: 1, fieldType: 'Tx', description: null, name: 'textfield' })]);
      expect(found(facts)).toContain('pdf-field-description-missing confirmed page 1: field 1');
    });
  });

  it('renders the pictures asked for from the facts: a field\'s rectangle outlined in its region, a whole page', async () => {
    const bytes = realWorldPdf('file_pdfjs_form.pdf');
    const read = await readPdfInWorker(bytes, {
      ...LIMITS,
      pictures: {
        budgetMs: 20_000,
        pick: (facts) => {
          const field = facts.fields[0]!;
          return [
            { key: 'field', page: field.page, rect: field.rect! },
            { key: 'page', page: 1 },
          ];
        },
      },
    });
    expect(read.kind).toBe('read');
    if (read.kind !== 'read') return;
    expect(read.pictures!.map((p) => p.key)).toEqual(['field', 'page']);
    const [field, page] = read.pictures!.map((p) => ({ ...p, image: decodePng(p.png) }));
    // The whole page: 800 px wide, a page's proportions.
    expect(page!.width).toBe(800);
    expect(page!.height).toBeGreaterThan(1100);
    // The region: smaller than the page, with the magenta outline (#d1007a) drawn in it.
    expect(field!.width).toBeLessThan(page!.width * 2);
    expect(field!.height).toBeLessThan(page!.height / 2);
    const px = field!.image;
    let magenta = 0;
    for (let i = 0; i < px.width * px.height; i++) {
      const [r, g, b] = [px.data[i * 3]!, px.data[i * 3 + 1]!, px.data[i * 3 + 2]!];
      if (r > 180 && g < 60 && b > 90 && b < 160) magenta++;
    }
    expect(magenta).toBeGreaterThan(100);
  });

  it('keeps the facts when the pictures run out of their budget', async () => {
    const read = await readPdfInWorker(realWorldPdf('bug1708041.pdf'), { ...LIMITS, pictures: { budgetMs: 1, pick: () => [{ key: 'p', page: 1 }] } });
    expect(read).toMatchObject({ kind: 'read', facts: { pageCount: 6 }, pictures: [] });
  });

  it('the service\'s own PDF report passes its own document audit with no confirmed issue', async () => {
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (c: Buffer) => chunks.push(c));
    await renderPdf(sampleReport({ kind: 'crawl', pages: 4, pictures: true }), out);
    const facts = await factsOf(Buffer.concat(chunks));
    expect(facts.tagged).toBe(true);
    // Its pages with links state structure order for Tab (pdfkit sets /Tabs /S in a tagged file).
    expect(facts.tabOrder.length).toBeGreaterThan(0);
    expect(new Set(facts.tabOrder.map((t) => t.tabs))).toEqual(new Set(['S']));
    expect(judgePdf(facts).findings.filter((f) => f.type === 'confirmed').map((f) => `${f.ruleId} ${f.elementSelector}: ${f.failureSummary}`)).toEqual([]);
  });

  describe('hostile files end as a clear answer, never a crashed or stuck process', () => {
    const read = (bytes: Uint8Array, limits: Partial<typeof LIMITS> & { signal?: AbortSignal } = {}): Promise<PdfReadResult> => readPdfInWorker(bytes, { ...LIMITS, ...limits });

    it('bytes that are not a PDF, and a PDF cut in half, are unreadable', async () => {
      expect(await read(Buffer.from('%PDF-1.7\nnot really'))).toMatchObject({ kind: 'unreadable', message: expect.stringMatching(/^not a readable PDF/) });
      const whole = await pdfkitFile({}, (d) => d.text('Half of this file is missing'));
      expect(await read(whole.subarray(0, Math.floor(whole.length / 2)))).toMatchObject({ kind: 'unreadable' });
    });

    it('a file that needs a password is encrypted', async () => {
      const bytes = await pdfkitFile({ userPassword: 'secret', ownerPassword: 'owner' }, (d) => d.text('Hidden'));
      expect(await read(bytes)).toEqual({ kind: 'encrypted', message: 'the file needs a password to open' });
    });

    it('a stream that expands to 256 MB (a zip bomb) is stopped at the memory limit', async () => {
      const bomb = deflateSync(Buffer.alloc(256 * 1024 * 1024, 0x20), { level: 9 });
      const bytes = handMadePdf([
        '<< /Type /Catalog /Pages 2 0 R >>',
        '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
        '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>',
        streamObject('/Filter /FlateDecode', bomb),
      ]);
      expect(bytes.length).toBeLessThan(1024 * 1024);
      expect(await read(bytes, { memoryMb: 64 })).toMatchObject({ kind: 'unreadable', message: expect.stringMatching(/more than 64 MiB of memory/) });
    });

    it('objects that point at themselves (a page tree, a structure element, an outline in a loop) are read without looping', async () => {
      const bytes = handMadePdf([
        '<< /Type /Catalog /Pages 2 0 R /Outlines 4 0 R /StructTreeRoot 5 0 R /MarkInfo << /Marked true >> >>',
        '<< /Type /Pages /Kids [3 0 R 2 0 R] /Count 2 >>',
        '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /StructParents 0 >>',
        '<< /Type /Outlines /First 4 0 R /Last 4 0 R /Next 4 0 R /Count 1 >>',
        '<< /Type /StructTreeRoot /K 6 0 R /ParentTree << /Nums [0 [6 0 R]] >> >>',
        '<< /S /Sect /P 6 0 R /K [6 0 R 6 0 R] /Pg 3 0 R >>',
      ]);
      const result = await read(bytes, { timeoutMs: 20_000 });
      expect(result.kind).toBe('read');
      if (result.kind === 'read') expect(result.facts.pageCount).toBe(2);
    });

    it('a read past its time is ended, and so is one whose scan is cancelled', async () => {
      const bytes = await pdfkitFile({}, (d) => d.text('Any file'));
      expect(await read(bytes, { timeoutMs: 1 })).toEqual({ kind: 'unreadable', message: 'the file was not read within 1 ms (a structure too large or looping)' });
      const cancelled = new AbortController();
      cancelled.abort();
      expect(await read(bytes, { signal: cancelled.signal })).toMatchObject({ kind: 'unreadable', message: expect.stringMatching(/cancelled/) });
    });
  });
});
