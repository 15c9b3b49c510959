// Records what the public API answers, read-only, so that two builds of the API can be compared byte
// for byte on the same database (e.g. before and after a refactor):
//
//   node scripts/api-answers.ts --api http://127.0.0.1:3000 --out answers.json [--key KEY]
//   node scripts/api-answers.ts --compare before.json after.json [--report diff.md]
//
// The walk sends GET requests only, one at a time: health, /openapi.json and /docs, every site with its
// crawls, pages, issues (pages of the pagination and the list's filters), issue groups, trend, schedule,
// authentication set-up, flows, webhooks and their deliveries; every scan; every crawl's and scan's
// detail, event stream (ended ones only: their stream is finite), screenshots and exports (PDF,
// Excel, OpenACR); and 404 and 400 answers (unknown ids, malformed ids, bad query parameters).
// Each request sends a fixed `X-Request-Id` (derived from its path), so problem+json bodies, which
// name the request id, do not differ between runs.
//
// Output: one JSON file `{api, requests: Answer[]}`, sorted by path, each with the status, content
// type, the headers (all but `date` and hop-by-hop ones), sha256 and length of the body, and the body
// text for JSON, YAML, HTML, JavaScript and event streams. Binary bodies (PDF, XLSX) are kept beside
// it in `<out>.bodies/<sha256>.<ext>`. A body that embeds the time it was made (every report does:
// its generation time) also gets a `normalised` sha256 with that time taken out, and says what was
// taken out:
// - PDF: the date strings (the Info dictionary's /CreationDate), XMP's xmp:CreateDate and the
//   trailer /ID, blanked in place (same length: the offsets stay); and separately the text
//   (`pdftotext -layout`) with the "report generated" date and time and the running header's date
//   replaced. `normalised.sha256` is over the date-blanked bytes, `normalised.textSha256` over the
//   normalised text (the printed time is drawn with embedded, subset fonts, so a report made in
//   another minute differs in a content stream too, and possibly in the font subset).
// - XLSX: the entries' contents without their zip timestamps, with docProps/core.xml's
//   created/modified and the Summary sheet's "Report generated (UTC)" cell replaced.
// - OpenACR YAML: `last_modified_date` (the day the report was made).
// --compare prints how many answers are byte-identical, and each difference with what it is.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { inflateSync } from 'node:zlib';
import { unzip } from '../test/support/zip.ts';

interface Answer {
  method: 'GET';
  path: string;
  status: number;
  contentType: string | null;
  headers: Record<string, string>;
  sha256: string;
  bytes: number;
  /** The body, for text answers (JSON, YAML, HTML, JavaScript, event streams). */
  body?: string;
  /** Where a binary body was kept, relative to the output file's folder. */
  bodyFile?: string;
  /** For a body that embeds the time it was made: its hash with that time taken out. */
  normalised?: { sha256: string; textSha256?: string; what: string[] };
  /** A request that got no answer (a connection error or a timeout). */
  error?: string;
}

const sha256 = (b: Uint8Array | string) => createHash('sha256').update(b).digest('hex');
/** A UUID no row has: for the 404 answers. */
const MISSING = '00000000-0000-4000-8000-000000000000';
/** Issue details (and pictures) asked for at most, beyond those not open and the groups' examples. */
const MAX_ISSUE_DETAILS = 300;
const SKIPPED_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

// ---------------------------------------------------------------- the walk

