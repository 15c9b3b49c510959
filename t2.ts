import { readFileSync } from 'node:fs';
import { readPdfInWorker } from './src/audit/documents/read-in-worker.ts';
import { judgePdf } from './src/audit/documents/judge-pdf.ts';
for (const f of process.argv.slice(2)) {
  const r = await readPdfInWorker(readFileSync(f), { timeoutMs: 20000, memoryMb: 256 });
  console.log('==', f, r.kind === 'read' ? JSON.stringify({ ...r.facts, text: r.facts.text.slice(0, 3) }).slice(0, 900) : JSON.stringify(r));
  if (r.kind === 'read') console.log(judgePdf(r.facts).findings.map((x) => `${x.ruleId} ${x.type} ${x.elementSelector}`).join('\n'));
}
