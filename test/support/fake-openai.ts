/**
 * A fake OpenAI-compatible API on loopback, for tests and benches (test/support: shared by test/ and bench/): `POST <base>/chat/completions` (base `/v1`
 * or none) and `GET <base>/models`. Every request is recorded; each chat completion is answered by
 * the next scripted behaviour, or by the default one: a valid structured answer built from the
 * request's `<page-data>` block, so tests can see which group it was for.
 *
 *   const ai = await startFakeOpenAi();
 *   const enricher = createOpenAiEnricher({ apiKey: 'sk-test', baseURL: ai.baseURL, ... });
 *   ai.script({ status: 429 }, { delayMs: 5000 });   // the next two requests
 *   expect(ai.requests).toHaveLength(…);
 *   await ai.close();
 *
 * Point a worker at it with OPENAI_BASE_URL=<ai.baseURL>.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extractPageData } from '../../src/enrichment/prompt.ts';

export interface FakeAnswer {
  description: string;
  whoIsAffected: string;
  fixSuggestion: string;
}

/** How to answer one chat completion request. Fields combine: `delayMs` with any of the others. */
export interface FakeBehaviour {
  /** Wait this long before answering (a client that gives up first closes the request). */
  delayMs?: number;
  /** An error status with an OpenAI-style error body (`errorMessage`, else a default per status). */
  status?: number;
  errorMessage?: string;
  /** Extra response headers, e.g. `{ 'retry-after': '2' }`. */
  headers?: Record<string, string>;
  /** The raw response body as is (status 200 unless `status` is set), e.g. `'not json'`. */
  body?: string;
  /** The model's message content as is, e.g. an over-long or schema-violating answer. */
  content?: string;
  /** The model's answer, serialised as the message content. */
  answer?: FakeAnswer;
  /** A structured-output refusal instead of content. */
  refusal?: string;
  finishReason?: string;
  usage?: { prompt_tokens: number; completion_tokens: number };
  /** Destroys the connection without answering. */
  dropConnection?: boolean;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** The parsed JSON body, or the raw text when it is not JSON. */
  body: any;
  receivedAt: number;
  /** True when the client closed the request before it was answered (timeout, abort). */
  closedEarly: boolean;
  /** True once an answer was written. */
  answered: boolean;
}

export interface FakeOpenAiOptions {
  /** The default answer for requests without a scripted behaviour. */
  answer?: (request: RecordedRequest) => FakeAnswer;
  /** The default behaviour for requests without a scripted one (merged with the default answer). */
  defaultBehaviour?: FakeBehaviour;
  /** Fixed port (0: any free one). */
  port?: number;
  /** The message content for a request without a scripted one (e.g. AI judgement's verdicts); undefined: the default answer. */
  contentFor?: (request: RecordedRequest) => string | undefined;
}

