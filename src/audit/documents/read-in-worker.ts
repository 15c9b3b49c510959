import { Worker } from 'node:worker_threads';
import type { PagePicture, PdfFacts, PdfReadResult, PictureTarget } from './pdf-facts.ts';

export interface PdfReadLimits {
  /** The thread is ended past this, and the file is `unreadable` (`DOCUMENT_READ_TIMEOUT_MS`). */
  timeoutMs: number;
  /**
   * Memory the read may take, in MiB: the thread's JavaScript heap, and the growth of the process's
   * resident memory while it runs (a decoded stream lives outside the heap), sampled every 50 ms.
   * Past either the thread is ended.
   */
  memoryMb: number;
  signal?: AbortSignal;
  /** Values the file's text is searched for (a login's typed values): `facts.showsSecret`. */
  secrets?: readonly string[];
  /**
   * Pictures to render once the facts are read: `pick` names them from the facts (its findings'
   * pages and rectangles), within `budgetMs`; past it the facts stand without pictures.
   */
  pictures?: { pick: (facts: PdfFacts) => Promise<readonly PictureTarget[]> | readonly PictureTarget[]; budgetMs: number };
}

const SAMPLE_MS = 50;

/**
 * A PDF's facts, read in a worker thread that is ended when it takes longer or more memory than
 * allowed, or when the scan is cancelled: whatever the file holds, the caller gets an answer and
 * the process goes on.
 */
export function readPdfInWorker(bytes: Uint8Array, limits: PdfReadLimits): Promise<PdfReadResult> {
  return new Promise((resolve) => {
    const worker = new Worker(new URL('./pdf-worker.ts', import.meta.url), {
      resourceLimits: { maxOldGenerationSizeMb: limits.memoryMb, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 },
      stdout: true,
      stderr: true,
    });
    // The process's resident memory: a worker's buffers are not in this thread's heap statistics.
    const memory = () => process.memoryUsage.rss();
    const baseline = memory();
    let settled = false;
    let read: Extract<PdfReadResult, { kind: 'read' }> | undefined;
    /** A failure once the facts are in costs only the pictures. */
    const failed = (why: PdfReadResult) => finish(read ? { ...read, pictures: [] } : why);
    const finish = (result: PdfReadResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearInterval(sampler);
      limits.signal?.removeEventListener('abort', onAbort);
      void worker.terminate();
      resolve(result);
    };
    let timer = setTimeout(
      () => finish({ kind: 'unreadable', message: `the file was not read within ${limits.timeoutMs < 10_000 ? `${limits.timeoutMs} ms` : `${Math.round(limits.timeoutMs / 1000)} s`} (a structure too large or looping)` }),
      limits.timeoutMs,
    );
    const tooMuch = { kind: 'unreadable' as const, message: `reading the file takes more than ${limits.memoryMb} MiB of memory (a stream that expands without end)` };
    const sampler = setInterval(() => {
      if (memory() - baseline > limits.memoryMb * 1024 * 1024) failed(tooMuch);
    }, SAMPLE_MS);
    const onAbort = () => finish({ kind: 'unreadable', message: 'the scan was cancelled while the file was read' });
    if (limits.signal?.aborted) return onAbort();
    limits.signal?.addEventListener('abort', onAbort, { once: true });
    worker.on('message', (msg: PdfReadResult | { kind: 'pictures'; pictures: PagePicture[] }) => {
      if (msg.kind === 'pictures') return finish({ ...read!, pictures: msg.pictures });
      if (msg.kind !== 'read') return finish(msg);
      read = msg;
      if (!limits.pictures) return finish(msg);
      // The facts are in: choosing and rendering the pictures may take their budget, and no more.
      clearTimeout(timer);
      timer = setTimeout(() => finish({ ...msg, pictures: [] }), limits.pictures.budgetMs);
      Promise.resolve(limits.pictures.pick(msg.facts)).then(
        (targets) => (targets.length ? worker.postMessage({ targets }) : finish(msg)),
        () => finish(msg),
      );
    });
    worker.once('error', (err: Error & { code?: string }) =>
      failed(err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? tooMuch : { kind: 'unreadable', message: `not a readable PDF: ${String(err.message).slice(0, 200)}` }),
    );
    worker.once('exit', () => finish(read ?? { kind: 'unreadable', message: 'the reader stopped before it gave an answer' }));
    const copy = new Uint8Array(bytes);
    worker.postMessage({ bytes: copy, secrets: [...(limits.secrets ?? [])] }, [copy.buffer]);
  });
}
