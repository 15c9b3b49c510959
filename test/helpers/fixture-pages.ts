// The pages under test/fixtures, served through the static server of test/support.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { html, type Handler } from '../support/static-server.ts';

export const FIXTURES = path.resolve(import.meta.dirname, '..', 'fixtures');

/** A handler answering the fixture page at `rel` (relative to test/fixtures), read once. */
export function fixtureFile(rel: string): Handler {
  return html(readFileSync(path.join(FIXTURES, rel), 'utf8'));
}
