// Records every module a Node process loads, for `npm run architecture`:
//   LOADS_OUT=file node --import ./scripts/record-loads.ts <entry>
// writes the loaded URLs (file: and node:) as a JSON array to LOADS_OUT when the process exits.
import { registerHooks } from 'node:module';
import { writeFileSync } from 'node:fs';

const loaded = new Set<string>();
registerHooks({
  load(url, context, nextLoad) {
    loaded.add(url);
    return nextLoad(url, context);
  },
});
process.on('exit', () => {
  if (process.env.LOADS_OUT) writeFileSync(process.env.LOADS_OUT, JSON.stringify([...loaded].sort()));
});
