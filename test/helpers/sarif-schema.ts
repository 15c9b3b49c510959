import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

// Both packages are CommonJS with `exports.default`; require gives their classes without interop guesswork.
const require = createRequire(import.meta.url);
interface ErrorObject {
  instancePath: string;
  message?: string;
}
interface Validator {
  (data: unknown): boolean;
  errors?: ErrorObject[] | null;
}
interface AjvInstance {
  compile(schema: object): Validator;
}
const Ajv = require('ajv-draft-04') as new (opts: object) => AjvInstance;
const addFormats = require('ajv-formats') as (ajv: AjvInstance) => AjvInstance;

// The official SARIF 2.1.0 schema (draft-04), read from the package that ships it.
const schema = JSON.parse(readFileSync(require.resolve('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json'), 'utf8')) as object;
// unicodeRegExp off: the schema's `language` pattern has a stray `]` that only non-unicode regexes accept.
const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
addFormats(ajv);
const validate = ajv.compile(schema);

/** What the official SARIF 2.1.0 schema finds wrong with a log (none: valid). */
export function schemaErrors(log: unknown): string[] {
  return validate(log) ? [] : (validate.errors ?? []).map((e: ErrorObject) => `${e.instancePath} ${e.message}`);
}

