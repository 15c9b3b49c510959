/**
 * The document worker thread: reads one PDF's facts (read-pdf.ts) and posts them back, then renders
 * the pictures the host asks for from those facts (possibly none) and posts them too. A thread of
 * its own so that a hostile file (an endless object loop, a stream that expands without end) costs
 * its own time and memory, which read-in-worker.ts bounds by ending the thread, never the process.
 */
import { parentPort } from 'node:worker_threads';
import type { PictureTarget } from './pdf-facts.ts';
import { readPdf } from './read-pdf.ts';

const port = parentPort!;
const nextTargets = () => new Promise<PictureTarget[]>((resolve) => port.once('message', (m: { targets?: PictureTarget[] }) => resolve(m.targets ?? [])));

port.once('message', ({ bytes, secrets }: { bytes: Uint8Array; secrets: string[] }) => {
  readPdf(bytes, async (facts, render) => {
    port.postMessage({ kind: 'read', facts });
    const targets = await nextTargets();
    const pictures = targets.length ? await render(targets) : [];
    // Copied, not transferred: the canvas's PNG buffers belong to its native library.
    port.postMessage({ kind: 'pictures', pictures });
  }, secrets).then(
    (result) => {
      if (result.kind !== 'read') port.postMessage(result);
    },
    (err: unknown) => port.postMessage({ kind: 'unreadable', message: `not a readable PDF: ${String((err as Error)?.message ?? err).slice(0, 200)}` }),
  );
});
