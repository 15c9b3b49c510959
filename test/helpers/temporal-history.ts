/**
 * Every payload of a Temporal history decoded to text, so a value typed anywhere in it (a
 * secret, a flow's input) would show in the string returned.
 */
export function historyText(history: unknown): string {
  return JSON.stringify(history, (k, v) => {
    if (v instanceof Uint8Array) return Buffer.from(v).toString('utf8');
    // Payload bytes as the history's JSON form gives them: base64.
    if (k === 'data' && typeof v === 'string') return Buffer.from(v, 'base64').toString('utf8');
    // A Buffer has already become { type: 'Buffer', data: [...] } by its toJSON.
    if (v && typeof v === 'object' && v.type === 'Buffer' && Array.isArray(v.data)) return Buffer.from(v.data).toString('utf8');
    return v;
  });
}
