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
