// Records every module a Node process loads, and every file of a package it reads whole at start-up
// (axe's source is read as text to inject into pages, not imported), for `npm run architecture`:
//   LOADS_OUT=file node --import ./scripts/record-loads.ts <entry>
// writes the loaded and read URLs (file: and node:) as a JSON array to LOADS_OUT when the process exits.
import fs from 'node:fs';
import { registerHooks, syncBuiltinESMExports } from 'node:module';
import { pathToFileURL } from 'node:url';

const loaded = new Set<string>();
registerHooks({
  load(url, context, nextLoad) {
    loaded.add(url);
    return nextLoad(url, context);
  },
});
const readFileSync = fs.readFileSync;
fs.readFileSync = function (this: unknown, ...args: Parameters<typeof fs.readFileSync>) {
  const [file] = args;
  if (typeof file === 'string' && file.includes('/node_modules/')) loaded.add(pathToFileURL(file).href);
  return readFileSync.apply(this, args);
} as typeof fs.readFileSync;
syncBuiltinESMExports();
process.on('exit', () => {
  if (process.env.LOADS_OUT) fs.writeFileSync(process.env.LOADS_OUT, JSON.stringify([...loaded].sort()));
});
