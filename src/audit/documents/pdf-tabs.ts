/**
 * Each page's `/Tabs` entry: the order in which Tab moves through the page's links and fields.
 * pdf.js, which reads everything else, does not expose page dictionaries, so this one entry is read
 * with pdf-lib's object model (a separate parse of the same bytes, done only for documents where a
 * page has two or more links or fields; the library is loaded then, not before). Runs in the document worker thread, whose limits bound it.
 */

/**
 * The `/Tabs` value of each wanted page (1-based), without its slash; null when the page has
 * none. Undefined when the file cannot be parsed this way (the tab order is then not judged).
 */
export async function readTabs(bytes: Uint8Array, pages: readonly number[]): Promise<Map<number, string | null> | undefined> {
  try {
    // Loaded only for the documents that need it: the library takes about half a second to load.
    const { PDFDict, PDFDocument, PDFName } = await import('@cantoo/pdf-lib');
    const doc = await PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false, throwOnInvalidObject: false });
    const all = doc.getPages();
    const out = new Map<number, string | null>();
    for (const n of pages) {
      const node = all[n - 1]?.node;
      if (!(node instanceof PDFDict)) continue;
      const tabs = node.lookup(PDFName.of('Tabs'));
      out.set(n, tabs instanceof PDFName ? tabs.decodeText().slice(0, 8) : null);
    }
    return out;
  } catch {
    return undefined;
  }
}
