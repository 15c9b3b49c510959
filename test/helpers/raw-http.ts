import { connect } from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  /** Parsed JSON when the answer says it is JSON, else the text. */
  body: any;
  /** Everything the server sent, as latin1 text. */
  raw: string;
}

/**
 * Writes the request bytes as they are (no client library in between to refuse or fix them) and
 * collects the answer until the server closes the connection, or `waitMs` passes: then whatever
 * arrived is returned, possibly nothing (status 0).
 */
export function rawRequest(api: string, request: string | Buffer | Array<string | Buffer>, waitMs = 10_000): Promise<RawResponse> {
  const { hostname, port } = new URL(api);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = connect(Number(port), hostname, () => {
      for (const part of Array.isArray(request) ? request : [request]) socket.write(typeof part === 'string' ? Buffer.from(part, 'latin1') : part);
    });
    const timer = setTimeout(() => socket.destroy(), waitMs);
    socket.on('data', (d) => chunks.push(d));
    // The server answers before reading everything and then closes, so a reset may follow the answer.
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(parseResponse(Buffer.concat(chunks).toString('latin1')));
    });
  });
}

/** The first response in `raw` (a chunked body is decoded). */
export function parseResponse(raw: string): RawResponse {
  const split = raw.indexOf('\r\n\r\n');
  const [statusLine = '', ...lines] = (split < 0 ? raw : raw.slice(0, split)).split('\r\n');
  const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).trim().toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
  let text = split < 0 ? '' : raw.slice(split + 4);
  if (headers['content-length'] !== undefined) text = text.slice(0, Number(headers['content-length']));
  else if (headers['transfer-encoding'] === 'chunked') text = dechunk(text);
  text = Buffer.from(text, 'latin1').toString('utf8');
  let body: any = text;
  if (headers['content-type']?.includes('json')) {
    try {
      body = JSON.parse(text);
    } catch {
      // left as text: the caller's checks say what was wrong
    }
  }
  return { status: Number(statusLine.split(' ')[1] ?? 0) || 0, headers, body, raw };
}

function dechunk(text: string): string {
  let out = '';
  for (let at = 0; at < text.length; ) {
    const eol = text.indexOf('\r\n', at);
    if (eol < 0) break;
    const size = Number.parseInt(text.slice(at, eol), 16);
    if (!size) break;
    out += text.slice(eol + 2, eol + 2 + size);
    at = eol + 2 + size + 2;
  }
  return out;
}