export interface FakeOpenAi {
  /** E.g. `http://127.0.0.1:41234/v1`; what the SDK's `baseURL` (or OPENAI_BASE_URL) takes. */
  baseURL: string;
  /** Every request received, in order (chat completions and anything else). */
  requests: RecordedRequest[];
  /** Only the chat completion requests. */
  completions(): RecordedRequest[];
  /** Queues behaviours for the next chat completion requests, in order. */
  script(...behaviours: FakeBehaviour[]): void;
  /** Clears the recorded requests and the queue. */
  reset(): void;
  /** Resolves when `n` chat completion requests have arrived. */
  waitForRequests(n: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

const DEFAULT_ERRORS: Record<number, { type: string; code: string | null; message: string }> = {
  400: { type: 'invalid_request_error', code: null, message: 'Invalid request.' },
  403: { type: 'invalid_request_error', code: 'unsupported_country_region_territory', message: 'Forbidden.' },
  404: { type: 'invalid_request_error', code: 'model_not_found', message: 'The model does not exist or you do not have access to it.' },
  422: { type: 'invalid_request_error', code: null, message: 'Unprocessable entity.' },
  429: { type: 'requests', code: 'rate_limit_exceeded', message: 'Rate limit reached for requests. Please try again in 1s.' },
  500: { type: 'server_error', code: null, message: 'The server had an error while processing your request.' },
  503: { type: 'server_error', code: null, message: 'The engine is currently overloaded, please try again later.' },
};

function userContent(body: any): string {
  const messages: unknown[] = Array.isArray(body?.messages) ? body.messages : [];
  const user = [...messages].reverse().find((m: any) => m?.role === 'user') as { content?: unknown } | undefined;
  if (typeof user?.content === 'string') return user.content;
  if (Array.isArray(user?.content)) return user.content.map((p: any) => (typeof p?.text === 'string' ? p.text : '')).join('');
  return '';
}

/** The default answer: names the rule, criterion and selector found in the request's data block. */
export function defaultFakeAnswer(request: RecordedRequest): FakeAnswer {
  let data: any;
  try {
    data = extractPageData(userContent(request.body));
  } catch {
    data = undefined;
  }
  const rule = data?.rule?.id ?? 'unknown-rule';
  const criterion = data?.wcag?.criterion ?? 'unknown';
  const selector = data?.example?.selector ?? 'the element';
  return {
    description: `Fake description for ${rule}: this element fails WCAG 2.2 success criterion ${criterion}.`,
    whoIsAffected: 'Screen reader users are affected.',
    fixSuggestion: `Fake fix for ${rule}: correct ${selector}, e.g. <img src="a.png" alt="Company logo">.`,
  };
}

const estimateTokens = (s: string) => Math.max(1, Math.ceil(s.length / 4));

export async function startFakeOpenAi(opts: FakeOpenAiOptions = {}): Promise<FakeOpenAi> {
  const requests: RecordedRequest[] = [];
  const queue: FakeBehaviour[] = [];
  const waiters: Array<{ n: number; resolve: () => void }> = [];
  let counter = 0;

  const completions = () => requests.filter((r) => r.method === 'POST' && /\/chat\/completions$/.test(r.path));
  const notify = () => {
    const n = completions().length;
    for (const w of [...waiters]) {
      if (n < w.n) continue;
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve();
    }
  };

  const send = (res: ServerResponse, rec: RecordedRequest, status: number, body: string, headers: Record<string, string> = {}, contentType = 'application/json') => {
    if (res.destroyed || res.writableEnded) return;
    rec.answered = true;
    res.writeHead(status, { 'content-type': contentType, 'x-request-id': `req_fake_${counter}`, ...headers });
    res.end(body);
  };

  const answerCompletion = (res: ServerResponse, rec: RecordedRequest, b: FakeBehaviour) => {
    if (b.dropConnection) {
      res.socket?.destroy();
      return;
    }
    if (b.body !== undefined) return send(res, rec, b.status ?? 200, b.body, b.headers);
    if (b.status !== undefined && b.status >= 400) {
      const auth = String(rec.headers.authorization ?? '');
      const def =
        b.status === 401
          ? // Like OpenAI, which echoes (part of) the key it was given: clients must not pass it on.
            { type: 'invalid_request_error', code: 'invalid_api_key', message: `Incorrect API key provided: ${auth.replace(/^Bearer\s+/i, '')}.` }
          : (DEFAULT_ERRORS[b.status] ?? { type: 'api_error', code: null, message: `Error ${b.status}.` });
      const error = { ...def, message: b.errorMessage ?? def.message, param: null };
      return send(res, rec, b.status, JSON.stringify({ error }), b.headers);
    }
    const model = typeof rec.body?.model === 'string' ? rec.body.model : 'fake-model';
    const content =
      b.refusal !== undefined ? null : (b.content ?? (b.answer ? undefined : opts.contentFor?.(rec)) ?? JSON.stringify(b.answer ?? (opts.answer ?? defaultFakeAnswer)(rec)));
    const promptText = JSON.stringify(rec.body?.messages ?? '');
    const usage = b.usage ?? { prompt_tokens: estimateTokens(promptText), completion_tokens: estimateTokens(content ?? b.refusal ?? '') };
    const completion = {
      id: `chatcmpl-fake-${counter}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model,
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content, refusal: b.refusal ?? null, annotations: [] },
          logprobs: null,
          finish_reason: b.finishReason ?? 'stop',
        },
      ],
      usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
      system_fingerprint: 'fp_fake',
    };
    send(res, rec, b.status ?? 200, JSON.stringify(completion), b.headers);
  };

  const handle = (req: IncomingMessage, res: ServerResponse, raw: string) => {
    let body: unknown = raw;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      /* keep the raw text */
    }
    const path = (req.url ?? '/').split('?')[0]!;
    const rec: RecordedRequest = { method: req.method ?? 'GET', path, headers: { ...req.headers }, body, receivedAt: Date.now(), closedEarly: false, answered: false };
    requests.push(rec);
    counter++;
    res.on('close', () => {
      if (!res.writableFinished) rec.closedEarly = true;
    });

    if (req.method === 'GET' && /^(\/v1)?\/models$/.test(path)) {
      return send(res, rec, 200, JSON.stringify({ object: 'list', data: [{ id: 'fake-model', object: 'model', created: 0, owned_by: 'fake' }] }));
    }
    if (req.method !== 'POST' || !/^(\/v1)?\/chat\/completions$/.test(path)) {
      return send(res, rec, 404, JSON.stringify({ error: { message: `Unknown path ${req.method} ${path}`, type: 'invalid_request_error', code: null, param: null } }));
    }
    notify();
    const behaviour: FakeBehaviour = { ...opts.defaultBehaviour, ...(queue.shift() ?? {}) };
    if (behaviour.delayMs && behaviour.delayMs > 0) {
      const timer = setTimeout(() => answerCompletion(res, rec, behaviour), behaviour.delayMs);
      res.on('close', () => clearTimeout(timer));
    } else {
      answerCompletion(res, rec, behaviour);
    }
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => handle(req, res, Buffer.concat(chunks).toString('utf8')));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    completions,
    script: (...behaviours) => void queue.push(...behaviours),
    reset: () => {
      requests.length = 0;
      queue.length = 0;
    },
    waitForRequests: (n, timeoutMs = 10_000) =>
      new Promise<void>((resolve, reject) => {
        if (completions().length >= n) return resolve();
        const timer = setTimeout(() => reject(new Error(`fake OpenAI: ${completions().length} of ${n} requests after ${timeoutMs} ms`)), timeoutMs);
        waiters.push({ n, resolve: () => (clearTimeout(timer), resolve()) });
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
