/**
 * Abort, close and backpressure for the streamed workbook: the Guard watches the signal, `out` and
 * the zip, and paces the writer; `forEachBatch` reads row batches and releases their iterator early.
 */
import type { Writable } from 'node:stream';
import type ExcelJS from 'exceljs';

function abortError(reason: unknown, message = 'the workbook rendering was aborted'): Error {
  if (reason instanceof Error && reason.name === 'AbortError') return reason;
  const err = new DOMException(message, 'AbortError');
  if (reason !== undefined) Object.defineProperty(err, 'cause', { value: reason, configurable: true, writable: true });
  return err;
}

/** Watches the signal, `out` and the zip; the first failure wins and wakes every waiter. */
export class Guard {
  error: unknown = null;
  /** Rejecters of the promises `race` handed out and that are still pending. */
  private readonly waiters = new Set<(err: unknown) => void>();
  private readonly cleanups: Array<() => void> = [];
  private readonly out: Writable;

  constructor(out: Writable, signal: AbortSignal | undefined) {
    this.out = out;
    if (signal) {
      const onAbort = () => this.fail(abortError(signal.reason));
      signal.addEventListener('abort', onAbort, { once: true });
      this.cleanups.push(() => signal.removeEventListener('abort', onAbort));
      if (signal.aborted) onAbort();
    }
    const onClose = () => {
      if (!out.writableFinished) this.fail(abortError(undefined, 'the output stream closed before the workbook was complete'));
    };
    const onError = (err: unknown) => this.fail(err);
    out.on('close', onClose);
    out.on('error', onError);
    this.cleanups.push(() => {
      out.off('close', onClose);
      out.off('error', onError);
    });
    if (out.destroyed) onClose();
  }

  watch(emitter: NodeJS.EventEmitter | undefined) {
    if (!emitter) return;
    const onError = (err: unknown) => this.fail(err);
    emitter.on('error', onError);
    this.cleanups.push(() => emitter.off('error', onError));
  }

  fail(err: unknown) {
    if (this.error) return;
    this.error = err ?? new Error('the workbook rendering failed');
    for (const reject of this.waiters) reject(this.error);
    this.waiters.clear();
  }

  check() {
    if (this.error) throw this.error;
  }

  /**
   * `p`, or the failure if it comes first. Not `Promise.race` against one long-pending promise:
   * every such race leaves a reaction on it that keeps the race's result (a batch of rows) alive.
   */
  race<T>(p: Promise<T>): Promise<T> {
    if (this.error) {
      p.catch(() => {});
      return Promise.reject(this.error);
    }
    return new Promise<T>((resolve, reject) => {
      this.waiters.add(reject);
      p.then(
        (v) => {
          this.waiters.delete(reject);
          resolve(v);
        },
        (e: unknown) => {
          this.waiters.delete(reject);
          reject(e);
        },
      );
    });
  }

  /**
   * Give the event loop a turn, then wait while `out` asks for a pause, and while the sheet's zip
   * entry holds more than MAX_SHEET_BACKLOG bytes not yet compressed (exceljs writes rows into it
   * without looking at backpressure, so without this the whole sheet would pile up in memory when
   * the rows come faster than zlib compresses them).
   */
  async breathe(sheet?: ExcelJS.Worksheet) {
    this.check();
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.check();
    for (;;) {
      const waitOn = this.out.writableNeedDrain ? this.out : sheetBacklog(sheet);
      if (!waitOn) return;
      await this.race(drainOf(waitOn));
      this.check();
    }
  }

  dispose() {
    for (const c of this.cleanups.splice(0)) c();
  }
}

/** Don't let more than this many bytes of sheet XML wait for the compressor. */
const MAX_SHEET_BACKLOG = 1 << 20;

/**
 * The stream inside exceljs that a sheet's rows are written to (the zip entry's input), when it
 * holds more than MAX_SHEET_BACKLOG bytes. Reads exceljs 4.4 internals (the worksheet writer's
 * `_stream`, a StreamBuf, and its `pipes`, the archiver's PassThrough for that entry); if they
 * change, this returns null and only `out` paces the writer.
 */
function sheetBacklog(sheet: ExcelJS.Worksheet | undefined): NodeJS.EventEmitter | null {
  const pipes = (sheet as unknown as { _stream?: { pipes?: unknown } } | undefined)?._stream?.pipes;
  if (!Array.isArray(pipes)) return null;
  for (const p of pipes as Array<{ writableLength?: number; _writableState?: { length?: number }; once?: unknown }>) {
    const pending = p?.writableLength ?? p?._writableState?.length ?? 0;
    if (pending > MAX_SHEET_BACKLOG && typeof p.once === 'function') return p as unknown as NodeJS.EventEmitter;
  }
  return null;
}

/** Resolves on the emitter's next 'drain', or after 25 ms (re-checked by the caller), whichever comes first. */
function drainOf(emitter: NodeJS.EventEmitter): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      emitter.off('drain', done);
      resolve();
    };
    const timer = setTimeout(done, 25);
    emitter.once('drain', done);
  });
}

/**
 * Reads an async iterable batch by batch. When the caller stops early (abort, error) the iterator's
 * `return` is called, so an async generator's `finally` runs and a cursor behind it closes; if a
 * `next()` is still in flight, `return` is queued behind it and not awaited.
 */
export async function forEachBatch<T>(
  iterable: AsyncIterable<T[]>,
  guard: Guard,
  onBatch: (batch: T[]) => Promise<void>,
): Promise<void> {
  guard.check();
  const it = iterable[Symbol.asyncIterator]();
  let done = false;
  let inFlight = false;
  try {
    for (;;) {
      inFlight = true;
      const r = await guard.race(it.next());
      inFlight = false;
      if (r.done) {
        done = true;
        return;
      }
      await onBatch(r.value);
    }
  } finally {
    if (!done && typeof it.return === 'function') {
      const closing = Promise.resolve()
        .then(() => it.return!())
        .catch(() => {});
      if (!inFlight) await closing;
    }
  }
}
