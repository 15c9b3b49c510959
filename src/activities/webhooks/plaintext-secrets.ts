import type { Database } from '../../db/database.ts';
import { listPlaintextSecrets, sealPlaintextSecret } from '../../db/repositories/webhook.repository.ts';
import type { SecretsKey } from '../../security/secrets.ts';
import { sealWebhookSecret } from '../../security/webhook-seal.ts';

/**
 * Seals the webhook secrets written in plaintext before secrets were sealed. A migration cannot do
 * it (it has no key, and must not need one), so each worker does it at start-up when it has
 * SECRETS_KEY, in batches, racing no one (a row already sealed is left alone). A row written in
 * plaintext after that, by an API of the previous version during a rolling upgrade, is sealed by
 * the first delivery that uses it, or by the next PUT of its site's webhooks. Returns how many it sealed.
 */
export async function sealPlaintextWebhookSecrets(db: Database, key: SecretsKey, batch = 500): Promise<number> {
  let sealed = 0;
  for (let round = 0; round < 10_000; round++) {
    const rows = await listPlaintextSecrets(db, batch);
    if (!rows.length) break;
    for (const r of rows) if (await sealPlaintextSecret(db, r.id, r.secret, sealWebhookSecret(key, r.id, r.secret))) sealed++;
  }
  return sealed;
}
