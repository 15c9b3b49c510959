// The keyboard walk priced per element against real Tab presses: on every page of the corpora
// (ipython-docs sampled, every ACT test case, every GDS barrier page and example page), the
// order Tab reaches elements in, walked once by `tabWalk` (focus moved along the computed order,
// real presses only where scripts listen to keys) and once by real presses throughout, from a
// fresh load each. Prints how many pages agree, each page that does not, and the time of both.
// Asserts nothing.
//   node bench/tab-order.bench.ts [ipython-pages=100]
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Page } from 'playwright';
import { CHROMIUM_ARGS, resolveChromiumPath } from '../src/audit/session/browser-provider.ts';
import { analyseWalk } from '../src/audit/engines/keyboard/focus-walk.ts';
import { KEY_EVENTS, keyListenersOf, listenerIds } from '../src/audit/engines/keyboard/page-facts.ts';
import { fastWalk, tabWalk } from '../src/audit/engines/keyboard/presses.ts';
import { installProbe, probe } from '../src/audit/engines/keyboard/probe.ts';
import { startStaticServer } from '../test/support/static-server.ts';

const ipythonCount = Number(process.argv[2] ?? 100);
const corpora = path.resolve('..', 'shared', 'corpora');
const htmlUnder = (dir: string) => (readdirSync(dir, { recursive: true }) as string[]).filter((f) => f.endsWith('.html')).sort();

const ipy = await startStaticServer({}, { root: path.join(corpora, 'ipython-docs', 'site') });
const act = await startStaticServer({}, { root: path.join(corpora, 'act-rules', 'site') });
const gds = await startStaticServer({}, { root: path.join(corpora, 'gds-audit', 'site') });
const ipyFiles = htmlUnder(path.join(corpora, 'ipython-docs', 'site'));
const step = Math.max(1, Math.floor(ipyFiles.length / ipythonCount));
const cases = (JSON.parse(readFileSync(path.join(corpora, 'act-rules', 'site', 'WAI', 'content-assets', 'wcag-act-rules', 'testcases.json'), 'utf8')) as { testcases: Array<{ relativePath: string }> }).testcases;
const pages: Array<[string, string]> = [
  ...ipyFiles.filter((_, i) => i % step === 0).slice(0, ipythonCount).map((f): [string, string] => ['ipython', `${ipy.origin}/${f}`]),
  ...cases.filter((c) => c.relativePath.endsWith('.html')).map((c): [string, string] => ['act', `${act.origin}/WAI/content-assets/wcag-act-rules/${c.relativePath}`]),
  ...['tests', 'example-pages'].flatMap((d) => htmlUnder(path.join(corpora, 'gds-audit', 'site', d)).map((f): [string, string] => ['gds', `${gds.origin}/${d}/${f}`])),
];

const browser = await chromium.launch({ executablePath: resolveChromiumPath(process.env.CHROMIUM_PATH), args: CHROMIUM_ARGS });
const context = await browser.newContext();

/** Where each element of the first round is, as a path of tag names and child numbers (stable across loads). */
async function orderOf(page: Page, ids: number[]): Promise<string[]> {
  return probe(page, (k, list: number[]) =>
    list.map((id) => {
      const parts: string[] = [];
      for (let n = k.el(id) ?? null; n && n.parentElement; n = n.parentElement) parts.unshift(`${n.localName}:${Array.prototype.indexOf.call(n.parentElement.children, n)}`);
      return parts.join('>');
    }),
  ids);
}

async function walk(url: string, computed: boolean): Promise<{ order: string[]; completed: boolean; ms: number; pressed: number; why?: string } | null> {
  const page = await context.newPage();
  page.on('dialog', (d) => void d.dismiss().catch(() => {}));
  try {
    await page.goto(url, { waitUntil: 'load', timeout: 15_000 });
    const cdp = await context.newCDPSession(page);
    await page.evaluate(installProbe);
    await probe(page, (k) => k.blur());
    const t0 = performance.now();
    const tabbable = await probe(page, (k) => k.tabbable());
    const cap = Math.min(200, 2 * tabbable.length + 10);
    let positions;
    let pressed;
    let why: string | undefined;
    let listenerMs = 0;
    if (computed) {
      // The engine asks DevTools for the page's listeners anyway (clickable things Tab cannot
      // reach): that call is not the walk's price.
      const l0 = performance.now();
      const l = await listenerIds(page, cdp, { keys: KEY_EVENTS });
      listenerMs = performance.now() - l0;
      const r = await tabWalk(page, cdp, cap, keyListenersOf(l));
      ({ positions, pressed, why } = r);
    } else {
      positions = await fastWalk(page, cdp, cap);
      pressed = positions.length;
    }
    const ms = performance.now() - t0 - listenerMs;
    const a = analyseWalk(positions);
    return { order: await orderOf(page, a.order), completed: a.completed, ms, pressed, why };
  } catch {
    return null;
  } finally {
    await page.close().catch(() => {});
  }
}

const tally = new Map<string, { pages: number; same: number; differ: number; failed: number; computedMs: number; realMs: number; pressed: number; steps: number; unknown: number }>();
for (const [corpus, url] of pages) {
  const t = tally.get(corpus) ?? tally.set(corpus, { pages: 0, same: 0, differ: 0, failed: 0, computedMs: 0, realMs: 0, pressed: 0, steps: 0, unknown: 0 }).get(corpus)!;
  t.pages++;
  const a = await walk(url, true);
  const b = await walk(url, false);
  if (!a || !b) {
    t.failed++;
    continue;
  }
  t.computedMs += a.ms;
  t.realMs += b.ms;
  t.pressed += a.pressed;
  t.steps += a.order.length;
  if (a.why) t.unknown++;
  // A real walk cut off by its cap reached fewer elements: compare what both reached.
  const n = Math.min(a.order.length, b.order.length);
  const same = a.order.slice(0, n).join('|') === b.order.slice(0, n).join('|') && (a.completed === b.completed || n === Math.max(a.order.length, b.order.length));
  if (same) t.same++;
  else {
    t.differ++;
    const at = a.order.findIndex((x, i) => x !== b.order[i]);
    console.log(`differs ${url.replace(/^http:\/\/[^/]+/, '')}: at ${at}: computed ${a.order[at] ?? 'end'} / real ${b.order[at] ?? 'end'} (${a.order.length} / ${b.order.length} elements${a.why ? `, ${a.why}` : ''})`);
  }
}
for (const [corpus, t] of tally) {
  console.log(
    `${corpus}: ${t.pages} pages, same order ${t.same}, differs ${t.differ}, not loaded ${t.failed}; walk ms/page computed ${(t.computedMs / Math.max(1, t.pages - t.failed)).toFixed(1)} vs real presses ${(t.realMs / Math.max(1, t.pages - t.failed)).toFixed(1)}; real presses in the computed walks ${t.pressed}, pages handed to real presses ${t.unknown}`,
  );
}
await browser.close();
await Promise.all([ipy.close(), act.close(), gds.close()]);
