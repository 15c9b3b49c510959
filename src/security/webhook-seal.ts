import type { Sealed, SecretsKey } from './secrets.ts';

/**
 * A webhook's signing secret at rest: sealed with SECRETS_KEY like a site's login and flows, and
 * bound to its webhook's id, so a ciphertext copied onto another webhook (another tenant's) does
 * not open there.
 */
const binding = (webhookId: string) => `webhooks:${webhookId}`;

export const sealWebhookSecret = (key: SecretsKey, webhookId: string, secret: string): Sealed => key.seal(secret, binding(webhookId));

/** The secret; throws SecretOpenError when it does not open with this key (another key, or altered, or another row's). */
export const openWebhookSecret = (key: SecretsKey, webhookId: string, sealed: Sealed): string => key.open(sealed, binding(webhookId));
