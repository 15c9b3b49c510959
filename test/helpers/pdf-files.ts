/** PDFs built on the fly for the document audit's tests: with pdfkit, or by hand for hostile ones. */
import { readFileSync } from 'node:fs';
import PDFDocument from 'pdfkit';

type Doc = InstanceType<typeof PDFDocument>;

/** A PDF drawn by pdfkit with these options. */
export function pdfkitFile(options: ConstructorParameters<typeof PDFDocument>[0], draw: (doc: Doc) => void): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument(options);
    const chunks: Buffer[] = [];
    doc.on('data', (b: Buffer) => chunks.push(b));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    draw(doc);
    doc.end();
  });
}

/** A PDF of numbered objects (1 0 obj …) with a correct cross-reference table: for files pdfkit would not write. */
export function handMadePdf(objects: ReadonlyArray<string | Buffer>, root = 1): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n')];
  const offsets: number[] = [];
  let at = parts[0]!.length;
  objects.forEach((body, i) => {
    offsets.push(at);
    const b = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), Buffer.isBuffer(body) ? body : Buffer.from(body), Buffer.from('\nendobj\n')]);
    parts.push(b);
    at += b.length;
  });
  const entries = offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  parts.push(Buffer.from(`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${entries}trailer\n<< /Size ${objects.length + 1} /Root ${root} 0 R >>\nstartxref\n${at}\n%%EOF\n`));
  return Buffer.concat(parts);
}

/** A stream object's body: its dictionary entries, then the bytes. */
export function streamObject(dict: string, bytes: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`<< ${dict} /Length ${bytes.length} >>\nstream\n`), bytes, Buffer.from('\nendstream')]);
}

/** One of the real-world PDFs of test/fixtures/documents (see its README). */
export function realWorldPdf(name: string): Buffer {
  return readFileSync(new URL(`../fixtures/documents/${name}`, import.meta.url));
}

/**
 * A tagged one-page PDF with three links, each tagged in a Link element holding its text and its
 * annotation: "First" at the top left, "Second" below it, "Third" right of "Second".
 * `annots` lists the annotations (1-3, that order of words) as the page's /Annots does, `tags` as
 * the structure tree reads them, and `tabs` is the page's /Tabs (none when null).
 */
export function taggedLinksPdf({ tabs, annots, tags }: { tabs: string | null; annots: number[]; tags: number[] }): Buffer {
  const words = [
    { text: 'First', x: 72, y: 700 },
    { text: 'Second', x: 72, y: 650 },
    { text: 'Third', x: 320, y: 650 },
  ];
  // Objects: 1 catalog, 2 pages, 3 page, 4 contents, 5 tree root, 6 Document, 7-9 Link elements, 10-12 annotations, 13 font, 14 parent tree.
  const content = words.map((w, i) => `/Link << /MCID ${i} >> BDC BT /F1 14 Tf ${w.x} ${w.y} Td (${w.text}) Tj ET EMC`).join('\n');
  return handMadePdf([
    '<< /Type /Catalog /Pages 2 0 R /StructTreeRoot 5 0 R /MarkInfo << /Marked true >> /Lang (en) >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 13 0 R >> >> /StructParents 0 /Annots [${annots.map((a) => `${9 + a} 0 R`).join(' ')}]${tabs ? ` /Tabs /${tabs}` : ''} >>`,
    streamObject('', Buffer.from(content)),
    '<< /Type /StructTreeRoot /K 6 0 R /ParentTree 14 0 R >>',
    `<< /Type /StructElem /S /Document /P 5 0 R /K [${tags.map((t) => `${6 + t} 0 R`).join(' ')}] >>`,
    ...words.map((_, i) => `<< /Type /StructElem /S /Link /P 6 0 R /Pg 3 0 R /K [${i} << /Type /OBJR /Obj ${10 + i} 0 R >>] >>`),
    ...words.map((w, i) => `<< /Type /Annot /Subtype /Link /Rect [${w.x - 2} ${w.y - 4} ${w.x + 60} ${w.y + 14}] /StructParent ${i + 1} /Border [0 0 0] /A << /S /URI /URI (https://example.org/${i + 1}) >> >>`),
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    '<< /Nums [0 [7 0 R 8 0 R 9 0 R] 1 7 0 R 2 8 0 R 3 9 0 R] >>',
  ]);
}
