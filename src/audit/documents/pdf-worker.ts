/**
 * The document worker thread: reads one PDF's facts (read-pdf.ts) and posts them back. A thread of
 * its own so that a hostile file (an endless object loop, a stream that expands without end) costs
 * its own time and memory, which read-in-worker.ts bounds by ending the thread, never the process.
 */
import { parentPort } from 'node:worker_threads';
import { readPdf } from './read-pdf.ts';

parentPort?.once('message', (bytes: Uint8Array) => {
  readPdf(bytes).then(
    (result) => parentPort?.postMessage(result),
    (err: unknown) => parentPort?.postMessage({ kind: 'unreadable', message: `not a readable PDF: ${String((err as Error)?.message ?? err).slice(0, 200)}` }),
  );
});
