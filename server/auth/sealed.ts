import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/** What the secrets at rest (the companies' publishing tokens) are sealed with. */
export type Sealer = { seal(plain: string): string; open(sealed: string): string };

export const CONNECTOR_KEY_MIN = 32;
const VERSION = 'v1';

/**
 * AES-256-GCM under a key derived (HKDF-SHA-256) from CONNECTOR_KEY: each secret gets its own
 * random nonce, and the tag refuses a sealed value that was altered or sealed under another key.
 * Stored as `v1.<nonce>.<ciphertext>.<tag>` in base64url.
 */
export function createSealer(secret: string): Sealer {
  if (secret.length < CONNECTOR_KEY_MIN) throw new Error(`CONNECTOR_KEY must be at least ${CONNECTOR_KEY_MIN} characters (for example: openssl rand -base64 48)`);
  const key = Buffer.from(hkdfSync('sha256', secret, 'ai-chat-ops', 'connector secrets', 32));
  return {
    seal(plain) {
      const nonce = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, nonce);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [VERSION, nonce, body, cipher.getAuthTag()].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.');
    },
    open(sealed) {
      const [version, nonce, body, tag] = sealed.split('.');
      if (version !== VERSION || !nonce || body === undefined || !tag) throw new Error('not a sealed secret of this server');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(nonce, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}

/** The sealer of this server, or null when CONNECTOR_KEY is not set (no secret can then be stored). */
export function sealerFromEnv(env: NodeJS.ProcessEnv): Sealer | null {
  const secret = env.CONNECTOR_KEY?.trim();
  return secret ? createSealer(secret) : null;
}
