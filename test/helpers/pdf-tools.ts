/** Reads a PDF back with Debian's poppler-utils (pdfinfo, pdftotext, pdffonts, pdftoppm). */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

async function withFile<T>(pdf: Uint8Array, fn: (file: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(path.join(tmpdir(), 'pdf-'));
  const file = path.join(dir, 'report.pdf');
  try {
    await writeFile(file, pdf);
    return await fn(file);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** `pdfinfo` as key/value pairs (Title, Pages, Tagged, PDF version, ...). */
export function pdfInfo(pdf: Uint8Array): Promise<Record<string, string>> {
  return withFile(pdf, async (file) => {
    const { stdout } = await run('pdfinfo', [file]);
    return Object.fromEntries(stdout.split('\n').filter((l) => l.includes(':')).map((l) => [l.slice(0, l.indexOf(':')).trim(), l.slice(l.indexOf(':') + 1).trim()]));
  });
}

/** The text in reading order (`pdftotext`, UTF-8, no layout). */
export function pdfText(pdf: Uint8Array): Promise<string> {
  return withFile(pdf, async (file) => (await run('pdftotext', ['-enc', 'UTF-8', file, '-'], { maxBuffer: 64 * 1024 * 1024 })).stdout);
}

/** `pdffonts` rows: name and whether each font is embedded. */
export function pdfFonts(pdf: Uint8Array): Promise<Array<{ name: string; embedded: boolean }>> {
  return withFile(pdf, async (file) => {
    const { stdout } = await run('pdffonts', [file]);
    return stdout
      .split('\n')
      .slice(2)
      .filter((l) => l.trim())
      .map((l) => {
        const cols = l.trim().split(/\s+/);
        // name type [encoding...] emb sub uni object ID: emb is the 5th column from the end
        return { name: cols[0]!, embedded: cols[cols.length - 5] === 'yes' };
      });
  });
}

/** Renders pages first..last to PNG files `<prefix>-N.png` in `dir` (for people to look at). */
export async function pdfToPng(pdf: Uint8Array, dir: string, prefix: string, pages: { first: number; last: number; dpi?: number }) {
  await mkdir(dir, { recursive: true });
  await withFile(pdf, (file) =>
    run('pdftoppm', ['-png', '-r', String(pages.dpi ?? 60), '-f', String(pages.first), '-l', String(pages.last), file, path.join(dir, prefix)]),
  );
}

/** The images drawn in the PDF (`pdfimages -list`): one row per image placed on a page. */
export function pdfImages(pdf: Uint8Array): Promise<Array<{ page: number; width: number; height: number; type: string }>> {
  return withFile(pdf, async (file) => {
    const { stdout } = await run('pdfimages', ['-list', file]);
    return stdout
      .split('\n')
      .slice(2)
      .filter((l) => l.trim())
      .map((l) => {
        const c = l.trim().split(/\s+/);
        // page num type width height color comp bpc enc interp object ID x-ppi y-ppi size ratio
        return { page: Number(c[0]), type: c[2]!, width: Number(c[3]), height: Number(c[4]) };
      });
  });
}
