// Prints the figures of the code's shape that the architecture keeps, read from the code itself:
//
//   npm run architecture            (node scripts/architecture.ts [--json])
//
// 1. Import cycles among src/**/*.ts, type imports included (dependency-cruiser's graph; each
//    strongly connected set of files is one cycle).
// 2. What the API process loads: `src/api/server.ts` is started with a load hook and without
//    DATABASE_URL, so it loads its whole static import graph and exits before serving; every
//    loaded file of src and every package is counted, and the heavy ones named (Playwright, axe).
// 3. The largest files of src, and every file over 600 lines.
// 4. Imports that cross what must stay apart: one activity folder into another, the audit into
//    discovery or back, and the database handle's other names (Kysely<DB>, local Db unions).
// The rules themselves are enforced by `npm run lint`: the layer rules by ESLint (eslint.config.js),
// no cycle and nothing of the worker side reachable from src/api by dependency-cruiser
// (.dependency-cruiser.cjs).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise } from 'dependency-cruiser';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const asJson = process.argv.includes('--json');

async function importGraph(): Promise<Map<string, string[]>> {
  const result = await cruise(['src'], {
    baseDir: root,
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    includeOnly: '^src/',
  });
  if (typeof result.output === 'string') throw new Error('dependency-cruiser gave text, not a graph');
  const graph = new Map<string, string[]>();
  for (const m of result.output.modules) graph.set(m.source, m.dependencies.map((d) => d.resolved).filter((r) => r.startsWith('src/')));
  return graph;
}

/** Tarjan's strongly connected components with more than one file (or a file importing itself). */
function cycles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || (graph.get(v) ?? []).includes(v)) out.push(scc.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!idx.has(v)) visit(v);
  return out;
}

function apiLoads(): { srcFiles: string[]; packages: string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'api-loads-'));
  const out = join(dir, 'loads.json');
  try {
    const env = { ...process.env, LOADS_OUT: out, DATABASE_URL: '', TEMPORAL_ADDRESS: '', LOG_LEVEL: 'silent' };
    const run = spawnSync(process.execPath, ['--import', './scripts/record-loads.ts', 'src/api/server.ts'], { cwd: root, env, encoding: 'utf8' });
    if (run.status !== 2) throw new Error(`src/api/server.ts was expected to exit 2 without DATABASE_URL; it exited ${run.status}: ${run.stderr}`);
    const urls: string[] = JSON.parse(readFileSync(out, 'utf8'));
    const files = urls.filter((u) => u.startsWith('file:')).map((u) => relative(root, fileURLToPath(u)));
    const packages = new Set<string>();
    for (const f of files) {
      // A package counts as loaded when its code is: reading a package.json (e.g. for a version) is not.
      const m = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\/(.*)$/.exec(f);
      if (m && m[2] !== 'package.json') packages.add(m[1]!);
    }
    return { srcFiles: files.filter((f) => f.startsWith('src/')), packages: [...packages].sort() };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function largestFiles(graph: Map<string, string[]>): { file: string; lines: number }[] {
  return [...graph.keys()]
    .map((file) => ({ file, lines: readFileSync(join(root, file), 'utf8').split('\n').length - 1 }))
    .sort((a, b) => b.lines - a.lines);
}

/** Edges of the graph between two parts that must stay apart. */
function crossings(graph: Map<string, string[]>): { activityToActivity: string[]; auditDiscovery: string[] } {
  const activity = (f: string) => /^src\/activities\/([^/]+)\//.exec(f)?.[1];
  const part = (f: string) => /^src\/(audit|discovery)\//.exec(f)?.[1];
  const activityToActivity: string[] = [];
  const auditDiscovery: string[] = [];
  for (const [from, tos] of graph) {
    for (const to of tos) {
      const [a, b] = [activity(from), activity(to)];
      if (a && b && a !== b) activityToActivity.push(`${from} -> ${to}`);
      const [p, q] = [part(from), part(to)];
      if (p && q && p !== q) auditDiscovery.push(`${from} -> ${to}`);
    }
  }
  return { activityToActivity, auditDiscovery };
}

/** Signatures that name the database handle otherwise than `Database` (a transaction that must be one aside). */
function handleNames(graph: Map<string, string[]>): { kyselyDb: number; localDbUnions: number; dbDeclarations: number } {
  let kyselyDb = 0;
  let localDbUnions = 0;
  let dbDeclarations = 0;
  for (const file of graph.keys()) {
    const text = readFileSync(join(root, file), 'utf8');
    kyselyDb += (text.match(/(?<!new |type Database = )Kysely<DB>/g) ?? []).length;
    localDbUnions += (text.match(/type Db = /g) ?? []).length;
    dbDeclarations += (text.match(/^export interface DB\b/gm) ?? []).length;
  }
  return { kyselyDb, localDbUnions, dbDeclarations };
}

const graph = await importGraph();
const crossed = crossings(graph);
const handles = handleNames(graph);
const found = cycles(graph);
const loads = apiLoads();
const sizes = largestFiles(graph);
/** What only workers need: the browser, the engines, the model client, the worker runtime. */
const HEAVY = ['playwright', 'playwright-core', '@axe-core/playwright', 'axe-core', 'openai', '@temporalio/worker'];
const report = {
  srcFiles: graph.size,
  cycles: found,
  api: {
    srcFilesLoaded: loads.srcFiles.length,
    activityFilesLoaded: loads.srcFiles.filter((f) => f.startsWith('src/activities/') || f.startsWith('src/audit/')).length,
    heavyPackagesLoaded: HEAVY.filter((p) => loads.packages.includes(p)),
    packagesLoaded: loads.packages.length,
  },
  filesOver600: sizes.filter((s) => s.lines > 600),
  activityToActivityImports: crossed.activityToActivity,
  auditDiscoveryImports: crossed.auditDiscovery,
  databaseHandle: handles,
  largest: sizes.slice(0, 8),
};
if (asJson) console.log(JSON.stringify({ ...report, api: { ...report.api, srcFiles: loads.srcFiles, packages: loads.packages } }, null, 2));
else {
  console.log(`src: ${report.srcFiles} files`);
  console.log(`import cycles (type imports included): ${found.length}`);
  for (const c of found) console.log(`  ${c.length} files: ${c.join(', ')}`);
  console.log(`API process (src/api/server.ts) loads ${report.api.srcFilesLoaded} files of src, ${report.api.activityFilesLoaded} of them audit or activity code, and ${report.api.packagesLoaded} packages`);
  console.log(`  heavy packages loaded: ${report.api.heavyPackagesLoaded.length ? report.api.heavyPackagesLoaded.join(', ') : 'none'}`);
  console.log(`activity-to-activity imports: ${crossed.activityToActivity.length}`);
  for (const e of crossed.activityToActivity) console.log(`  ${e}`);
  console.log(`audit <-> discovery imports (type imports included): ${crossed.auditDiscovery.length}`);
  for (const e of crossed.auditDiscovery) console.log(`  ${e}`);
  console.log(`database handle: Kysely<DB> outside its one alias ${handles.kyselyDb}, local Db unions ${handles.localDbUnions}, DB declarations ${handles.dbDeclarations}`);
  console.log(`files over 600 lines: ${report.filesOver600.length}`);
  for (const s of report.largest) console.log(`  ${String(s.lines).padStart(5)}  ${s.file}`);
}
