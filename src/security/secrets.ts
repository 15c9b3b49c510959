import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * Secrets at rest: AES-256-GCM with the key from `SECRETS_KEY`. Pure apart from the random IV: no
 * I/O, no logging. Every value is sealed with a fresh 12-byte IV and bound (as additional
 * authenticated data) to the row it belongs to, so a ciphertext copied onto another site's row
 * does not open there.
 */

export const SECRETS_KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;

export interface Sealed {
  ciphertext: Buffer;
  iv: Buffer;
  tag: Buffer;
  /** Which key sealed it: a short hash of the key, never the key. */
  keyId: string;
}

export class SecretsKeyError extends Error {
  override name = 'SecretsKeyError';
}

/** The value cannot be opened: another key sealed it, or it (or its row binding) was altered. */
export class SecretOpenError extends Error {
  override name = 'SecretOpenError';
}

/** A 32-byte key given as 64 hex digits or as base64 (standard or URL-safe); anything else throws. */
export function parseSecretsKey(text: string): Buffer {
  const t = text.trim();
  let key: Buffer | undefined;
  if (/^[0-9a-fA-F]{64}$/.test(t)) key = Buffer.from(t, 'hex');
  else if (/^[A-Za-z0-9+/_-]{43}=?$/.test(t)) key = Buffer.from(t.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  if (!key || key.length !== SECRETS_KEY_BYTES) {
    throw new SecretsKeyError(`SECRETS_KEY must be ${SECRETS_KEY_BYTES} bytes, as 64 hex digits or base64 (e.g. the output of: openssl rand -base64 32)`);
  }
  return key;
}

/** A new random key in the base64 form parseSecretsKey reads. */
export function generateSecretsKey(): string {
  return randomBytes(SECRETS_KEY_BYTES).toString('base64');
}

/** A short, non-reversible name of a key, stored beside what it sealed. */
export function keyIdOf(key: Buffer): string {
  return createHash('sha256').update('a11y-audit secrets key id\0').update(key).digest('hex').slice(0, 16);
}

export function seal(key: Buffer, plaintext: string, boundTo: string): Sealed {
  if (key.length !== SECRETS_KEY_BYTES) throw new SecretsKeyError('the secrets key must be 32 bytes');
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(boundTo, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return { ciphertext, iv, tag: cipher.getAuthTag(), keyId: keyIdOf(key) };
}

/** The plaintext, or SecretOpenError (wrong key, altered ciphertext, IV, tag or binding). */
export function open(key: Buffer, sealed: Sealed, boundTo: string): string {
  if (sealed.keyId !== keyIdOf(key)) throw new SecretOpenError('sealed with another SECRETS_KEY than the one configured');
  if (sealed.iv.length !== IV_BYTES || sealed.tag.length !== TAG_BYTES) throw new SecretOpenError('the sealed value is malformed');
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, sealed.iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(boundTo, 'utf8'));
    decipher.setAuthTag(sealed.tag);
    return Buffer.concat([decipher.update(sealed.ciphertext), decipher.final()]).toString('utf8');
  } catch {
    throw new SecretOpenError('the sealed value does not authenticate (altered, or sealed with another key)');
  }
}

/**
 * The configured key, held where neither JSON.stringify, pino nor util.inspect can print it (a
 * private field): a Config that is logged shows only the key's id.
 */
export class SecretsKey {
  readonly #key: Buffer;
  readonly id: string;
  constructor(key: Buffer) {
    if (key.length !== SECRETS_KEY_BYTES) throw new SecretsKeyError('the secrets key must be 32 bytes');
    this.#key = Buffer.from(key);
    this.id = keyIdOf(key);
  }
  static parse(text: string): SecretsKey {
    return new SecretsKey(parseSecretsKey(text));
  }
  seal(plaintext: string, boundTo: string): Sealed {
    return seal(this.#key, plaintext, boundTo);
  }
  open(sealed: Sealed, boundTo: string): string {
    return open(this.#key, sealed, boundTo);
  }
  toJSON(): { keyId: string } {
    return { keyId: this.id };
  }
}