async function walk(api: string, out: string, key: string | undefined): Promise<void> {
  const answers = new Map<string, Answer>();
  const bodiesDir = `${out}.bodies`;
  mkdirSync(bodiesDir, { recursive: true });

  async function get(p: string, opts: { timeoutMs?: number } = {}): Promise<any> {
    const known = answers.get(p);
    if (known) return known.body !== undefined && isJson(known.contentType) && known.status < 300 ? JSON.parse(known.body) : undefined;
    const headers: Record<string, string> = { 'x-request-id': `api-answers-${sha256(p).slice(0, 24)}` };
    if (key) headers.authorization = `Bearer ${key}`;
    let res: Response;
    let buf: Buffer;
    try {
      res = await fetch(api + p, { headers, redirect: 'manual', signal: AbortSignal.timeout(opts.timeoutMs ?? 120_000) });
      buf = Buffer.from(await res.arrayBuffer());
    } catch (err) {
      answers.set(p, { method: 'GET', path: p, status: 0, contentType: null, headers: {}, sha256: '', bytes: 0, error: String(err) });
      return undefined;
    }
    const contentType = res.headers.get('content-type');
    const kept: Record<string, string> = {};
    for (const [k, v] of res.headers) if (!SKIPPED_HEADERS.has(k)) kept[k] = v;
    const a: Answer = { method: 'GET', path: p, status: res.status, contentType, headers: kept, sha256: sha256(buf), bytes: buf.length };
    if (isText(contentType)) a.body = buf.toString('utf8');
    else if (buf.length > 0 && !/^image\//.test(contentType ?? '')) {
      const ext = contentType?.includes('pdf') ? 'pdf' : contentType?.includes('spreadsheetml') ? 'xlsx' : 'bin';
      a.bodyFile = path.join(path.basename(bodiesDir), `${a.sha256}.${ext}`);
      writeFileSync(path.join(bodiesDir, `${a.sha256}.${ext}`), buf);
    }
    const n = normalise(contentType, buf, path.join(bodiesDir, `${a.sha256}.pdf`));
    if (n) a.normalised = n;
    answers.set(p, a);
    process.stderr.write(`${res.status} ${p}\n`);
    return a.body !== undefined && isJson(contentType) && res.status < 300 ? JSON.parse(a.body) : undefined;
  }

  /** Every page of a list, `limit` at a time, by its `links.next`; the items. */
  async function allPages(first: string, max = 200): Promise<any[]> {
    const items: any[] = [];
    let next: string | null = first;
    for (let i = 0; next && i < max; i++) {
      const page: any = await get(next);
      if (!page?.data) break;
      items.push(...page.data);
      next = page.links?.next ?? null;
    }
    return items;
  }

  const BAD_PAGINATION = ['limit=0', 'limit=101', 'limit=abc', 'offset=-1', 'offset=1.5'];

  // The service as a whole.
  for (const p of ['/healthz', '/readyz', '/openapi.json', '/docs', '/docs/assets/init.js', '/api/nope', '/api/sites/not-a-uuid', `/api/sites/${MISSING}`]) await get(p);
  const openapi = await get('/openapi.json');
  if (openapi?.paths) process.stderr.write(`openapi.json: ${Object.keys(openapi.paths).length} paths\n`);

  // Single-page scans.
  await get('/api/scans');
  const scans = await allPages('/api/scans?limit=100');
  await allPages('/api/scans?limit=2');
  for (const q of BAD_PAGINATION) await get(`/api/scans?${q}`);
  for (const p of [`/api/scans/${MISSING}`, '/api/scans/not-a-uuid', `/api/scans/${MISSING}/events`, `/api/scans/${MISSING}/export`, `/api/scans/${MISSING}/issues/${MISSING}/screenshot`]) await get(p);
  for (const s of scans) {
    const base = `/api/scans/${s.id}`;
    const scan = await get(base);
    if (scan && !['queued', 'running'].includes(scan.status)) await get(`${base}/events`, { timeoutMs: 20_000 });
    for (const f of ['', '?format=pdf', '?format=excel', '?format=openacr', '?format=docx']) await get(`${base}/export${f}`);
    for (const issue of scan?.issues ?? []) await get(`${base}/issues/${issue.id}/screenshot`);
    await get(`${base}/issues/${MISSING}/screenshot`);
    await get(`${base}/issues/not-a-uuid/screenshot`);
  }

  // Sites.
  const sites: any[] = (await get('/api/sites')) ?? [];
  for (const site of sites) {
    const base = `/api/sites/${site.id}`;
    await get(base);
    for (const sub of ['auth', 'flows', 'webhooks', 'schedule']) await get(`${base}/${sub}`);
    const hooks = (await get(`${base}/webhooks`))?.webhooks ?? [];
    for (const h of hooks) {
      await get(`${base}/webhooks/${h.id}/deliveries`);
      await allPages(`${base}/webhooks/${h.id}/deliveries?limit=2`);
      await get(`${base}/webhooks/${h.id}/deliveries?limit=0`);
    }
    await get(`${base}/webhooks/${MISSING}/deliveries`);

    // Trend and crawls.
    await get(`${base}/trend`);
    await allPages(`${base}/trend?limit=1`);
    for (const q of BAD_PAGINATION) await get(`${base}/trend?${q}`);
    await get(`${base}/crawls`);
    const crawls = await allPages(`${base}/crawls?limit=100`);
    await allPages(`${base}/crawls?limit=1`);
    await get(`${base}/crawls?limit=2&offset=1`);
    for (const q of BAD_PAGINATION) await get(`${base}/crawls?${q}`);
    for (const p of [`crawls/${MISSING}`, 'crawls/not-a-uuid', `crawls/${MISSING}/events`, `crawls/${MISSING}/export`, `crawls/${MISSING}/export?format=excel`]) await get(`${base}/${p}`);
    for (const c of crawls) {
      const cb = `${base}/crawls/${c.id}`;
      const crawl = await get(cb);
      if (crawl && !['queued', 'running'].includes(crawl.status)) await get(`${cb}/events`, { timeoutMs: 20_000 });
      for (const f of ['', '?format=pdf', '?format=excel', '?format=openacr', '?format=csv']) await get(`${cb}/export${f}`);
    }

    // Pages.
    await get(`${base}/pages`);
    const pages = await allPages(`${base}/pages?limit=100`);
    await allPages(`${base}/pages?limit=5`);
    for (const kind of ['page', 'document']) {
      await get(`${base}/pages?kind=${kind}`);
      await allPages(`${base}/pages?kind=${kind}&limit=3`);
    }
    for (const q of [...BAD_PAGINATION, 'kind=pdf']) await get(`${base}/pages?${q}`);
    for (const pg of pages) await get(`${base}/pages/${pg.id}`);
    await get(`${base}/pages/${MISSING}`);
    await get(`${base}/pages/not-a-uuid`);

    // Issues: every one, pages of the pagination, every filter alone and a few combined.
    await get(`${base}/issues`);
    const issues = await allPages(`${base}/issues?limit=100`);
    await allPages(`${base}/issues?limit=7`, 30);
    await get(`${base}/issues?limit=3&offset=2`);
    await get(`${base}/issues?offset=100000`);
    const distinct = (f: (i: any) => unknown[], n: number) => [...new Set(issues.flatMap(f))].filter((v) => typeof v === 'string').sort().slice(0, n) as string[];
    const filters: string[] = [
      ...['critical', 'serious', 'moderate', 'minor'].map((v) => `severity=${v}`),
      ...['open', 'fixed', 'dismissed', 'cant_fix'].map((v) => `status=${v}`),
      ...['confirmed', 'needs_review'].map((v) => `type=${v}`),
      ...['A', 'AA'].map((v) => `wcagLevel=${v}`),
      ...['page', 'document'].map((v) => `pageKind=${v}`),
      ...distinct((i) => i.wcagCriteria ?? [i.wcagCriterion], 8).map((v) => `wcagCriterion=${v}`),
      'wcagCriterion=3.3.2',
      ...distinct((i) => [i.axeRuleId], 6).map((v) => `ruleId=${encodeURIComponent(v)}`),
      ...distinct((i) => [i.pageId], 4).map((v) => `pageId=${v}`),
      ...distinct((i) => [i.groupKey], 4).map((v) => `groupKey=${encodeURIComponent(v)}`),
      ...crawls.map((c) => `newInCrawl=${c.id}`),
      `newInCrawl=${MISSING}`,
      `pageId=${MISSING}`,
      'status=fixed&severity=serious',
      'status=open&type=confirmed&wcagLevel=A',
      'type=needs_review&pageKind=page',
      'pageKind=document&status=open',
      'severity=critical&wcagCriterion=4.1.2',
    ];
    for (const f of filters) {
      await get(`${base}/issues?${f}`);
      await allPages(`${base}/issues?${f}&limit=5`, 4);
    }
    const badIssueQueries = [
      ...BAD_PAGINATION,
      'severity=bogus', 'status=closed', 'type=maybe', 'wcagLevel=AAA', 'wcagCriterion=9.9', 'wcagCriterion=1.4', 'ruleId=Image_Alt!',
      'pageId=not-a-uuid', 'groupKey=xyz', 'newInCrawl=nope', 'pageKind=pdf', 'severity=bogus&status=closed',
    ];
    for (const q of badIssueQueries) await get(`${base}/issues?${q}`);
    // Each issue and its picture: all of them on a small site; on a large one every issue that is not
    // open, every group's example and an even sample of the rest (at most MAX_ISSUE_DETAILS).
    const examples = new Set<string>(((await allPages(`${base}/issue-groups?limit=100`)) as any[]).map((g) => g.example?.issueId).filter(Boolean));
    const step = Math.max(1, Math.ceil(issues.length / MAX_ISSUE_DETAILS));
    for (const [n, i] of issues.entries()) {
      if (n % step !== 0 && i.status === 'open' && !examples.has(i.id)) continue;
      await get(`${base}/issues/${i.id}`);
      await get(`${base}/issues/${i.id}/screenshot`);
    }
    for (const p of [`issues/${MISSING}`, 'issues/not-a-uuid', `issues/${MISSING}/screenshot`]) await get(`${base}/${p}`);

    // Issue groups: the latest ended crawl's, each crawl's, pages, filters.
    await get(`${base}/issue-groups`);
    await allPages(`${base}/issue-groups?limit=100`);
    await allPages(`${base}/issue-groups?limit=3`);
    for (const c of crawls) {
      await get(`${base}/issue-groups?crawlId=${c.id}`);
      await allPages(`${base}/issue-groups?crawlId=${c.id}&limit=4`, 5);
    }
    for (const f of filters.filter((q) => !/^(groupKey|newInCrawl|pageKind)=/.test(q) && !q.includes('&pageKind'))) await get(`${base}/issue-groups?${f}`);
    for (const q of [...BAD_PAGINATION, 'crawlId=not-a-uuid', `crawlId=${MISSING}`, 'severity=bogus', 'wcagLevel=AAA']) await get(`${base}/issue-groups?${q}`);
  }

  const requests = [...answers.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  writeFileSync(out, JSON.stringify({ api, requests }, null, 1) + '\n');
  const byStatus = new Map<number, number>();
  for (const a of requests) byStatus.set(a.status, (byStatus.get(a.status) ?? 0) + 1);
  console.log(`${requests.length} requests to ${api} written to ${out}; by status: ${[...byStatus].sort((a, b) => a[0] - b[0]).map(([s, n]) => `${s}: ${n}`).join(', ')}`);
}

const isJson = (ct: string | null) => /json/.test(ct ?? '');
const isText = (ct: string | null) => /json|yaml|text\/|javascript|event-stream/.test(ct ?? '');

// ---------------------------------------------------------------- time taken out of bodies

function normalise(contentType: string | null, buf: Buffer, pdfFile: string): Answer['normalised'] | undefined {
  if (contentType?.startsWith('application/pdf') && buf.length > 0) {
    const blanked = blankPdfDates(buf);
    const text = pdfText(pdfFile);
    return {
      sha256: sha256(blanked.bytes),
      ...(text ? { textSha256: sha256(text.text) } : {}),
      what: [...blanked.what, ...(text ? text.what : ['pdftotext not available: text not compared'])],
    };
  }
  if (contentType?.includes('spreadsheetml') && buf.length > 0) {
    const x = normaliseXlsx(buf);
    return { sha256: x.sha256, what: x.what };
  }
  if (contentType?.includes('yaml')) {
    const text = buf.toString('utf8');
    const replaced = text.replace(/^(\s*last_modified_date:\s*).*$/m, '$1<generated>');
    if (replaced !== text) return { sha256: sha256(replaced), what: ['last_modified_date (the day the report was generated)'] };
  }
  return undefined;
}

/** CreationDate/ModDate strings and the trailer's /ID, blanked in place (same length: offsets stay). */
function blankPdfDates(buf: Buffer): { bytes: Buffer; what: string[] } {
  const s = buf.toString('latin1');
  const what = new Set<string>();
  const out = s
    // PDF date strings: the Info dictionary's /CreationDate (pdfkit writes it as an object of its own).
    .replace(/\((D:\d{4}[0-9Z+\-']*)\)/g, (_m, value: string) => {
      what.add('PDF date strings (D:…), i.e. /CreationDate');
      return `(${'0'.repeat(value.length)})`;
    })
    .replace(/\/ID\s*\[\s*<([0-9a-fA-F]*)>\s*<([0-9a-fA-F]*)>\s*\]/g, (m) => {
      what.add('trailer /ID');
      return m.replace(/[0-9a-fA-F](?=[0-9a-fA-F]*>)/g, '0');
    })
    // XMP metadata, when present, repeats the dates.
    .replace(/<(xmp:(?:CreateDate|ModifyDate|MetadataDate))>([^<]*)<\/\1>/g, (m, name: string, value: string) => {
      what.add(name);
      return m.replace(`>${value}<`, `>${'0'.repeat(value.length)}<`);
    });
  return { bytes: Buffer.from(out, 'latin1'), what: [...what].map((w) => `${w} blanked in the bytes`) };
}

const MONTHS = 'January|February|March|April|May|June|July|August|September|October|November|December';
const DAY = `\\d{1,2} (?:${MONTHS}) \\d{4}`;

/** `pdftotext -layout` of the file with the generation date and time replaced; undefined without pdftotext. */
function pdfText(file: string): { text: string; what: string[] } | undefined {
  if (!existsSync(file)) return undefined;
  const r = spawnSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (r.status !== 0 || r.error) return undefined;
  const what = new Set<string>();
  const text = r.stdout
    .replace(new RegExp(`([Rr]eport generated\\s+)${DAY}(,\\s+\\d{2}:\\d{2} UTC)?`, 'g'), (_m, lead: string, time: string | undefined) => {
      what.add(time ? '"Report generated <date>, <time> UTC"' : '"report generated <date>"');
      return `${lead}<generated>`;
    })
    .replace(new RegExp(`((?:[Cc]rawl|[Ss]can|[Ss]ite)[^\\n·]{0,40}· )${DAY}`, 'g'), (_m, lead: string) => {
      what.add('the running header\'s "… · <date>"');
      return `${lead}<generated>`;
    });
  return { text, what: [...what].map((w) => `text (pdftotext -layout): ${w} replaced`) };
}

/** The workbook's entries with the generation time taken out, in name order, hashed; zip timestamps ignored. */
function normaliseXlsx(buf: Buffer): { sha256: string; what: string[]; entries: Map<string, string> } {
  const entries = unzip(buf);
  const what = new Set<string>(['zip entries compared by name and content (their timestamps ignored)']);
  const texts = new Map<string, string>();
  for (const [name, data] of entries) texts.set(name, data.toString('utf8'));
  const core = texts.get('docProps/core.xml');
  if (core !== undefined) {
    texts.set(
      'docProps/core.xml',
      core.replace(/(<dcterms:(created|modified)\b[^>]*>)[^<]*(<\/dcterms:\2>)/g, (_m, open: string, name: string, close: string) => {
        what.add(`docProps/core.xml dcterms:${name}`);
        return `${open}<generated>${close}`;
      }),
    );
  }
  // The Summary sheet's "Report generated (UTC)" row: its value cell is the generation time.
  const shared = texts.get('xl/sharedStrings.xml');
  const strings = shared ? [...shared.matchAll(/<si>([\s\S]*?)<\/si>/g)].map((m) => m[1]!.replace(/<[^>]+>/g, '')) : [];
  const idx = strings.indexOf('Report generated (UTC)');
  for (const [name, xml] of texts) {
    if (!/^xl\/worksheets\/sheet\d+\.xml$/.test(name)) continue;
    const replaced = xml.replace(/<row\b[^>]*>[\s\S]*?<\/row>/g, (row) => {
      const label = (idx >= 0 && new RegExp(`<c\\b[^>]*t="s"[^>]*><v>${idx}</v></c>`).test(row)) || row.includes('>Report generated (UTC)<');
      if (!label) return row;
      what.add(`${name}: the "Report generated (UTC)" cell`);
      return row.replace(/(<c\b(?![^>]*t="s")[^>]*>)<v>[^<]*<\/v>/g, '$1<v><generated></v>');
    });
    texts.set(name, replaced);
  }
  const h = createHash('sha256');
  for (const name of [...texts.keys()].sort()) h.update(name).update('\0').update(texts.get(name)!).update('\0');
  return { sha256: h.digest('hex'), what: [...what], entries: texts };
}

// ---------------------------------------------------------------- compare

interface Objects {
  /** Object number → its dictionary and decompressed stream, as text. */
  byNumber: Map<string, string>;
}

/** A pdfkit PDF's objects (no object streams), their streams inflated. */
function pdfObjects(buf: Buffer): Objects {
  const s = buf.toString('latin1');
  const byNumber = new Map<string, string>();
  const re = /(\d+) (\d+) obj\b([\s\S]*?)endobj/g;
  for (let m = re.exec(s); m; m = re.exec(s)) {
    let body = m[3]!;
    const at = body.indexOf('stream');
    if (at >= 0 && /\/FlateDecode/.test(body.slice(0, at))) {
      const start = body.indexOf('\n', at) + 1;
      const end = body.lastIndexOf('endstream');
      try {
        body = body.slice(0, at) + 'stream\n' + inflateSync(Buffer.from(body.slice(start, end).replace(/\r?\n$/, ''), 'latin1')).toString('latin1');
      } catch {
        // left compressed
      }
    }
    byNumber.set(`${m[1]} ${m[2]}`, body.replace(/\/Length \d+/, '/Length <n>'));
  }
  return { byNumber };
}

function describePdfObject(body: string): string {
  const at = body.indexOf('stream\n');
  const dict = at >= 0 ? body.slice(0, at) : body;
  if (at >= 0) {
    if (/\/Length1|\/Subtype\s*\/(CIDFontType0C|Type1C|OpenType)/.test(dict)) return 'font file';
    const type = /\/Type\s*\/(\w+)/.exec(dict)?.[1];
    if (type) return `${type} stream`;
    return /\bBT\b[\s\S]*\bET\b/.test(body.slice(at)) ? 'page content stream (text)' : 'stream';
  }
  const type = /\/Type\s*\/(\w+)/.exec(dict)?.[1];
  if (type) return type;
  if (/\/CreationDate|\/Producer/.test(dict)) return 'Info';
  return 'object';
}

function pdfPageTexts(file: string): string[] | undefined {
  const r = spawnSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (r.status !== 0 || r.error) return undefined;
  return r.stdout.split('\f');
}

function lineDiff(a: string, b: string, max = 6): string[] {
  const al = a.split('\n');
  const bl = b.split('\n');
  const out: string[] = [];
  for (let i = 0; i < Math.max(al.length, bl.length) && out.length < max * 2; i++) {
    if (al[i] !== bl[i]) out.push(`    - ${JSON.stringify((al[i] ?? '').trim())}`, `    + ${JSON.stringify((bl[i] ?? '').trim())}`);
  }
  return out;
}

function jsonDiff(a: unknown, b: unknown, at = '$', out: string[] = [], max = 12): string[] {
  if (out.length >= max) return out;
  if (JSON.stringify(a) === JSON.stringify(b)) {
    // Same values: the text differs by key order or spacing.
    return out;
  }
  if (a && b && typeof a === 'object' && typeof b === 'object' && Array.isArray(a) === Array.isArray(b)) {
    const keys = [...new Set([...Object.keys(a as object), ...Object.keys(b as object)])];
    for (const k of keys) jsonDiff((a as any)[k], (b as any)[k], Array.isArray(a) ? `${at}[${k}]` : `${at}.${k}`, out, max);
    return out;
  }
  const show = (v: unknown) => {
    const t = JSON.stringify(v) ?? 'undefined';
    return t.length > 300 ? `${t.slice(0, 300)}…` : t;
  };
  out.push(`    ${at}: ${show(a)} → ${show(b)}`);
  return out;
}

function compare(beforeFile: string, afterFile: string, reportFile: string | undefined): void {
  const load = (f: string) => JSON.parse(readFileSync(f, 'utf8')) as { api: string; requests: Answer[] };
  const before = load(beforeFile);
  const after = load(afterFile);
  const A = new Map(before.requests.map((a) => [a.path, a]));
  const B = new Map(after.requests.map((a) => [a.path, a]));
  const lines: string[] = [];
  const paths = [...new Set([...A.keys(), ...B.keys()])].sort();
  let identical = 0;
  let timeOnly = 0;
  const differing: string[] = [];
  for (const p of paths) {
    const a = A.get(p);
    const b = B.get(p);
    if (!a || !b) {
      differing.push(p);
      lines.push(`- ${p}: only in ${a ? 'before' : 'after'}`);
      continue;
    }
    const sameHeaders = JSON.stringify(a.headers) === JSON.stringify(b.headers);
    if (a.status === b.status && a.sha256 === b.sha256 && a.contentType === b.contentType && !a.error && !b.error) {
      identical++;
      if (!sameHeaders) lines.push(`- ${p}: body identical; headers differ: ${JSON.stringify(headerDiff(a.headers, b.headers))}`);
      continue;
    }
    const head = `- ${p}: ${a.status} ${a.contentType} ${a.bytes} B → ${b.status} ${b.contentType} ${b.bytes} B`;
    if (a.status === b.status && a.normalised && b.normalised && a.normalised.sha256 === b.normalised.sha256 && a.contentType === b.contentType) {
      timeOnly++;
      lines.push(`${head}: identical once the generation time is taken out (${a.normalised.what.filter((w) => !w.startsWith('text')).join('; ')})`);
      continue;
    }
    if (a.status === b.status && a.normalised?.textSha256 && a.normalised.textSha256 === b.normalised?.textSha256) {
      timeOnly++;
      lines.push(`${head}: the text (pdftotext) is identical once the generation date and time are taken out; the bytes differ beyond /CreationDate and /ID:`);
      lines.push(...pdfDetail(path.dirname(beforeFile), a, path.dirname(afterFile), b));
      continue;
    }
    differing.push(p);
    lines.push(head);
    if (!sameHeaders) lines.push(`    headers: ${JSON.stringify(headerDiff(a.headers, b.headers))}`);
    if (a.body !== undefined && b.body !== undefined) {
      if (isJson(a.contentType) && isJson(b.contentType)) {
        let ja: unknown;
        let jb: unknown;
        try {
          ja = JSON.parse(a.body);
          jb = JSON.parse(b.body);
        } catch {
          // not JSON after all
        }
        const d = ja !== undefined ? jsonDiff(ja, jb) : [];
        lines.push(...(d.length ? d : ['    same values; the text differs (key order or spacing)']));
      } else lines.push(...lineDiff(a.body, b.body));
    } else if (a.contentType?.startsWith('application/pdf')) lines.push(...pdfDetail(path.dirname(beforeFile), a, path.dirname(afterFile), b));
    else if (a.contentType?.includes('spreadsheetml') && a.bodyFile && b.bodyFile) {
      const xa = normaliseXlsx(readFileSync(path.join(path.dirname(beforeFile), a.bodyFile)));
      const xb = normaliseXlsx(readFileSync(path.join(path.dirname(afterFile), b.bodyFile)));
      for (const name of [...new Set([...xa.entries.keys(), ...xb.entries.keys()])].sort()) {
        if (xa.entries.get(name) !== xb.entries.get(name)) lines.push(`    entry ${name} differs`);
      }
    }
  }
  const summary = [
    `before: ${beforeFile} (${before.api}), ${before.requests.length} requests`,
    `after:  ${afterFile} (${after.api}), ${after.requests.length} requests`,
    `${paths.length} paths; ${identical} byte-identical (status, content type and body); ${timeOnly} identical once the time the body was made is taken out; ${differing.length} differ${differing.length ? ':' : ''}`,
    ...differing.map((p) => `  ${p}`),
    '',
    'Details:',
    ...lines,
  ];
  const text = summary.join('\n') + '\n';
  process.stdout.write(text);
  if (reportFile) writeFileSync(reportFile, text);
}

function headerDiff(a: Record<string, string>, b: Record<string, string>): Record<string, [string | undefined, string | undefined]> {
  const out: Record<string, [string | undefined, string | undefined]> = {};
  for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) if (a[k] !== b[k]) out[k] = [a[k], b[k]];
  return out;
}

/** Which PDF objects differ (streams inflated), and which lines of which page's text. */
function pdfDetail(dirA: string, a: Answer, dirB: string, b: Answer): string[] {
  if (!a.bodyFile || !b.bodyFile) return ['    (no body kept)'];
  const fa = path.join(dirA, a.bodyFile);
  const fb = path.join(dirB, b.bodyFile);
  const oa = pdfObjects(blankPdfDates(readFileSync(fa)).bytes).byNumber;
  const ob = pdfObjects(blankPdfDates(readFileSync(fb)).bytes).byNumber;
  const diff: string[] = [];
  for (const k of new Set([...oa.keys(), ...ob.keys()])) if (oa.get(k) !== ob.get(k)) diff.push(`${k} (${describePdfObject(oa.get(k) ?? ob.get(k) ?? '')})`);
  const out = [`    ${oa.size} and ${ob.size} objects; ${diff.length} differ once streams are inflated and the dates blanked: ${diff.slice(0, 12).join(', ')}${diff.length > 12 ? ', …' : ''}`];
  const ta = pdfPageTexts(fa);
  const tb = pdfPageTexts(fb);
  if (ta && tb) {
    for (let i = 0; i < Math.max(ta.length, tb.length); i++) {
      if (ta[i] !== tb[i]) out.push(`    page ${i + 1} text:`, ...lineDiff(ta[i] ?? '', tb[i] ?? '', 3));
    }
  }
  return out;
}

// ---------------------------------------------------------------- main

const { values, positionals } = parseArgs({
  options: { api: { type: 'string' }, out: { type: 'string' }, key: { type: 'string' }, compare: { type: 'boolean' }, report: { type: 'string' } },
  allowPositionals: true,
});
if (values.compare) {
  if (positionals.length !== 2) throw new Error('usage: node scripts/api-answers.ts --compare before.json after.json [--report diff.txt]');
  compare(positionals[0]!, positionals[1]!, values.report);
} else {
  if (!values.api || !values.out) throw new Error('usage: node scripts/api-answers.ts --api http://127.0.0.1:PORT --out FILE [--key KEY]');
  await walk(values.api.replace(/\/+$/, ''), path.resolve(values.out), values.key ?? process.env.API_KEY);
}
