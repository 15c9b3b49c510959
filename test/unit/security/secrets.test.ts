import { describe, expect, it } from 'vitest';
import { inspect } from 'node:util';
import { generateSecretsKey, keyIdOf, open, parseSecretsKey, seal, SecretOpenError, SecretsKey, SecretsKeyError } from '../../../src/security/secrets.ts';
import { openSiteAuth, sealSiteAuth } from '../../../src/security/site-seal.ts';

const KEY = parseSecretsKey('00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff');
const OTHER = parseSecretsKey(generateSecretsKey());

describe('secrets at rest (AES-256-GCM)', () => {
  it('round-trips a value and never stores it in the clear', () => {
    const s = seal(KEY, 'hunter2-password', 'site_auth:a');
    expect(s.ciphertext.toString('utf8')).not.toContain('hunter2');
    expect(s.iv).toHaveLength(12);
    expect(s.tag).toHaveLength(16);
    expect(s.keyId).toBe(keyIdOf(KEY));
    expect(open(KEY, s, 'site_auth:a')).toBe('hunter2-password');
    // A fresh IV each time: the same value seals differently.
    expect(seal(KEY, 'hunter2-password', 'site_auth:a').ciphertext.equals(s.ciphertext)).toBe(false);
  });

  it('refuses another key, even one claiming the right key id', () => {
    const s = seal(KEY, 'secret', 'b');
    expect(() => open(OTHER, s, 'b')).toThrow(SecretOpenError);
    expect(() => open(OTHER, { ...s, keyId: keyIdOf(OTHER) }, 'b')).toThrow(SecretOpenError);
  });

  it('refuses tampering with the ciphertext, tag, IV or the row it is bound to', () => {
    const s = seal(KEY, 'secret value', 'site_auth:1');
    const flip = (b: Buffer, i = 0) => {
      const c = Buffer.from(b);
      c[i] = c[i]! ^ 1;
      return c;
    };
    expect(() => open(KEY, { ...s, ciphertext: flip(s.ciphertext) }, 'site_auth:1')).toThrow(SecretOpenError);
    expect(() => open(KEY, { ...s, tag: flip(s.tag) }, 'site_auth:1')).toThrow(SecretOpenError);
    expect(() => open(KEY, { ...s, iv: flip(s.iv) }, 'site_auth:1')).toThrow(SecretOpenError);
    expect(() => open(KEY, s, 'site_auth:2')).toThrow(SecretOpenError);
  });

  it('reads a key as hex or base64 and refuses anything else', () => {
    const b64 = generateSecretsKey();
    expect(parseSecretsKey(b64)).toHaveLength(32);
    expect(parseSecretsKey(b64.replace(/\+/g, '-').replace(/\//g, '_'))).toEqual(parseSecretsKey(b64));
    for (const bad of ['', 'short', 'a'.repeat(63), Buffer.alloc(16).toString('base64'), Buffer.alloc(33).toString('base64')]) {
      expect(() => parseSecretsKey(bad), bad).toThrow(SecretsKeyError);
    }
  });

  it('keeps the key out of JSON, logs and inspection', () => {
    const text = generateSecretsKey();
    const key = SecretsKey.parse(text);
    const hex = parseSecretsKey(text).toString('hex');
    for (const shown of [JSON.stringify({ key }), inspect(key, { showHidden: true, depth: 5 }), String(key)]) {
      expect(shown).not.toContain(text);
      expect(shown).not.toContain(hex);
    }
    expect(JSON.parse(JSON.stringify(key))).toEqual({ keyId: key.id });
  });

  it('seals a site set-up for its own row only', () => {
    const key = SecretsKey.parse(generateSecretsKey());
    const setup = { basic: { username: 'u', password: 'p@ss' } };
    const sealed = sealSiteAuth(key, 'site-1', setup);
    expect(openSiteAuth(key, 'site-1', sealed)).toEqual(setup);
    expect(() => openSiteAuth(key, 'site-2', sealed)).toThrow(SecretOpenError);
  });
});
