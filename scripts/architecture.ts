// Prints the figures of the code's shape that the architecture keeps, read from the code itself:
//
//   npm run architecture            (node scripts/architecture.ts [--json] [--before <commit>])
//
// With `--before <commit>` the same figures are read from that commit too (a temporary git
// worktree sharing this checkout's node_modules) and printed as before -> after.
//
// 1. Import cycles among src/**/*.ts, type imports included (dependency-cruiser's graph; each
//    strongly connected set of files is one cycle).
// 2. What the API process loads: `src/api/server.ts` is started with a load hook and without
//    DATABASE_URL, so it loads its whole static import graph and exits before serving; every
//    loaded file of src and every package is counted, and the heavy ones named (Playwright, axe).
// 3. The largest files of src, and every file over 600 lines.
// 4. Imports that cross what must stay apart: one activity folder into another, the audit into
//    discovery or back, and the database handle's other names (Kysely<DB>, local Db unions).
// 5. What the code says about itself: comments in src that cite an issue number instead of
//    saying why, and `as never` casts that hide a route's answer type.
// The rules themselves are enforced by `npm run lint`: the layer rules by ESLint (eslint.config.js),
// no cycle and nothing of the worker side reachable from src/api by dependency-cruiser
// (.dependency-cruiser.cjs).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise } from 'dependency-cruiser';

const here = resolve(fileURLToPath(new URL('..', import.meta.url)));
const asJson = process.argv.includes('--json');
const beforeAt = process.argv.indexOf('--before');
const beforeCommit = beforeAt > 0 ? process.argv[beforeAt + 1] : undefined;
/** The load hook is this checkout's, so that an older tree is measured the same way. */
const recordLoads = join(here, 'scripts', 'record-loads.ts');

async function importGraph(root: string): Promise<Map<string, string[]>> {
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

function apiLoads(root: string): { srcFiles: string[]; packages: string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'api-loads-'));
  const out = join(dir, 'loads.json');
  try {
    const env = { ...process.env, LOADS_OUT: out, DATABASE_URL: '', TEMPORAL_ADDRESS: '', LOG_LEVEL: 'silent' };
    const run = spawnSync(process.execPath, ['--import', recordLoads, 'src/api/server.ts'], { cwd: root, env, encoding: 'utf8' });
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

function largestFiles(root: string, graph: Map<string, string[]>): { file: string; lines: number }[] {
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
function handleNames(root: string, graph: Map<string, string[]>): { kyselyDb: number; localDbUnions: number; dbDeclarations: number } {
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

/** Comments that cite an issue rather than say why, and casts that hide a route's answer type. */
function selfDescription(root: string, graph: Map<string, string[]>): { issueComments: number; asNever: number } {
  let issueComments = 0;
  let asNever = 0;
  for (const file of graph.keys()) {
    const text = readFileSync(join(root, file), 'utf8');
    for (const line of text.split('\n')) {
      const comment = /(?:\/\/|\/\*|^\s*\*)(.*)$/.exec(line)?.[1];
      if (comment && /\bissues? #?\d+|#\d{2,}\b/i.test(comment)) issueComments++;
    }
    if (file.startsWith('src/api/')) asNever += (text.match(/\bas never\b/g) ?? []).length;
  }
  return { issueComments, asNever };
}

/** What only workers need: the browser, the engines, the model client, the worker runtime. */
const HEAVY = ['playwright', 'playwright-core', '@axe-core/playwright', 'axe-core', 'openai', '@temporalio/worker'];

async function measure(root: string) {
  const graph = await importGraph(root);
  const crossed = crossings(graph);
  const loads = apiLoads(root);
  const sizes = largestFiles(root, graph);
  return {
    srcFiles: graph.size,
    cycles: cycles(graph),
    api: {
      srcFilesLoaded: loads.srcFiles.length,
      activityFilesLoaded: loads.srcFiles.filter((f) => f.startsWith('src/activities/') || f.startsWith('src/audit/')).length,
      heavyPackagesLoaded: HEAVY.filter((p) => loads.packages.includes(p)),
      packagesLoaded: loads.packages.length,
      srcFiles: loads.srcFiles,
      packages: loads.packages,
    },
    filesOver600: sizes.filter((s) => s.lines > 600),
    activityToActivityImports: crossed.activityToActivity,
    auditDiscoveryImports: crossed.auditDiscovery,
    databaseHandle: handleNames(root, graph),
    selfDescription: selfDescription(root, graph),
    largest: sizes.slice(0, 8),
  };
}
type Report = Awaited<ReturnType<typeof measure>>;

/** `commit` checked out beside this tree, measured, and removed again. */
async function measureCommit(commit: string): Promise<Report> {
  const dir = mkdtempSync(join(tmpdir(), 'architecture-before-'));
  const tree = join(dir, 'tree');
  const git = (...args: string[]) => {
    const r = spawnSync('git', args, { cwd: here, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr.trim()}`);
  };
  git('worktree', 'add', '--detach', '--quiet', tree, commit);
  try {
    if (!existsSync(join(tree, 'node_modules'))) symlinkSync(join(here, 'node_modules'), join(tree, 'node_modules'));
    return await measure(tree);
  } finally {
    git('worktree', 'remove', '--force', tree);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The figures compared, one line each. */
function figures(r: Report): Array<[string, number]> {
  return [
    ['src files', r.srcFiles],
    ['import cycles (type imports included)', r.cycles.length],
    ['src files the API process loads', r.api.srcFilesLoaded],
    ['  of them audit or activity code', r.api.activityFilesLoaded],
    ['packages the API process loads', r.api.packagesLoaded],
    ['  heavy ones (browser, axe, model client, worker)', r.api.heavyPackagesLoaded.length],
    ['files over 600 lines', r.filesOver600.length],
    ['activity-to-activity imports', r.activityToActivityImports.length],
    ['audit <-> discovery imports (type imports included)', r.auditDiscoveryImports.length],
    ['Kysely<DB> outside its one alias', r.databaseHandle.kyselyDb],
    ['local Db unions', r.databaseHandle.localDbUnions],
    ['DB declarations', r.databaseHandle.dbDeclarations],
    ['comments citing an issue', r.selfDescription.issueComments],
    ['`as never` in src/api', r.selfDescription.asNever],
  ];
}

const report = await measure(here);
const before = beforeCommit ? await measureCommit(beforeCommit) : undefined;
const found = report.cycles;
const crossed = { activityToActivity: report.activityToActivityImports, auditDiscovery: report.auditDiscoveryImports };
const handles = report.databaseHandle;
if (asJson) console.log(JSON.stringify(before ? { ...report, before } : report, null, 2));
else if (before) {
  const rows = figures(report);
  const old = new Map(figures(before));
  const width = Math.max(...rows.map(([name]) => name.length));
  console.log(`${'figure'.padEnd(width)}  before (${beforeCommit}) -> now`);
  for (const [name, value] of rows) console.log(`${name.padEnd(width)}  ${String(old.get(name)).padStart(6)} -> ${value}`);
} else {
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
  console.log(`comments citing an issue: ${report.selfDescription.issueComments}, \`as never\` in src/api: ${report.selfDescription.asNever}`);
  console.log(`files over 600 lines: ${report.filesOver600.length}`);
  for (const s of report.largest) console.log(`  ${String(s.lines).padStart(5)}  ${s.file}`);
}
