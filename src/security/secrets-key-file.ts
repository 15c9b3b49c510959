import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { generateSecretsKey, parseSecretsKey } from './secrets.ts';

/**
 * The key `npm start` uses when SECRETS_KEY is unset: read from `file`, or made once and written
 * there, readable by its owner only (0600). Losing the file makes stored login set-ups unreadable
 * (they must be stored again); it is never logged.
 */
export function ensureSecretsKeyFile(file: string): string {
  try {
    const text = readFileSync(file, 'utf8').trim();
    parseSecretsKey(text);
    chmodSync(file, 0o600);
    return text;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw new Error(`${file} does not hold a valid secrets key; remove it to make a new one (stored login set-ups must then be stored again)`, { cause: err });
  }
  mkdirSync(path.dirname(file), { recursive: true });
  const key = generateSecretsKey();
  // `wx`: never overwrite a key another process wrote meanwhile.
  try {
    writeFileSync(file, `${key}\n`, { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return ensureSecretsKeyFile(file);
    throw err;
  }
  return key;
}
